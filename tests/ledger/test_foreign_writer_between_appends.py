"""One process appends twice, and a real foreign writer moves the ledger ref in between:
every append is still its own compare-and-swap commit on the tip as it is then, and every
shortcut the writer takes (the anchor weighing answered in-process,
`git/anchor_weights_libgit2.py`) decides on that tip, never on what the process saw before.
"""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

from gitcorrex.git import Repository
from gitcorrex.ledger import append_events, read_all
from gitcorrex.ledger.own_commits import own_commits
from gitcorrex.model.canonical import format_instant
from gitcorrex.model.event_line import event_line
from tests.conftest import git, in_process, write
from tests.ledger_facts import T0, provenance, raw_draft

REF = "refs/notes/correx"
KIND = "workspace_verification_observed"


def ours(repo: Repository, tree: str, marker: str, seconds: int) -> str:
    """Append one event about `tree` through the one writer, in this process; its id."""
    draft = raw_draft(KIND, (tree,), {"result": "pass", "marker": marker}, stage="build",
                      state_key=tree)
    (event,) = append_events(repo, [draft], now=T0 + timedelta(seconds=seconds),
                             provenance=provenance())
    return str(event.id)


def foreign_append(path: Path, subject: str, marker: str) -> str:
    """`git notes append` of one canonical line, in its own process; the line's id."""
    who = provenance("eve@example.test")
    envelope = {"v": 1, "kind": KIND, "at": format_instant(T0), "subjects": [subject],
                "session": None, "seq": None, "stage": None, "step": None,
                "state_key": subject, "actor": dict(who.actor), "tool": dict(who.tool)}
    line = event_line({"result": "pass", "marker": marker}, envelope)
    git(path, "notes", "--ref", REF, "append", "-m", line, subject)
    return line


def tree_with(path: Path, name: str, text: str) -> str:
    write(path, name, text)
    git(path, "add", "-A")
    return git(path, "write-tree").strip()


def is_anchored(path: Path, tree: str) -> bool:
    listed = git(path, "ls-tree", REF, f"anchors/{tree[:2]}/{tree[2:]}")
    return tree in listed


def test_a_foreign_notes_append_between_two_appends_of_one_process_loses_nothing(
        repo: Path) -> None:
    handle = in_process(repo)
    first_tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    other_tree = tree_with(repo, "other.txt", "other\n")
    ours(handle, first_tree, "ours-1", 0)
    foreign_append(repo, other_tree, "theirs")
    foreign_append(repo, first_tree, "theirs-too")  # the note our next append extends
    foreign_tip = git(repo, "rev-parse", REF).strip()
    ours(handle, first_tree, "ours-2", 1)
    assert git(repo, "rev-parse", f"{REF}^").strip() == foreign_tip  # its own CAS commit
    markers = sorted(str((event.model_extra or {}).get("marker"))
                     for event in read_all(handle).events)
    assert markers == ["ours-1", "ours-2", "theirs", "theirs-too"]
    shown = git(repo, "notes", "--ref", REF, "show", first_tree)
    assert [m for m in ("ours-1", "theirs-too", "ours-2") if m in shown] == [
        "ours-1", "theirs-too", "ours-2"]
    assert is_anchored(repo, first_tree)
    assert git(repo, "fsck", "--no-dangling", "--connectivity-only", REF) == ""


def test_a_heavy_tree_a_foreign_writer_unanchored_is_weighed_on_the_new_tip(
        repo: Path) -> None:
    """The tree was anchored (no cap then); a foreign writer's commit drops every anchor;
    with a cap now, the same process's next append must weigh the tree against the tip as
    it is, find it heavy and leave it unanchored, saying so."""
    handle = in_process(repo)
    heavy = tree_with(repo, "big.txt", "z" * 500)
    git(repo, "config", "correx.anchorMaxBytes", "0")
    ours(handle, heavy, "anchored", 0)
    assert is_anchored(repo, heavy)
    tip = git(repo, "rev-parse", REF).strip()
    notes_only = git(repo, "mktree", input=git(repo, "ls-tree", tip).replace(
        git(repo, "ls-tree", tip, "anchors"), "").encode())
    foreign = git(repo, "commit-tree", notes_only.strip(), "-p", tip, "-m", "foreign").strip()
    git(repo, "update-ref", REF, foreign, tip)
    assert not is_anchored(repo, heavy)
    git(repo, "config", "correx.anchorMaxBytes", "100")
    ours(handle, heavy, "weighed", 1)
    assert git(repo, "rev-parse", f"{REF}^").strip() == foreign
    assert not is_anchored(repo, heavy)
    message = git(repo, "log", "-1", "--format=%B", REF)
    assert f"not anchored: tree {heavy} adds 1 file(s), 500 bytes beyond HEAD" in message


def test_an_append_lists_its_commit_as_own_even_when_the_state_folder_is_gone(
        repo: Path) -> None:
    """The local state files are opened first and their folder made only when missing
    (`open_local_state`); a clone whose `correx/` folder was removed still lists the
    append's commit as its own, and only that one: a foreign commit is never listed."""
    handle = in_process(repo)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    ours(handle, tree, "first", 0)
    foreign_append(repo, tree, "theirs")
    foreign = git(repo, "rev-parse", REF).strip()
    shutil.rmtree(repo / ".git" / "correx")
    ours(handle, tree, "second", 1)
    mine = git(repo, "rev-parse", REF).strip()
    assert own_commits(handle, [mine, foreign]) == {mine}
    assert (repo / ".git" / "correx" / "ledger-writers").exists()
