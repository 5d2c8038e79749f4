"""An append made ahead of time (`ledger.prepare_append`) and published later: verify makes
its observation's notes commit while git rescans the work tree. Until `publish` nothing is
on the ledger; a foreign writer that moves the ref in between loses nothing, and the
published append is its own compare-and-swap commit on the tip as it is then. Both engines
(git's plumbing, libgit2 in-process) are driven through the same door.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.git import Repository, discover
from gitcorrex.ledger import Draft, prepare_append
from tests.conftest import git, in_process
from tests.ledger.test_foreign_writer_between_appends import KIND, REF, foreign_append
from tests.ledger_facts import T0, provenance

ENGINES: dict[str, Callable[[Path], Repository]] = {"plumbing": discover,
                                                    "libgit2": in_process}


def _draft(tree: str, marker: str) -> Draft:
    return Draft(KIND, {"result": "pass", "marker": marker}, (tree,), stage="build",
                 state_key=tree)


def _tip(repo: Path) -> str | None:
    found = git(repo, "for-each-ref", "--format=%(objectname)", REF).strip()
    return found or None


def _note(repo: Path, tree: str) -> str:
    return git(repo, "notes", "--ref", REF, "show", tree)


@pytest.mark.parametrize("engine", ENGINES)
def test_nothing_is_on_the_ledger_until_published(repo: Path, engine: str) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    handle = ENGINES[engine](repo)
    prepared = prepare_append(handle, [_draft(tree, "early")], now=T0,
                              provenance=provenance())
    assert _tip(repo) is None  # made and stored, not recorded
    (line,) = prepared.publish()
    assert '"marker":"early"' in line
    assert _note(repo, tree) == line + "\n"
    assert git(repo, "rev-list", "--count", REF).strip() == "1"
    assert prepared.publish() == [line]  # published once: a second call writes nothing
    assert git(repo, "rev-list", "--count", REF).strip() == "1"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_foreign_append_before_publish_loses_nothing(repo: Path, engine: str) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    handle = ENGINES[engine](repo)
    foreign_append(repo, tree, "first")
    prepared = prepare_append(handle, [_draft(tree, "ours")], now=T0,
                              provenance=provenance())
    foreign_append(repo, tree, "theirs")  # moves the ref the prepared commit extends
    moved = _tip(repo)
    prepared.publish()
    assert git(repo, "rev-parse", f"{REF}^").strip() == moved  # redone on the tip as it is
    shown = _note(repo, tree)
    assert [m for m in ("first", "theirs", "ours") if f'"marker":"{m}"' in shown] == [
        "first", "theirs", "ours"]
    assert git(repo, "fsck", "--no-dangling", "--connectivity-only", REF) == ""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_foreign_writer_that_creates_the_ledger_first_loses_nothing(repo: Path,
                                                                     engine: str) -> None:
    """Prepared on no ledger at all; the ref is created by `git notes` before publish."""
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    handle = ENGINES[engine](repo)
    prepared = prepare_append(handle, [_draft(tree, "ours")], now=T0,
                              provenance=provenance())
    foreign_append(repo, tree, "theirs")
    created = _tip(repo)
    prepared.publish()
    assert git(repo, "rev-parse", f"{REF}^").strip() == created
    shown = _note(repo, tree)
    assert '"marker":"theirs"' in shown and '"marker":"ours"' in shown


def test_a_prepared_append_never_published_leaves_the_ledger_as_it_was(repo: Path) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    foreign_append(repo, tree, "kept")
    before = _tip(repo)
    prepare_append(discover(repo), [_draft(tree, "dropped")], now=T0,
                   provenance=provenance())
    assert _tip(repo) == before
    assert "dropped" not in _note(repo, tree)
