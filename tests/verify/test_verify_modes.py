"""`verify --reuse`, `--isolated` and `--session`: what each adds to a plain verification."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import (
    Result,
    SetupFields,
)
from tests.conftest import CliResult, git, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import (
    counting,
    fields_of,
    notes_on,
    py,
    runs_counted,
    write_profile,
)

Correx = Callable[..., CliResult]


def verify(correx: Correx, root: Path, *args: str, code: int = 0) -> RecordedEvent:
    """Run verify with `--json`, assert the exit code, return the recorded event."""
    result = correx(root, "verify", "--json", *args)
    assert result.code == code, result
    return RecordedEvent.model_validate(json.loads(result.stdout)["event"])


def counted_project(root: Path, counter: Path, code: str = "") -> None:
    """Expectations `a` and `b` both run one counting command; the profile is not
    committed, but part of the state (a pass is bound to the profile its state holds)."""
    write(root, ".gitignore", "ignored/\n")
    write_profile(root, {"count": counting(counter, code)}, {"a": ["count"], "b": ["count"]},
                  default="a", commit=False)


def test_reuse_runs_nothing_and_cites_the_original(repo: Path, outside: Path,
                                                  correx: Correx) -> None:
    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    result = correx(repo, "verify", "--reuse")
    assert result.code == 0, result
    assert runs_counted(outside / "runs") == 1
    assert result.stdout.startswith(f"pass (reused {original.id[:12]})")
    events = notes_on(repo, reference_key(repo))
    reused = next(event for event in events if event.id != original.id)
    assert fields_of(reused).reused_from == original.id
    assert fields_of(reused).result is Result.PASS


def test_reuse_of_a_reuse_cites_the_original(repo: Path, outside: Path,
                                            correx: Correx) -> None:
    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    first = verify(correx, repo, "--reuse")
    second = verify(correx, repo, "--reuse")
    assert fields_of(first).reused_from == fields_of(second).reused_from == original.id
    assert runs_counted(outside / "runs") == 1


def test_reuse_does_not_apply_once_a_command_changed(repo: Path, outside: Path,
                                                    correx: Correx) -> None:
    """The profile is part of the state: a changed command is a new state key too."""
    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    counted_project(repo, outside / "runs", code="print('now with output')")
    again = verify(correx, repo, "--reuse")
    assert again.state_key != original.state_key
    assert fields_of(again).reused_from is None
    assert fields_of(again).commands[0].digest != fields_of(original).commands[0].digest
    assert runs_counted(outside / "runs") == 2


def test_reuse_needs_the_same_commands_not_only_as_many(repo: Path, outside: Path,
                                                       correx: Correx) -> None:
    """One tree, one profile, two expectations of one command each: a pass of `a` says
    nothing about `other`, so `--reuse --expect other` runs it."""
    write_profile(repo, {"count": counting(outside / "runs"),
                         "other": counting(outside / "others")},
                  {"a": ["count"], "other": ["other"]}, default="a", commit=False)
    verify(correx, repo, "--expect", "a")
    again = verify(correx, repo, "--expect", "other", "--reuse")
    assert fields_of(again).reused_from is None
    assert runs_counted(outside / "others") == 1


def test_reuse_without_an_earlier_pass_runs_the_commands(repo: Path, outside: Path,
                                                        correx: Correx) -> None:
    counted_project(repo, outside / "runs", code="raise SystemExit(1)")
    verify(correx, repo, code=1)
    again = verify(correx, repo, "--reuse", code=1)
    assert fields_of(again).reused_from is None
    assert runs_counted(outside / "runs") == 2


def test_reuse_records_the_expectation_asked_for(repo: Path, outside: Path,
                                                correx: Correx) -> None:
    counted_project(repo, outside / "runs")
    original = verify(correx, repo, "--expect", "a")
    reused = verify(correx, repo, "--expect", "b", "--reuse")
    assert (fields_of(reused).reused_from, fields_of(reused).expectation) == (original.id, "b")


def test_reuse_measures_changed_paths_from_the_current_head(repo: Path, outside: Path,
                                                           correx: Correx) -> None:
    counted_project(repo, outside / "runs")
    write(repo, "feature.txt", "new\n")
    assert fields_of(verify(correx, repo)).changed_paths == [".correx.toml", ".gitignore",
                                                             "feature.txt"]
    git(repo, "add", ".correx.toml", ".gitignore", "feature.txt")
    git(repo, "commit", "-q", "-m", "feature")
    reused = fields_of(verify(correx, repo, "--reuse"))
    assert reused.reused_from is not None and reused.changed_paths == []


def test_reuse_runs_no_setup(repo: Path, outside: Path, correx: Correx) -> None:
    write_profile(repo, {"prep": counting(outside / "setups"), "test": py("pass")},
                  {"full": {"commands": ["test"], "setup": "prep"}}, default="full",
                  commit=False)
    verify(correx, repo)
    verify(correx, repo, "--reuse")
    assert runs_counted(outside / "setups") == 1
    kinds = [event.kind for event in notes_on(repo, reference_key(repo))]
    assert kinds.count(SetupFields.KIND) == 1


LIST_FILES = py(
    "import os\n"
    "print(os.getcwd())\n"
    "for top, dirs, files in os.walk('.'):\n"
    "    dirs[:] = sorted(d for d in dirs if d != '.git')\n"
    "    for name in sorted(f for f in files if f != '.git'):\n"
    "        print(os.path.relpath(os.path.join(top, name)))\n")


def isolated_listing(correx: Correx, root: Path) -> tuple[Path, list[str], RecordedEvent]:
    """Verify `--isolated` with a command listing its cwd's files: (cwd, files, event)."""
    write_profile(root, {"ls": LIST_FILES}, {"ls": ["ls"]}, default="ls")
    event = verify(correx, root, "--isolated")
    blob = fields_of(event).commands[0].output
    assert blob is not None and blob.blob is not None
    cwd, *files = git(root, "cat-file", "-p", blob.blob).splitlines()
    return Path(cwd), files, event


def test_isolated_runs_in_a_worktree_of_exactly_the_state_tree(repo: Path,
                                                               correx: Correx) -> None:
    write(repo, ".gitignore", "ignored/\n")
    write(repo, "ignored/secret.env", "TOKEN=1\n")
    write(repo, "untracked.txt", "part of the state\n")
    cwd, files, event = isolated_listing(correx, repo)
    assert cwd.resolve() != repo.resolve()
    assert sorted(files) == git(repo, "ls-tree", "-r", "--name-only",
                                reference_key(repo)).splitlines()
    assert "ignored/secret.env" not in files and "untracked.txt" in files
    assert fields_of(event).isolated is True


def test_isolated_worktree_is_removed_afterwards(repo: Path, correx: Correx) -> None:
    cwd, _, _ = isolated_listing(correx, repo)
    assert not cwd.exists()
    listed = git(repo, "worktree", "list", "--porcelain").splitlines()
    assert [line for line in listed if line.startswith("worktree ")] == [f"worktree {repo}"]


def test_isolated_leaves_the_main_work_tree_untouched(repo: Path, correx: Correx) -> None:
    write(repo, ".gitignore", "ignored/\n")
    writer = py("import os; os.makedirs('ignored'); open('ignored/out.txt', 'w').write('x')")
    write_profile(repo, {"gen": writer}, {"gen": ["gen"]}, default="gen")
    files = sorted(p for p in repo.rglob("*") if ".git" not in p.parts)
    assert fields_of(verify(correx, repo, "--isolated")).result is Result.PASS
    assert sorted(p for p in repo.rglob("*") if ".git" not in p.parts) == files


def test_isolated_setup_prepares_the_isolated_worktree(repo: Path, correx: Correx) -> None:
    write(repo, ".gitignore", "ignored/\n")
    prep = py("import os; os.makedirs('ignored'); open('ignored/prepared', 'w').write('x')")
    check = py("import os; raise SystemExit(0 if os.path.exists('ignored/prepared') else 1)")
    write_profile(repo, {"prep": prep, "check": check},
                  {"full": {"commands": ["check"], "setup": "prep"}}, default="full")
    assert fields_of(verify(correx, repo, "--isolated")).result is Result.PASS
    assert not (repo / "ignored").exists()


def session_events(root: Path, session: str) -> list[RecordedEvent]:
    """The note on the session object (its id hashed by git itself), ordered by seq."""
    oid = git(root, "hash-object", "-w", "--stdin",
              input=f"correx session {session}\n".encode()).strip()
    return sorted(notes_on(root, oid), key=lambda event: event.seq or 0)


def test_session_seqs_are_1_2_3(project: Path, correx: Correx) -> None:
    for content in ("1\n", "2\n", "2\n"):
        write(project, "counter.txt", content)
        verify(correx, project, "--session", "s-1")
    assert [e.seq for e in session_events(project, "s-1")] == [1, 2, 3]
    assert session_events(project, "other") == []


def test_session_measures_changed_paths_from_its_last_pass(project: Path,
                                                          correx: Correx) -> None:
    write(project, "a.txt", "a\n")
    assert fields_of(verify(correx, project, "--session", "s")).changed_paths == ["a.txt"]
    write(project, "b.txt", "b\n")
    assert fields_of(verify(correx, project, "--session", "s")).changed_paths == ["b.txt"]


def test_session_baseline_skips_failed_verifications(project: Path, correx: Correx) -> None:
    write(project, "a.txt", "a\n")
    verify(correx, project, "--session", "s")
    write(project, "b.txt", "b\n")
    verify(correx, project, "--session", "s", "--expect", "red", code=1)
    write(project, "c.txt", "c\n")
    changed = fields_of(verify(correx, project, "--session", "s")).changed_paths
    assert changed == ["b.txt", "c.txt"]


def test_session_changed_paths_count_from_the_latest_pass_in_session_order(
        project: Path, correx: Correx) -> None:
    """A pass another writer appended to the session's note without a seq sorts after the
    session's own events (model/event_order.py), so it is the baseline `changed_paths`
    is measured from, as `session status` shows it; even though its time is older."""
    from gitcorrex.model.events import session_object_oid
    from tests.conftest import in_process
    from tests.ledger_facts import note_line, verification_draft

    write(project, "a.txt", "a\n")
    verify(correx, project, "--session", "s")
    write(project, "b.txt", "b\n")
    key = reference_key(project)
    fields = verification_draft(in_process(project), key, "pass").payload
    note_line(project, session_object_oid("s"), "workspace_verification_observed",
              fields.line_fields(), state_key=key, session="s")
    write(project, "c.txt", "c\n")
    changed = fields_of(verify(correx, project, "--session", "s")).changed_paths
    assert changed == ["c.txt"]


def test_reuse_of_a_newer_writers_pass_keeps_what_this_version_knows(
        repo: Path, outside: Path, correx: Correx) -> None:
    """A pass a newer git correx recorded (keys this version does not know, nested too), in
    a ledger commit signed by a key the repository trusts, is reused like any pass; the new
    line carries the keys this version knows."""
    from tests.ledger_facts import note_line
    from tests.trusted_writer import sign_ledger_tip

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    fields = dict(original.model_extra or {})
    fields["commands"] = [{**fields["commands"][0], "cpu_ms": 12}]
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    newer = note_line(repo, key, original.kind, {**fields, "runner_image": "ci:2027"},
                      state_key=key)
    sign_ledger_tip(repo, outside)
    result = correx(repo, "verify", "--reuse")
    assert result.code == 0, result
    assert result.stdout.startswith(f"pass (reused {newer[:12]})")
    assert runs_counted(outside / "runs") == 1
    reused = next(event for event in notes_on(repo, key) if event.id != newer)
    assert fields_of(reused).reused_from == newer
    assert "cpu_ms" not in json.dumps(reused.model_extra)


def test_verify_reuse_ignores_a_pass_recorded_for_another_state_key(
        repo: Path, outside: Path, correx: Correx) -> None:
    """A line in this tree's note whose envelope names another state key (written by a
    foreign writer, or copied from another note) is a pass of that state, not of this one:
    `--reuse` runs the commands instead of citing it."""
    from tests.ledger_facts import note_line
    from tests.trusted_writer import sign_ledger_tip

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    other = git(repo, "rev-parse", "HEAD^{tree}").strip()
    assert other != key  # the profile is ignored, so the work tree differs from HEAD only
    foreign = note_line(repo, key, original.kind, dict(original.model_extra or {}),
                        state_key=other)
    sign_ledger_tip(repo, outside)  # a trusted writer: only the state key refuses it
    result = correx(repo, "verify", "--reuse", "--json")
    assert result.code == 0, result
    assert runs_counted(outside / "runs") == 2
    again = RecordedEvent.model_validate(json.loads(result.stdout)["event"])
    assert again.id != foreign and fields_of(again).reused_from is None
