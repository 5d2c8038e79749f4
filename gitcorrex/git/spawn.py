"""Starting git without `subprocess`: the first git processes of `git correx state`.

`subprocess` and what it loads cost ~3.5 ms, and a state key waits for its `git status`
(~60 ms on 50,000 files) before anything else: `state_start.py` starts that scan before the
program has loaded, with `os.posix_spawn` (vfork and exec, as `subprocess` does where it
can). The child is what `run_git` would start: the same argv, environment
(`git_environment`) and streams (stdin inherited, stdout and stderr captured), the signal
dispositions `subprocess` restores (SIGPIPE, SIGXFSZ), only the descriptors named in
`keep_fds` inherited. posix_spawn cannot change directory: `git -C DIR` does exactly what
a start in DIR does (relative paths in GIT_DIR and the like are read from DIR).
"""

from __future__ import annotations

import os
import signal

from gitcorrex.git.process import GitResult, decode_path, git_environment, raise_if_stopped

TYPE_CHECKING = False  # no `typing`, no `collections.abc` before the first git starts
if TYPE_CHECKING:
    from collections.abc import Sequence

RESTORED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGPIPE", "SIGXFSZ")
                         if hasattr(signal, name))


class SpawnedGit:
    """A git process started by `spawn_git`; `wait` collects it exactly once."""

    __slots__ = ("_argv", "_check", "_pid", "_pipes", "_result")

    def __init__(self, argv: list[str], pid: int, pipes: tuple[int, int], check: bool) -> None:
        self._argv, self._pid, self._pipes, self._check = argv, pid, pipes, check
        self._result: GitResult | None = None

    def wait(self) -> GitResult:
        """Read both streams to their end (poll: neither pipe may fill while the other is
        read), reap the process; raise GitCommandError on a non-zero exit when checked."""
        if self._result is None:
            out, err = _read_both(*self._pipes)
            _, status = os.waitpid(self._pid, 0)
            self._result = GitResult(os.waitstatus_to_exitcode(status), out, err)
        raise_if_stopped(self._result.returncode)
        result = self._result
        if self._check and result.returncode != 0:
            from gitcorrex.errors import GitCommandError  # loaded by the first failure

            raise GitCommandError(self._argv, result.returncode, decode_path(result.stderr))
        return result


STDIN_LIMIT = 16384  # what a pipe holds on every platform before anyone reads it


def spawn_git(args: Sequence[str], *, cwd: str | None = None, env: dict[str, str] | None = None,
              keep_fds: Sequence[int] = (), check: bool = True,
              stdin: bytes | None = None) -> SpawnedGit:
    """Start `git ARGS` (in `cwd`, else here); OSError when it cannot start (no git on PATH:
    the caller falls back to `run_git`, which reports it). `stdin`: git's whole input (at
    most STDIN_LIMIT bytes, written to a pipe before git starts), else ours is inherited."""
    if not hasattr(os, "posix_spawnp"):  # pragma: no cover - Windows: `run_git` instead
        raise OSError("os.posix_spawnp is not available here")
    if stdin is not None and len(stdin) > STDIN_LIMIT:
        raise OSError(f"more than {STDIN_LIMIT} bytes for git's input: run_git writes it")
    argv = ["git", *(["-C", cwd] if cwd is not None else []), *args]
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)]
    in_r = None
    if stdin is not None:
        in_r, in_w = os.pipe()
        os.write(in_w, stdin)
        os.close(in_w)
        actions.append((os.POSIX_SPAWN_DUP2, in_r, 0))
    for fd in keep_fds:
        os.set_inheritable(fd, True)
    try:
        pid = os.posix_spawnp("git", argv, git_environment(env), file_actions=actions,
                              setsigdef=RESTORED_SIGNALS)
    except OSError:
        for fd in (out_r, err_r):
            os.close(fd)
        raise
    finally:
        for fd in keep_fds:
            os.set_inheritable(fd, False)
        for fd in (out_w, err_w) if in_r is None else (out_w, err_w, in_r):
            os.close(fd)
    return SpawnedGit(argv, pid, (out_r, err_r), check)


def _read_both(out_fd: int, err_fd: int) -> tuple[bytes, bytes]:
    import select

    chunks: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    poller = select.poll()
    for fd in chunks:
        poller.register(fd, select.POLLIN)
    open_fds = len(chunks)
    while open_fds:
        for fd, _ in poller.poll():
            data = os.read(fd, 65536)
            if data:
                chunks[fd].append(data)
            else:
                poller.unregister(fd)
                os.close(fd)
                open_fds -= 1
    return b"".join(chunks[out_fd]), b"".join(chunks[err_fd])
