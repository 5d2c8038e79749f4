"""`.correx.toml` must be a regular file inside the work tree, for every command that loads it.

A symbolic link is part of the state key only as its target's *path*: editing the file it
points to (outside the tree, or anywhere) changes the commands a verification runs while
the key stays the same, so a pass would be claimed for commands nobody can name. Anything
that is not a regular file (a link, a directory, a FIFO) is refused with exit 2, naming
the file and the fix, before anything runs or is recorded.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, write
from tests.verify.conftest import counting, has_ledger, profile_text, runs_counted

Correx = Callable[..., CliResult]


def linked_profile(project: Path, outside: Path) -> Path:
    """The project's profile moved outside the tree, a symlink left in its place; the
    link's target (returned) is what an edit would change."""
    target = outside / "profile.toml"
    target.write_bytes((project / ".correx.toml").read_bytes())
    (project / ".correx.toml").unlink()
    os.symlink(target, project / ".correx.toml")
    return target


def assert_refused(result: CliResult) -> None:
    assert result.code == 2, result
    assert ".correx.toml" in result.stderr and "regular file" in result.stderr, result
    assert "symbolic link" in result.stderr, result


def test_verify_refuses_a_symlinked_profile(project: Path, outside: Path,
                                            correx: Correx) -> None:
    linked_profile(project, outside)
    assert_refused(correx(project, "verify", "--quiet"))
    assert not has_ledger(project)


def test_a_cached_selection_does_not_follow_a_symlink(project: Path, outside: Path,
                                                      correx: Correx) -> None:
    """The selection stored for the profile's bytes would answer for the link's target:
    editing the target is then a silent change of commands under one state key."""
    counter = outside / "runs"
    write(project, ".correx.toml", profile_text({"test": counting(counter)}, {"test": ["test"]},
                                                default="test"))
    git(project, "commit", "-qam", "counting profile")
    assert correx(project, "verify", "--quiet").code == 0
    target = linked_profile(project, outside)
    before = git(project, "notes", "--ref", "correx", "list")
    assert_refused(correx(project, "verify", "--quiet"))
    target.write_text(profile_text({"test": "true"}, {"test": ["test"]}, default="test"))
    assert_refused(correx(project, "verify", "--quiet"))
    assert runs_counted(counter) == 1
    assert git(project, "notes", "--ref", "correx", "list") == before


@pytest.mark.parametrize("make", ["directory", "fifo"])
def test_verify_refuses_a_profile_that_is_not_a_file(project: Path, correx: Correx,
                                                     make: str) -> None:
    (project / ".correx.toml").unlink()
    if make == "directory":
        (project / ".correx.toml").mkdir()
        write(project, ".correx.toml/x", "x\n")
    else:
        os.mkfifo(project / ".correx.toml")
    result = correx(project, "verify", "--quiet", timeout=30)
    assert result.code == 2, result
    assert ".correx.toml" in result.stderr and "regular file" in result.stderr, result
    assert not has_ledger(project)


def test_manifest_lint_refuses_a_symlinked_profile(project: Path, outside: Path,
                                                   correx: Correx) -> None:
    linked_profile(project, outside)
    assert_refused(correx(project, "manifest", "lint"))
