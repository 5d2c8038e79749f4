"""`git correx show`: what the ledger knows about one tree, and that it survives `git gc`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.events import RecordedEvent
from tests.conftest import CliResult, git, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import fields_of

Correx = Callable[..., CliResult]


def verify_id(correx: Correx, root: Path, *args: str, code: int = 0) -> str:
    """Verify and return the recorded event's id."""
    result = correx(root, "verify", "--json", *args)
    assert result.code == code, result
    return str(json.loads(result.stdout)["event"]["id"])


def show(correx: Correx, root: Path, *args: str) -> CliResult:
    result = correx(root, "show", *args)
    assert result.code == 0, result
    return result


def test_show_lists_the_events_newest_first(project: Path, correx: Correx) -> None:
    passed = verify_id(correx, project)
    failed = verify_id(correx, project, "--expect", "red", code=1)
    header, newest, oldest = show(correx, project).stdout.splitlines()
    assert header == f"tree {reference_key(project)} (worktree): 2 event(s)"
    assert "✗ fail red (broken, test)" in newest and f"id {failed[:12]}" in newest
    assert "✓ pass test (build, test)" in oldest and f"id {passed[:12]}" in oldest


def test_show_json_gives_the_full_events(project: Path, correx: Correx) -> None:
    passed = verify_id(correx, project)
    failed = verify_id(correx, project, "--expect", "red", code=1)
    document = json.loads(show(correx, project, "--json").stdout)
    events = [RecordedEvent.model_validate(event) for event in document["events"]]
    assert [event.id for event in events] == [failed, passed]
    assert fields_of(events[1]).result.value == "pass"
    assert (document["tree"], document["source"], document["problems"]) == (
        reference_key(project), "worktree", [])


def test_show_head_names_heads_tree(project: Path, correx: Correx) -> None:
    passed = verify_id(correx, project)
    write(project, "later.txt", "the workspace moved on\n")
    lines = show(correx, project, "HEAD").stdout.splitlines()
    assert lines[0] == f"tree {git(project, 'rev-parse', 'HEAD^{tree}').strip()} (HEAD): 1 event(s)"
    assert f"id {passed[:12]}" in lines[1]


def test_show_accepts_a_tree_id(project: Path, correx: Correx) -> None:
    write(project, "draft.txt", "dirty\n")
    key = reference_key(project)
    passed = verify_id(correx, project)
    (project / "draft.txt").unlink()
    document = json.loads(show(correx, project, key, "--json").stdout)
    assert [event["id"] for event in document["events"]] == [passed]


def test_show_of_an_unverified_tree_has_no_events(project: Path, correx: Correx) -> None:
    verify_id(correx, project)
    write(project, "unverified.txt", "new\n")
    result = show(correx, project)
    assert result.stdout == f"tree {reference_key(project)} (worktree): 0 event(s)\n"


def test_show_with_rev_and_worktree_is_refused(project: Path, correx: Correx) -> None:
    result = correx(project, "show", "HEAD", "--worktree")
    assert result.code == 2, result
    assert "either REV or --worktree" in result.stderr


def test_show_of_an_unknown_revision_is_refused(project: Path, correx: Correx) -> None:
    result = correx(project, "show", "no-such-branch")
    assert result.code == 2, result
    assert "unknown revision" in result.stderr


def test_gc_keeps_a_verified_dirty_state_and_its_output(project: Path,
                                                        correx: Correx) -> None:
    write(project, "src/app.py", "VALUE = 'never committed'\n")
    write(project, "scratch.txt", "never committed either\n")
    key = reference_key(project)
    result = correx(project, "verify", "--json")
    assert result.code == 0, result
    event = RecordedEvent.model_validate(json.loads(result.stdout)["event"])
    blob = fields_of(event).commands[0].output
    assert blob is not None and blob.blob is not None
    git(project, "checkout", "--", "src/app.py")
    (project / "scratch.txt").unlink()
    stray = git(project, "hash-object", "-w", "--stdin", input=b"unanchored\n").strip()
    git(project, "reflog", "expire", "--expire=now", "--all")
    git(project, "gc", "--prune=now", "--quiet")
    assert git(project, "cat-file", "--batch-check", input=stray.encode()).split()[1] == "missing"
    for oid in (key, blob.blob, f"{key}:scratch.txt", f"{key}:src/app.py"):
        git(project, "cat-file", "-e", oid)
    assert f"id {event.id[:12]}" in show(correx, project, key).stdout


def test_show_worktree_is_the_default(project: Path, correx: Correx) -> None:
    verify_id(correx, project)
    assert show(correx, project, "--worktree").stdout == show(correx, project).stdout


def test_show_of_the_worktree_in_a_bare_repository_is_refused(tmp_path: Path, project: Path,
                                                              correx: Correx) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(project), str(bare))
    result = correx(bare, "show")
    assert result.code == 2, result
    assert "bare repository" in result.stderr
