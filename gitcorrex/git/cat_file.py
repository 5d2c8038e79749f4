"""One `git cat-file --batch` process answering object reads one after another.

git flushes its answer after each object (unless `--buffer`), so a reader can ask for a
commit, learn its tree, then ask for that tree's subtrees, all in one process: the light
ledger storage (`notes_plumbing.py`) reads everything an append needs this way instead of
starting a git per object or importing libgit2 (~100 ms).
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import decode_path, raise_if_stopped, start_git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType

ARGS = ("cat-file", "--batch")


class StoredObject:
    """An object as read: its id, type (`blob`, `tree`, `commit`, `tag`) and content."""

    __slots__ = ("data", "kind", "oid")

    def __init__(self, oid: str, kind: str, data: bytes) -> None:
        self.oid = oid
        self.kind = kind
        self.data = data


class ObjectReader:
    """Reads objects by revision expression (`<oid>`, `<commit>^{tree}`, `<tree>:<path>`);
    an expression naming nothing reads as None. Close it (or use `with`)."""

    def __init__(self, cwd: Path) -> None:
        self._proc = start_git(ARGS, cwd=cwd)

    def read(self, expression: str) -> StoredObject | None:
        """The object `expression` names; None when it names none (missing, ambiguous)."""
        proc = self._proc
        if proc.stdin is None or proc.stdout is None or "\n" in expression:
            raise ValueError(f"cannot ask cat-file for {expression!r}")
        try:
            proc.stdin.write(expression.encode("utf-8", "surrogateescape") + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline()
        except BrokenPipeError:
            header = b""
        fields = header.split()
        if len(fields) != 3:
            if header.endswith((b" missing\n", b" ambiguous\n")):
                return None
            raise self._failure()
        size = int(fields[2])
        data = proc.stdout.read(size + 1)[:size]
        return StoredObject(fields[0].decode("ascii"), fields[1].decode("ascii"), data)

    def _failure(self) -> GitCommandError:
        self.close()
        raise_if_stopped(self._proc.returncode)
        stderr = self._proc.stderr.read() if self._proc.stderr is not None else b""
        return GitCommandError(["git", *ARGS], self._proc.returncode or 1, decode_path(stderr))

    def close(self) -> None:
        """End the process (idempotent)."""
        proc = self._proc
        if proc.stdin is not None and not proc.stdin.closed:
            with suppress(BrokenPipeError):
                proc.stdin.close()
        if proc.stdout is not None:
            proc.stdout.close()
        proc.wait()

    def __enter__(self) -> ObjectReader:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
