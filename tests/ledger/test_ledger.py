"""The ledger: canonical lines in notes, one commit per append, anchors, CAS, no losses."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from gitcorrex.errors import ExitCode, LedgerContentionError, UsageError
from gitcorrex.git import Repository, notes
from gitcorrex.ledger import EventDraft, LedgerView, append_events, read_all, read_subject
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.canonical import canonical_json
from gitcorrex.model.events import (
    Actor,
    Provenance,
    RecordedEvent,
    ToolVersions,
    session_object_oid,
)
from tests.conftest import REPO_ROOT, git, in_process, write
from tests.ledger_facts import raw_draft

KIND = "workspace_verification_observed"
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROVENANCE = Provenance(
    actor=Actor(name="Ada Tester", email="ada@example.test", host="testhost", runtime="1-00ff00ff"),
    tool=ToolVersions(correx="0.1.0", git="2.39.5", libgit2="1.9.7"),
)


def open_repo(path: Path) -> Repository:
    return in_process(path)


def head_tree(path: Path) -> str:
    return git(path, "rev-parse", "HEAD^{tree}").strip()


def draft(tree: str, session: str | None = None, **fields: object) -> EventDraft:
    return raw_draft(
        KIND, (tree,), {"result": "pass", **fields}, session=session, stage="build", state_key=tree
    )


def record(path: Path, *drafts: EventDraft, seconds: int = 0) -> list[RecordedEvent]:
    return append_events(
        open_repo(path), list(drafts), now=T0 + timedelta(seconds=seconds), provenance=PROVENANCE
    )


def commit_count(path: Path) -> int:
    return int(git(path, "rev-list", "--count", "refs/notes/correx").strip())


def test_appended_events_read_back_equal(repo: Path) -> None:
    tree = head_tree(repo)
    written = record(repo, draft(tree, exit_code=0), draft(tree, "s1", exit_code=1))
    assert read_subject(open_repo(repo), tree).events == written
    everything = read_all(open_repo(repo))
    assert sorted(everything.events, key=lambda e: e.id) == sorted(written, key=lambda e: e.id)
    assert everything.problems == []


def test_note_lines_are_canonical_and_what_git_shows(repo: Path) -> None:
    tree = head_tree(repo)
    (event,) = record(repo, draft(tree, exit_code=0, command={"name": "test", "argv": ["x"]}))
    shown = git(repo, "notes", "--ref", "correx", "show", tree)
    line = canonical_json(event.model_dump(mode="json"))
    assert shown == line + "\n"
    assert canonical_json(json.loads(shown)) == shown.rstrip("\n")
    assert read_subject(open_repo(repo), tree).entries[0].line == line.encode()


def test_the_same_fact_serializes_to_the_same_bytes(make_repo: Callable[..., Path]) -> None:
    first, second = make_repo("a"), make_repo("b")
    record(first, draft(head_tree(first)))
    record(second, draft(head_tree(second)))
    show = ["notes", "--ref", "correx", "show", head_tree(first)]
    assert git(first, *show) == git(second, *show)


def test_one_event_with_two_subjects_is_one_commit_with_two_notes(repo: Path) -> None:
    tree = head_tree(repo)
    plan = git(repo, "hash-object", "-w", "--stdin", input=b"plan\n").strip()
    record(repo, draft(tree))
    before = commit_count(repo)
    (event,) = record(repo, raw_draft("plan_grounding_evaluated", (tree, plan), {}, "s1"))
    assert commit_count(repo) == before + 1
    session = session_object_oid("s1")
    assert event.subjects == [tree, plan, session]
    for subject in (tree, plan, session):
        note = git(repo, "notes", "--ref", "correx", "show", subject)
        assert note.splitlines()[-1] == canonical_json(event.model_dump(mode="json"))


def test_subjects_session_and_extra_anchors_are_anchored(repo: Path) -> None:
    tree = head_tree(repo)
    output = notes.write_blob(open_repo(repo), b"full output\n")
    record(repo, raw_draft(KIND, (tree,), {}, session="s1", anchors={output: "blob"}))
    listing = git(repo, "ls-tree", "-r", "-t", "refs/notes/correx", "anchors/")
    session = session_object_oid("s1")
    assert f"040000 tree {tree}\tanchors/{tree[:2]}/{tree[2:]}" in listing
    assert f"100644 blob {session}\tanchors/{session[:2]}/{session[2:]}" in listing
    assert f"100644 blob {output}\tanchors/{output[:2]}/{output[2:]}" in listing
    assert git(repo, "cat-file", "-p", session) == "correx session s1\n"


def test_lines_appended_by_git_are_reported_not_fatal(repo: Path) -> None:
    tree = head_tree(repo)
    (event,) = record(repo, draft(tree))
    git(repo, "notes", "--ref", "correx", "append", "-m", "{not json", tree)
    result = read_subject(open_repo(repo), tree)
    assert result.events == [event]
    reasons = [(p.line, p.reason.split(":")[0]) for p in result.problems]
    assert reasons == [(3, "malformed JSON")]  # row 2 is git's blank separator: nothing
    assert result.problems[0].excerpt == "{not json"


def test_unknown_version_is_reported_and_unknown_kind_kept(repo: Path) -> None:
    tree = head_tree(repo)
    (event,) = record(repo, draft(tree))
    future = {**event.model_dump(mode="json"), "v": 2}
    odd = {k: v for k, v in event.model_dump(mode="json").items() if k != "id"}
    odd["kind"] = "from_the_future"
    from gitcorrex.model.canonical import content_id

    odd["id"] = content_id(odd)
    content = "".join(canonical_json(body) + "\n" for body in (event.model_dump(), future, odd))
    git(repo, "notes", "--ref", "correx", "add", "-f", "-F", "-", tree, input=content.encode())
    result = read_subject(open_repo(repo), tree)
    assert [e.kind for e in result.events] == [KIND, "from_the_future"]
    assert [p.reason.split(" (")[0] for p in result.problems] == [
        "unknown schema version v=2",
        "unknown kind 'from_the_future'",
    ]


def test_a_line_failing_the_envelope_is_reported(repo: Path) -> None:
    tree = head_tree(repo)
    git(repo, "notes", "--ref", "correx", "add", "-m", '{"v":1,"kind":"x"}', tree)
    (problem,) = read_subject(open_repo(repo), tree).problems
    assert problem.reason.startswith("invalid envelope: ")
    assert (problem.line, problem.excerpt) == (1, '{"v":1,"kind":"x"}')


def test_entries_hold_the_stored_line_and_parse_to_the_event(repo: Path) -> None:
    tree = head_tree(repo)
    written = record(repo, draft(tree, "s1", exit_code=0), draft(tree, exit_code=1))
    result = read_all(open_repo(repo))
    assert [entry.event() for entry in result.entries] == result.events
    assert sorted(result.events, key=lambda e: e.id) == sorted(written, key=lambda e: e.id)
    for entry in result.entries:
        assert entry.line == canonical_json(json.loads(entry.line)).encode()
        assert (entry.at, entry.session, entry.kind) == (
            entry.event().at,
            entry.event().session,
            KIND,
        )


def test_an_edited_line_is_reported(repo: Path) -> None:
    tree = head_tree(repo)
    (event,) = record(repo, draft(tree))
    edited = canonical_json({**event.model_dump(mode="json"), "result": "fail"})
    git(repo, "notes", "--ref", "correx", "add", "-f", "-m", edited, tree)
    (problem,) = read_subject(open_repo(repo), tree).problems
    assert problem.reason.startswith("id does not match")


def test_first_write_sets_the_lossless_merge_strategy(repo: Path) -> None:
    record(repo, draft(head_tree(repo)))
    assert git(repo, "config", "notes.correx.mergeStrategy").strip() == "cat_sort_uniq"


def test_gc_keeps_an_anchored_uncommitted_tree_and_output_blob(repo: Path) -> None:
    write(repo, "dirty.txt", "never committed\n")
    env = {"GIT_INDEX_FILE": str(repo / ".git" / "tmp-index")}
    git(repo, "add", "-A", env=env)
    dirty = git(repo, "write-tree", env=env).strip()
    write(repo, "other.txt", "never anchored\n")
    git(repo, "add", "-A", env=env)
    control = git(repo, "write-tree", env=env).strip()
    (repo / ".git" / "tmp-index").unlink()
    output = notes.write_blob(open_repo(repo), b"kept output\n")
    (event,) = record(repo, raw_draft(KIND, (dirty,), {}, anchors={output: "blob"}))
    git(repo, "gc", "-q", "--prune=now")
    git(repo, "cat-file", "-e", dirty)
    git(repo, "cat-file", "-e", output)
    assert "dirty.txt" in git(repo, "ls-tree", "--name-only", dirty)
    with pytest.raises(AssertionError):
        git(repo, "cat-file", "-e", control)  # proves gc really pruned the unanchored one
    assert read_subject(open_repo(repo), dirty).events == [event]


def test_session_seqs_are_dense_within_and_across_appends(repo: Path) -> None:
    tree = head_tree(repo)
    first = record(repo, draft(tree, "s1", n=1), draft(tree, "s2"), draft(tree, "s1", n=2))
    second = record(repo, draft(tree, "s1", n=3), seconds=1)
    assert [(e.session, e.seq) for e in first + second] == [
        ("s1", 1),
        ("s2", 1),
        ("s1", 2),
        ("s1", 3),
    ]


def test_a_stale_tip_is_retried_against_the_new_ledger(repo: Path) -> None:
    tree = head_tree(repo)
    views: list[str | None] = []

    def drafts(view: LedgerView) -> list[EventDraft]:
        views.append(view.tip)
        if len(views) == 1:  # another writer lands between our read and our swap
            record(repo, draft(tree, "s1", by="other"), seconds=5)
        return [draft(tree, "s1", by="us", seen=len(view.session_events("s1")))]

    (ours,) = append_events(open_repo(repo), drafts, now=T0, provenance=PROVENANCE)
    assert views[0] is None and views[1] is not None
    assert (ours.seq, (ours.model_extra or {}).get("seen")) == (2, 1)
    assert commit_count(repo) == 2


def test_a_left_over_lock_file_exhausts_retries_with_exit_3(repo: Path) -> None:
    tree = head_tree(repo)
    record(repo, draft(tree))
    tip = git(repo, "rev-parse", "refs/notes/correx").strip()
    lock = repo / ".git" / "refs" / "notes" / "correx.lock"
    lock.write_text("")
    with pytest.raises(LedgerContentionError) as caught:
        append_events(
            open_repo(repo), [draft(tree, n=2)], now=T0, provenance=PROVENANCE, max_attempts=3
        )
    assert caught.value.exit_code == ExitCode.UNAVAILABLE
    assert str(lock) in caught.value.message
    assert caught.value.hint is not None and "no git or git correx process" in caught.value.hint
    assert lock.exists()
    assert git(repo, "rev-parse", "refs/notes/correx").strip() == tip


@pytest.mark.parametrize(
    ("fields", "message"),
    [({"ratio": 0.5}, "float"), ({"seq": 3}, "envelope keys"), ({"x": {1: "a"}}, "dict")],
)
def test_drafts_that_cannot_be_canonical_are_refused(
    repo: Path, fields: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        record(repo, raw_draft(KIND, (head_tree(repo),), fields))


def test_unknown_kinds_missing_objects_and_bad_sessions_are_refused(repo: Path) -> None:
    tree = head_tree(repo)
    with pytest.raises(ValueError, match="unknown event kind"):
        record(repo, raw_draft("made_up", (tree,), {}))
    with pytest.raises(ValueError, match="stored tree or blob"):
        record(repo, raw_draft(KIND, ("0" * 40,), {}))
    with pytest.raises(UsageError, match="invalid session id"):
        record(repo, draft(tree, "no spaces"))
    assert git(repo, "for-each-ref", "refs/notes/") == ""


def test_nothing_recorded_reads_as_an_empty_ledger(repo: Path) -> None:
    result = read_all(open_repo(repo))
    assert (result.tip, result.events, result.problems) == (None, [], [])


def test_current_provenance_names_identity_host_runtime_and_versions(repo: Path) -> None:
    provenance = current_provenance(open_repo(repo))
    assert str(provenance.actor["runtime"]).startswith(f"{os.getpid()}-")
    assert provenance.actor["host"]
    assert provenance.tool["git"] == git(repo, "--version").split()[-1]
    assert provenance.tool["libgit2"].count(".") == 2


DRIVER = """
import sys
from datetime import datetime, timezone
from pathlib import Path

from tests.conftest import in_process
from gitcorrex.ledger import append_events
from gitcorrex.ledger.provenance import current_provenance
from tests.ledger_facts import raw_draft

path, name, count, trees, sessions, log = sys.argv[1:7]
repo = in_process(Path(path))
provenance = current_provenance(repo)
trees, sessions = trees.split(","), sessions.split(",")
with open(log, "a") as out:
    print("ready", flush=True)
    for i in range(int(count)):
        marker = f"{name}-{i}"
        out.write(marker + "\\n")
        out.flush()
        draft = raw_draft("workspace_verification_observed", (trees[i % len(trees)],),
                           {"marker": marker, "result": "pass", "exit_code": 0},
                           session=sessions[i % len(sessions)] or None)
        append_events(repo, [draft], now=datetime.now(timezone.utc), provenance=provenance)
"""


def start_writer(
    tmp_path: Path, repo: Path, name: str, count: int, trees: list[str], sessions: list[str]
) -> tuple[subprocess.Popen[bytes], Path]:
    # one script per writer: rewriting a shared one while an earlier writer's interpreter
    # was still reading it ran an empty file (exit 0, no log)
    script = tmp_path / f"driver-{name}.py"
    script.write_text(DRIVER)
    log = tmp_path / f"{name}.log"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    argv = [
        sys.executable,
        str(script),
        str(repo),
        name,
        str(count),
        ",".join(trees),
        ",".join(sessions),
        str(log),
    ]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE), log


def make_trees(repo: Path, count: int) -> list[str]:
    trees = []
    for i in range(count):
        blob = git(repo, "hash-object", "-w", "--stdin", input=f"tree {i}\n".encode()).strip()
        trees.append(git(repo, "mktree", input=f"100644 blob {blob}\tf{i}\n".encode()).strip())
    return trees


def assert_sessions_dense(events: list[RecordedEvent]) -> dict[str, int]:
    by_session: dict[str, list[int]] = {}
    for event in events:
        if event.session is not None:
            by_session.setdefault(event.session, []).append(event.seq or 0)
    for session, seqs in by_session.items():
        assert sorted(seqs) == list(range(1, len(seqs) + 1)), session
    return {session: len(seqs) for session, seqs in by_session.items()}


@pytest.mark.slow
def test_concurrent_writers_lose_nothing_and_keep_seqs_dense(repo: Path, tmp_path: Path) -> None:
    trees = make_trees(repo, 4)
    writers = []
    for p in range(8):
        sessions = ["shared-a", "", "shared-b"] if p % 2 else [f"own-{p}", "shared-a"]
        writers.append(start_writer(tmp_path, repo, f"w{p}", 25, trees[p % 4 :] + trees, sessions))
    for proc, _ in writers:
        assert proc.wait(timeout=120) == 0
    result = read_all(open_repo(repo))
    assert result.problems == []
    logged = {line for _, log in writers for line in log.read_text().split()}
    assert len(logged) == 200
    assert {str((e.model_extra or {}).get("marker")) for e in result.events} == logged
    expected = {"shared-a": 4 * 9 + 4 * 12, "shared-b": 4 * 8} | {
        f"own-{p}": 13 for p in (0, 2, 4, 6)
    }
    assert assert_sessions_dense(result.events) == expected


@pytest.mark.slow
def test_a_writer_killed_at_random_moments_leaves_a_readable_prefix(
    repo: Path, tmp_path: Path
) -> None:
    trees = make_trees(repo, 3)
    lock = repo / ".git" / "refs" / "notes" / "correx.lock"
    chooser = random.Random()
    for run in range(6):
        proc, log = start_writer(tmp_path, repo, f"r{run}", 50, trees, [f"crash-{run}"])
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        time.sleep(chooser.uniform(0, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        if lock.exists():  # killed while holding the ref lock: the operator removes it
            lock.unlink()
        result = read_all(open_repo(repo))
        assert result.problems == []
        intended = log.read_text().split()
        mine = sorted(
            (e for e in result.events if e.session == f"crash-{run}"), key=lambda e: e.seq or 0
        )
        present = [str((e.model_extra or {}).get("marker")) for e in mine]
        assert present == intended[: len(present)]
        assert len(present) >= len(intended) - 1
        assert_sessions_dense(result.events)
