"""Finding the repository: the paths every other git/ module works from.

One way in: git itself answers (`rev-parse`), which is exactly git's own discovery
(GIT_DIR, GIT_WORK_TREE, worktrees, `--separate-git-dir`, safe.directory). libgit2's
discovery guessed the work tree of a `--separate-git-dir` repository (the parent of its git
dir), so a command could read, and even push, another repository's ledger. libgit2 is
opened on the directories git named, only when an operation needs it (`libgit2()`).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from gitcorrex.errors import GitCommandError, NotARepositoryError, UsageError
from gitcorrex.git.config_faults import config_file_error
from gitcorrex.git.discovery import DISCOVERY_ARGS, discovered_dirs
from gitcorrex.git.process import GitResult, decode_path, run_git

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~5 ms)
if TYPE_CHECKING:
    from typing import Any

    import pygit2

    from gitcorrex.git.spawn import SpawnedGit

NOT_A_REPO_HINT = "cd into a git work tree (or run `git init`) and try again"


class Repository:
    """Where a repository lives. `work_tree` is None for a bare repository.

    A plain class, not a dataclass: `dataclasses` loads `inspect` (~10 ms), and
    `git correx state` imports this module on every hook and agent call.
    """

    __slots__ = ("_handle", "_shared", "common_dir", "git_dir", "object_format", "work_tree")
    git_dir: Path
    common_dir: Path
    work_tree: Path | None
    object_format: str
    _handle: list[Any]
    _shared: list[Any]

    def __init__(self, git_dir: Path, common_dir: Path, work_tree: Path | None,
                 object_format: str = "sha1") -> None:
        for name, value in (("git_dir", git_dir), ("common_dir", common_dir),
                            ("work_tree", work_tree), ("object_format", object_format),
                            ("_handle", []), ("_shared", [])):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Repository is immutable: cannot set {name}")

    def _key(self) -> tuple[Path, Path, Path | None, str]:
        return (self.git_dir, self.common_dir, self.work_tree, self.object_format)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Repository) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Repository(git_dir={self.git_dir!r}, common_dir={self.common_dir!r}, "
                f"work_tree={self.work_tree!r}, object_format={self.object_format!r})")

    @property
    def index_file(self) -> Path:
        """The index git would use: GIT_INDEX_FILE (set by git inside hooks) wins."""
        override = os.environ.get("GIT_INDEX_FILE")
        if override:
            return Path(override) if os.path.isabs(override) else self.root / override
        return self.git_dir / "index"

    @property
    def root(self) -> Path:
        """The work tree's top level; a bare repository is refused with exit 2."""
        if self.work_tree is None:
            raise NotARepositoryError(
                f"{self.git_dir} is a bare repository: this command needs a work tree",
                hint="run it inside a clone or a `git worktree` of this repository",
            )
        return self.work_tree

    def libgit2(self) -> pygit2.Repository:
        """The in-process handle, opened once on first use (pygit2 costs ~70 ms to import)."""
        if not self._handle:
            self._handle.append(_open(str(self.git_dir), self.object_format))
        handle: pygit2.Repository = self._handle[0]
        return handle

    def has_libgit2(self) -> bool:
        """Whether this process opened libgit2 on the repository already: git/ then keeps
        using it (in-process, no git process per operation); otherwise the git binary
        answers and libgit2 (~100 ms CPU to import) is never loaded for it."""
        return bool(self._handle or self._shared)

    def shared_libgit2(self) -> pygit2.Repository:
        """The repository opened at its common dir, where shared refs and objects live.

        Notes refs are shared by every worktree. libgit2 1.9 opened on a linked worktree
        creates a shared ref with force=False without seeing that it already exists, so two
        first records (one from a worktree) silently overwrote each other; opened at the
        common dir it refuses as it should.
        """
        if self.common_dir == self.git_dir:
            return self.libgit2()
        if not self._shared:
            self._shared.append(_open_shared(str(self.common_dir)))
        shared: pygit2.Repository = self._shared[0]
        return shared


@lru_cache(maxsize=8)
def _open_shared(path: str) -> pygit2.Repository:
    return _open(path, "sha1")


def _open(path: str, object_format: str) -> pygit2.Repository:
    """libgit2's handle; a repository format it cannot read is a clear exit 2."""
    import pygit2

    try:
        return pygit2.Repository(path)
    except pygit2.GitError as exc:
        if "object format" not in str(exc):
            raise
        raise unsupported_format_error(path, _format_named(str(exc), object_format)) from exc


def _format_named(message: str, fallback: str) -> str:
    """`sha256` out of libgit2's "unknown object format 'sha256'"."""
    quoted = message.rpartition("'")[0].rpartition("'")[2]
    return quoted or fallback


def unsupported_format_error(where: str, object_format: str) -> UsageError:
    """The ledger is read and written in-process by libgit2, which must know the format."""
    import pygit2

    return UsageError(
        f"{where} uses the {object_format} object format, which this installation's libgit2 "
        f"({pygit2.LIBGIT2_VERSION}) cannot read: its ledger cannot be recorded or read",
        hint="use git correx in a sha1 repository (`git init --object-format=sha1`), or "
        "install a pygit2 built with a libgit2 that supports " + object_format)


def require_ledger_format(repo: Repository) -> None:
    """Refuse (exit 2) before anything runs when libgit2 cannot open the repository."""
    if repo.object_format != "sha1":
        repo.shared_libgit2()


def unreadable_object_format(repo: Repository) -> str | None:
    """The repository's object format when this installation's libgit2 cannot open it —
    the ledger, and the hooks' read of the profile at HEAD, go through libgit2 — else None.
    A sha1 repository is answered without loading libgit2."""
    if repo.object_format == "sha1":
        return None
    try:
        repo.shared_libgit2()
    except UsageError:
        return repo.object_format
    return None


def begin_discover(start: Path | str) -> SpawnedGit | None:
    """`discover(start)`'s git, started now for a caller that has other work before it can
    ask (its answer goes to `discover(start, asked=…)`); None when it cannot start here."""
    from gitcorrex.git.spawn import spawn_git

    try:
        return spawn_git(DISCOVERY_ARGS, cwd=str(start), check=False)
    except OSError:
        return None


def discover(start: Path, *, asked: GitResult | None = None) -> Repository:
    """Ask git itself where the repository is, as seen from `start`. `asked`: git's answer
    to `DISCOVERY_ARGS` from `start`, when the caller started it already (state_start.py)."""
    result = run_git(DISCOVERY_ARGS, cwd=start, check=False) if asked is None else asked
    if result.returncode != 0:
        stderr = decode_path(result.stderr)
        if result.returncode == 128 and "not a git repository" in stderr:
            raise NotARepositoryError(f"not inside a git repository: {start}",
                                      hint=NOT_A_REPO_HINT)
        if result.returncode == 128 and "must be run in a work tree" in stderr:
            return _bare_from_git(start)
        raise config_file_error(stderr) or GitCommandError(
            ["git", *DISCOVERY_ARGS], result.returncode, stderr)
    git_dir, common_dir, work_tree, object_format = discovered_dirs(result.stdout)
    return Repository(Path(git_dir), Path(common_dir),
                      None if work_tree is None else Path(work_tree), object_format)


def _bare_from_git(start: Path) -> Repository:
    """`--show-toplevel` fails in a bare repository; ask again without it."""
    args = ["rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-common-dir",
            "--show-object-format"]
    git_dir, common_dir, object_format = decode_path(run_git(args, cwd=start).stdout).split(
        "\n")[:3]
    return Repository(Path(git_dir), Path(common_dir), None, object_format)
