"""The one helper that runs the git binary: argument lists, bytes, errors that carry argv.

Used only where libgit2 differs from git (state keys, worktrees); everything else goes
through pygit2 in-process. The caller's environment is inherited on purpose: inside a hook
git hands us GIT_INDEX_FILE and GIT_DIR, and those must be honoured, never cleared.

Every git we start sees the real objects (REAL_OBJECTS): `refs/replace/*` and grafts let
whoever can write the repository make git show one commit, tree or blob in place of another,
or a commit with other parents, and nothing git correx concludes (a signature, a ledger
line, a range's commits) may rest on that. libgit2 ignores replace refs; the walks that
judge trust read parents from the commit objects (notes_history.py), so grafts and
`.git/shallow` reach neither engine's judgement.
"""

from __future__ import annotations

import os
from functools import lru_cache

# `subprocess`, `pathlib` and the error classes (~7 ms) load on first use: `git correx state`
# starts its first git processes before they load (state_start.py, through spawn.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping, Sequence
    from pathlib import Path

# no replace refs; a graft file that cannot exist (ENOTDIR: git neither reads nor warns)
REAL_OBJECTS = {"GIT_NO_REPLACE_OBJECTS": "1", "GIT_GRAFT_FILE": "/dev/null/no-grafts"}


class GitResult:
    """Raw result of one git run; stdout stays bytes because paths need not be UTF-8.
    (A plain class: `dataclasses` would load `inspect` on every hook's start-up.)"""

    __slots__ = ("returncode", "stderr", "stdout")

    def __init__(self, returncode: int, stdout: bytes, stderr: bytes) -> None:
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GitResult) and (self.returncode, self.stdout, self.stderr) == (
            other.returncode, other.stdout, other.stderr)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GitResult({self.returncode!r}, {self.stdout!r}, {self.stderr!r})"


def run_git(
    args: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    check: bool = True,
    stdin: bytes | None = None,
    keep_fds: Sequence[int] = (),
    unset: Sequence[str] = (),
) -> GitResult:
    """Run `git ARGS` in `cwd`; raise GitCommandError on a non-zero exit when `check`.
    `keep_fds` stay open in git (a lock that must outlive us if we are killed); `unset`
    names inherited variables git must not see."""
    import subprocess

    from gitcorrex.errors import GitCommandError, UnavailableError

    argv = ["git", *args]
    full_env = git_environment(env, unset)
    try:
        proc = subprocess.run(
            argv, cwd=cwd, env=full_env, input=stdin, capture_output=True, check=False,
            pass_fds=tuple(keep_fds),
        )
    except FileNotFoundError as exc:
        raise UnavailableError(
            "the git binary was not found on PATH", hint="install git 2.31 or newer"
        ) from exc
    raise_if_stopped(proc.returncode)
    result = GitResult(proc.returncode, proc.stdout, proc.stderr)
    if check and proc.returncode != 0:
        raise GitCommandError(argv, proc.returncode, decode_path(proc.stderr))
    return result


def raise_if_stopped(returncode: int | None) -> None:
    """Interrupted when git ended by a stop signal, checked or not: Ctrl-C reaches the whole
    process group, and git may die of it before this process's own handler runs. Its exit
    is then the interruption (exit 128 + the signal), never a git failure, nor a non-zero
    status a caller would read as an answer ("no such object", "not ignored")."""
    if returncode is None or returncode >= 0:
        return
    from gitcorrex.errors import STOP_SIGNALS, Interrupted  # loaded only when git was killed

    if -returncode in STOP_SIGNALS:
        raise Interrupted(-returncode)


def start_git(args: Sequence[str], *, cwd: Path) -> subprocess.Popen[bytes]:
    """Start `git ARGS` with pipes on all three streams, for a conversation with a
    long-running git (`cat-file --batch`); the caller writes, reads and waits."""
    import subprocess

    from gitcorrex.errors import UnavailableError

    try:
        return subprocess.Popen(["git", *args], cwd=cwd, env=git_environment(),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except FileNotFoundError as exc:
        raise UnavailableError(
            "the git binary was not found on PATH", hint="install git 2.31 or newer"
        ) from exc


def git_environment(env: Mapping[str, str] | None = None,
                    unset: Sequence[str] = ()) -> dict[str, str]:
    """Ours plus `env`, minus `unset`, with git's messages in the C locale (we parse them),
    on the real objects (REAL_OBJECTS, which no caller overrides)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    for name in unset:
        full_env.pop(name, None)
    full_env.setdefault("LC_ALL", "C")
    full_env.update(REAL_OBJECTS)
    return full_env


def decode_path(raw: bytes) -> str:
    """Decode git output losslessly: non-UTF-8 bytes survive as surrogate escapes."""
    return raw.decode("utf-8", "surrogateescape")


def encode_path(text: str) -> bytes:
    """Inverse of decode_path, so a path read from git can be handed back byte-exact."""
    return text.encode("utf-8", "surrogateescape")


@lru_cache(maxsize=1)
def git_version() -> str:
    """`git --version` without the prefix; recorded in every event's `tool`."""
    from pathlib import Path

    out = run_git(["--version"], cwd=Path.cwd()).stdout.decode("ascii", "replace").strip()
    return out.removeprefix("git version ").strip()
