"""Replay: a pure fold over the ledger, identical in a bare clone holding only the ledger."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from gitcorrex.cli.root import run
from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.model.events import Actor, Provenance, RecordedEvent, ToolVersions
from gitcorrex.model.note_lines import Problem
from gitcorrex.replay.timeline import replay
from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import raw_draft, verification_draft

KIND = "workspace_verification_observed"
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROVENANCE = Provenance(
    actor=Actor(name="Ada Tester", email="ada@example.test", host="testhost", runtime="1-00ff00ff"),
    tool=ToolVersions(correx="0.1.0", git="2.39.5", libgit2="1.9.7"),
)


def event(at: int, ident: str, session: str | None = None, seq: int | None = None) -> RecordedEvent:
    return RecordedEvent(
        v=1,
        id=ident * 64,
        kind=KIND,
        at=f"2026-01-01T00:00:{at:02d}.000000Z",
        subjects=["a" * 40],
        session=session,
        seq=seq,
        actor=PROVENANCE.actor,
        tool=PROVENANCE.tool,
    )


def record(path: Path, drafts: list[EventDraft], seconds: int) -> list[RecordedEvent]:
    return append_events(
        in_process(path),
        drafts,
        now=T0 + timedelta(seconds=seconds),
        provenance=PROVENANCE,
    )


def test_replay_orders_by_time_then_id() -> None:
    events = [event(3, "a"), event(1, "c"), event(1, "b")]  # id order is not time order
    assert [e.id[0] for e in replay(events, session=None).events] == ["b", "c", "a"]


def test_replay_of_a_session_orders_by_seq_and_keeps_only_it() -> None:
    events = [event(1, "a", "s", 2), event(2, "b", "s", 1), event(0, "c", "other", 1)]
    timeline = replay(events, session="s")
    assert (timeline.session, [e.seq for e in timeline.events]) == ("s", [1, 2])


def test_replay_with_nothing_recorded_prints_nothing(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    text = correx(repo, "replay")
    assert (text.code, text.stdout) == (0, "")
    assert "nothing recorded yet (refs/notes/correx does not exist)" in text.stderr
    as_json = correx(repo, "replay", "--json")
    assert (as_json.code, json.loads(as_json.stdout)) == (0, {"events": [], "problems": []})


def test_replay_json_holds_the_events_and_problems(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    written = record(repo, [raw_draft(KIND, (tree,), {"result": "pass"}, session="s1")], 1)
    git(repo, "notes", "--ref", "correx", "append", "-m", "garbage", tree)
    result = correx(repo, "replay", "--json")
    assert result.code == 0, result
    document = json.loads(result.stdout)
    assert [RecordedEvent.model_validate(e) for e in document["events"]] == written
    problems = [Problem(**p) for p in document["problems"]]
    # row 2 is the blank line git puts before an appended note: nothing (model/note_lines.py)
    assert [(p.subject, p.line) for p in problems] == [(tree, 3)]


def test_replay_text_prints_one_line_per_event_and_problems_on_stderr(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    handle = in_process(repo)
    record(repo, [verification_draft(handle, tree, "fail", session="s1")], 2)
    record(repo, [raw_draft("session_started", (), {}, session="s1")], 1)
    git(repo, "notes", "--ref", "correx", "append", "-m", "\x1b[31mred", tree)
    result = correx(repo, "replay")
    assert result.code == 0, result
    first, second = result.stdout.splitlines()
    assert first.startswith("2026-01-01T00:00:01Z") and "session_started" in first
    assert "fail test" in second and "session s1#1" in second and tree[:12] in second
    assert "ledger problem" in result.stderr and "\\x1b[31mred" in result.stderr
    assert "\x1b" not in result.stderr


def test_replay_of_one_session_uses_its_seq_order(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    record(repo, [raw_draft(KIND, (tree,), {"n": 1}, session="s1")], 9)
    record(repo, [raw_draft(KIND, (tree,), {"n": 2}, session="s1")], 3)
    record(repo, [raw_draft(KIND, (tree,), {"n": 3}, session="s2")], 5)
    document = json.loads(correx(repo, "replay", "--session", "s1", "--json").stdout)
    assert [(e["seq"], e["n"]) for e in document["events"]] == [(1, 1), (2, 2)]
    assert correx(repo, "replay", "--session", "not valid").code == 2


def record_history(repo: Path) -> None:
    """A dirty, never-committed state, a session, and a foreign line: all replayable."""
    write(repo, "src/app.py", "print('dirty')\n")
    env = {"GIT_INDEX_FILE": str(repo / ".git" / "scratch-index")}
    git(repo, "add", "-A", env=env)
    dirty = git(repo, "write-tree", env=env).strip()
    head = git(repo, "rev-parse", "HEAD^{tree}").strip()
    record(repo, [raw_draft("session_started", (), {}, session="s1")], 0)
    record(
        repo,
        [
            raw_draft(
                KIND,
                (head,),
                {"result": "pass", "expectation": "build"},
                session="s1",
                state_key=head,
            )
        ],
        1,
    )
    record(
        repo,
        [
            raw_draft(
                KIND,
                (dirty,),
                {"result": "fail", "expectation": "test"},
                session="s1",
                state_key=dirty,
            ),
            raw_draft(KIND, (dirty,), {"result": "pass"}),
        ],
        2,
    )
    git(repo, "notes", "--ref", "correx", "append", "-m", "not json", head)


def replay_outputs(
    cwd: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[tuple[int, str, str]]:
    monkeypatch.chdir(cwd)
    outputs = []
    for args in (["replay"], ["replay", "--json"], ["replay", "--session", "s1", "--json"]):
        code = run(args)
        captured = capsys.readouterr()
        outputs.append((code, captured.out, captured.err))
    return outputs


GIT_READS = frozenset({"config", "rev-parse", "for-each-ref", "ls-tree", "cat-file",
                       "check-ref-format"})


def forbid_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay runs nothing: no command of any profile, no git that writes. It may only ask
    git to read — where the repository is (git's own discovery), its configuration
    (`correx.ref`, read one way for every command: `git -c correx.ref=… correx replay` must
    be honoured), the ledger ref and its objects."""
    popen = subprocess.Popen

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"replay tried to start a process: {args!r}")

    def reads_only(argv: list[str], *args: object, **kwargs: object) -> object:
        verb = next((arg for arg in argv[1:] if not arg.startswith("-")), None)
        if argv[:1] != ["git"] or verb not in GIT_READS:
            refuse(argv)
        return popen(argv, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "Popen", reads_only)
    for name in ("posix_spawn", "posix_spawnp", "fork", "execv", "execvp", "system"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)


def test_replay_is_identical_in_a_bare_clone_of_the_ledger_and_runs_nothing(
    repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    record_history(repo)
    bare = tmp_path / "ledger-only.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(bare, "fetch", "-q", str(repo), "refs/notes/correx:refs/notes/correx")
    assert git(bare, "for-each-ref", "--format=%(refname)") == "refs/notes/correx\n"
    for entry in repo.iterdir():  # no work tree files, no index: replay needs neither
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    for name in ("index", "scratch-index"):
        (repo / ".git" / name).unlink(missing_ok=True)
    forbid_processes(monkeypatch)
    original = replay_outputs(repo, monkeypatch, capsys)
    ledger_only = replay_outputs(bare, monkeypatch, capsys)
    assert original == ledger_only
    text, full, session = original
    assert text[0] == 0 and len(text[1].splitlines()) == 4 and "not json" in text[2]
    assert len(json.loads(full[1])["events"]) == 4
    assert [e["seq"] for e in json.loads(session[1])["events"]] == [1, 2, 3]


def test_replay_outside_a_repository_is_a_usage_error(
    tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(tmp_path, "replay")
    assert result.code == 2 and "not inside a git repository" in result.stderr, result


def test_replay_of_a_ledger_ref_that_is_not_a_commit_is_unavailable(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    blob = git(repo, "hash-object", "-w", "--stdin", input=b"not a commit\n").strip()
    git(repo, "update-ref", "refs/notes/correx", blob)
    result = correx(repo, "replay")
    assert result.code == 3 and "is not a commit" in result.stderr, result
