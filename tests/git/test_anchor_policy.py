"""`correx.anchorStates`: false leaves state trees unanchored (blobs still are); a value that
is not a boolean is a configuration error and records nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.model.events import session_object_oid
from tests.conftest import git
from tests.ledger_facts import verify_tree

REF = "refs/notes/correx"


def anchors(repo: Path) -> list[str]:
    listed = git(repo, "ls-tree", "-r", "--name-only", REF, "anchors")
    return [path.replace("/", "")[len("anchors"):] for path in listed.split()]


def test_states_are_anchored_by_default(repo: Path) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree)
    assert tree in git(repo, "ls-tree", "-r", "-d", "--name-only", REF, "anchors").replace("/", "")


def test_false_anchors_session_blobs_but_not_trees(repo: Path) -> None:
    git(repo, "config", "correx.anchorStates", "false")
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree, session="run-1")
    listed = git(repo, "ls-tree", "-r", "-d", "--name-only", REF, "anchors").replace("/", "")
    assert tree not in listed
    assert session_object_oid("run-1") in anchors(repo)


def test_a_value_that_is_not_a_boolean_is_a_config_error(repo: Path) -> None:
    git(repo, "config", "correx.anchorStates", "sometimes")
    with pytest.raises(ConfigError, match=r"correx\.anchorStates"):
        verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip())
    assert git(repo, "for-each-ref", REF) == ""
