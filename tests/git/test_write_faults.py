"""A full disk under every ledger write path is exit 3 with one line naming the object store.

The disk is really full (a 4 MiB tmpfs, filled to a chosen number of KiB left), and the
command is a real `git correx` process. Each engine fails at a different step depending on
how much space is left — the note blob, the trees, the commit, the ref's lock file, the
ledger's first ref — and libgit2 does not always say why (seen: "target OID for the
reference doesn't exist on the repository" once its commit could not be stored). So every
level from nothing to enough is tried, on a repository with a ledger and on one without.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.test_boundary import fill, full_disk_repo, small_fs  # noqa: F401  (fixture)
from tests.conftest import git, run_correx

# (arguments, exit code of the command when it records): `verify` appends through git's
# plumbing; `assess` has opened libgit2 (it read trees), so it appends in-process.
ENGINES = {"plumbing": (["verify"], 0),
           "libgit2": (["assess", "write", "docs/x.md", "--stage", "impl"], 1)}
LEVELS_KIB = range(0, 44, 4)


@pytest.mark.parametrize("first_write", [True, False], ids=["no-ledger-yet", "ledger"])
@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_full_disk_is_exit_3_naming_the_object_store_on_every_write_path(
        small_fs: Path, engine: str, first_write: bool) -> None:  # noqa: F811
    root = full_disk_repo(small_fs)
    if first_write:
        git(root, "update-ref", "-d", "refs/notes/correx")
        git(root, "gc", "-q", "--prune=now")
    args, recorded = ENGINES[engine]
    store = root / ".git" / "objects"
    expected = f"git correx: error: cannot write {store}: no space left on device"
    for leave_kib in LEVELS_KIB:
        tip = _ledger_tip(root)
        fill(small_fs, leave_kib=leave_kib)
        result = run_correx(root, *args)
        os.remove(small_fs / "filler")
        if result.code != recorded or _ledger_tip(root) == tip:
            assert result.code == 3, (leave_kib, result)
            errors = [line for line in result.stderr.splitlines() if "error:" in line]
            assert errors == [expected], (leave_kib, result)
            assert _ledger_tip(root) == tip, (leave_kib, result)
        git(root, "fsck", "--no-dangling")  # no half-written object left in the store


def _ledger_tip(root: Path) -> str:
    return git(root, "for-each-ref", "--format=%(objectname)", "refs/notes/correx").strip()
