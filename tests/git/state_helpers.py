"""The state key's definition run with real git, and proof that nothing the user owns moved.

`reference_key` is the definition itself (`cp <index> X; GIT_INDEX_FILE=X git add -A;
GIT_INDEX_FILE=X git write-tree` from the top level); `snapshot` records the user's index
bytes, HEAD, refs and every work-tree file so a test can assert they are byte-for-byte
unchanged.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gitcorrex.git.repository import discover
from gitcorrex.git.state import TEMP_INDEX_PREFIX, WorkspaceState, compute_state
from tests.conftest import git


def git_path(cwd: Path, name: str) -> Path:
    """`git rev-parse --git-path NAME` as an absolute path (honours GIT_INDEX_FILE)."""
    out = git(cwd, "rev-parse", "--path-format=absolute", "--git-path", name)
    return Path(out.rstrip("\n"))


def reference_key(top: Path, index: Path | None = None) -> str:
    """The definition, run with git in a scratch directory outside the work tree."""
    index = index or git_path(top, "index")
    scratch = Path(tempfile.mkdtemp(prefix="reference-"))
    try:
        copy = scratch / "index"
        if index.exists():
            # `cp -p`: with a fresh mtime, an edit made in the same second as the index
            # write would be hidden from git (see state.py); otherwise the same as `cp`.
            shutil.copy2(index, copy)
        env = {"GIT_INDEX_FILE": str(copy)}
        git(top, "add", "-A", env=env)
        return git(top, "write-tree", env=env).strip()
    finally:
        shutil.rmtree(scratch)


def bytes_key(top: Path) -> str:
    """The tree of the work tree's bytes alone: `git add -A` on an empty index (no stat
    data, no index bits, no sparse rules to trust), then `git write-tree`. Equal to the
    definition wherever the user's index tracks nothing git would ignore."""
    scratch = Path(tempfile.mkdtemp(prefix="bytes-"))
    try:
        env = {"GIT_INDEX_FILE": str(scratch / "index")}
        git(top, "-c", "core.sparseCheckout=false", "add", "-A", env=env)
        return git(top, "write-tree", env=env).strip()
    finally:
        shutil.rmtree(scratch)


@dataclass(frozen=True)
class Snapshot:
    """What computing a key must leave exactly as it was."""

    index: str | None
    head_file: bytes
    head: str
    refs: str
    files: dict[bytes, tuple[int, str, int]]
    temp_indexes: tuple[str, ...]


def snapshot(top: Path, index: Path | None = None) -> Snapshot:
    """Hash the index bytes, read HEAD and refs, list and hash every work-tree file."""
    index = index or git_path(top, "index")
    git_dir = git_path(top, ".")
    head = subprocess.run(
        ["git", "rev-parse", "-q", "--verify", "HEAD"], cwd=top, capture_output=True, check=False
    ).stdout.decode()
    return Snapshot(
        index=hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else None,
        head_file=(git_dir / "HEAD").read_bytes(),
        head=head,
        refs=git(top, "for-each-ref", "--format=%(refname) %(objectname)"),
        files=work_tree_files(top),
        temp_indexes=tuple(sorted(p.name for p in git_dir.glob(TEMP_INDEX_PREFIX + "*"))),
    )


def work_tree_files(top: Path) -> dict[bytes, tuple[int, str, int]]:
    """Every path under `top` (the top-level `.git` directory aside): mode, content hash
    or link target, and mtime, as raw bytes so odd names survive."""
    found: dict[bytes, tuple[int, str, int]] = {}
    root = os.fsencode(top)
    for dirpath, dirnames, filenames in os.walk(root):
        if dirpath == root and b".git" in dirnames:
            dirnames.remove(b".git")
        for name in [*dirnames, *filenames]:
            path = os.path.join(dirpath, name)
            info = os.lstat(path)
            found[os.path.relpath(path, root)] = (
                info.st_mode,
                _content(path, info),
                info.st_mtime_ns,
            )
    return found


def _content(path: bytes, info: os.stat_result) -> str:
    if stat.S_ISLNK(info.st_mode):
        return "link:" + os.fsdecode(os.readlink(path))
    if stat.S_ISREG(info.st_mode):
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    return "dir"


def assert_state_matches_git(top: Path, start: Path | None = None) -> WorkspaceState:
    """compute_state equals the definition and changed nothing the user owns."""
    before = snapshot(top)
    result = compute_state(discover(start or top))
    assert snapshot(top) == before
    assert result.state_key == reference_key(top)
    return result


def tree_entry(top: Path, tree: str, path: str) -> str:
    """`git ls-tree TREE -- PATH` (mode type oid<TAB>path), '' when absent."""
    return git(top, "ls-tree", "-z", tree, "--", path).rstrip("\0")


def blob(top: Path, tree: str, path: str) -> bytes:
    """The bytes git stored for PATH in TREE."""
    proc = subprocess.run(
        ["git", "cat-file", "blob", f"{tree}:{path}"], cwd=top, capture_output=True, check=True
    )
    return proc.stdout
