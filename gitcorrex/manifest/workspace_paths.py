"""Where a path named by an agent's tool call really is, found without following its end.

A tool call names a path as a shell user means it: relative to a directory, or absolute.
Judging it needs the canonical repo-relative path, and an escape (`..`, an absolute path,
a symlinked directory pointing out of the work tree) must be seen for what it is. So the
parent directories are resolved one component at a time with lstat/readlink, as the kernel
would; the final component is never followed (a symlink is judged by its own path, as git
records it) and nothing is ever opened.

A `..` that steps back over a symlink the caller named (`link/../x`) means one file to the
kernel (the target's parent) and another to a tool that normalises the text first (Claude
Code's tools are Node programs that do): such a path cannot be judged and is refused.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from typing import NamedTuple

MAX_LINKS = 40


class Location(NamedTuple):
    """`absolute`: real parent directories plus the path's own last name.

    `relative` is the repo-relative path when it lies inside the work tree (`""` for the
    top level itself), None outside. `problem` says why the path could not be resolved at
    all (then `absolute` is the text as given); `escapes` whether that might hide an escape.
    """

    absolute: str
    relative: str | None
    problem: str | None = None
    escapes: bool = False


class _Unresolvable(Exception):
    def __init__(self, message: str, *, escapes: bool) -> None:
        super().__init__(message)
        self.escapes = escapes


def locate(given: str, *, base: str, root: str) -> Location:
    """Resolve `given` (relative to the real directory `base`) against the real `root`."""
    if not given:
        return Location(given, None, "empty path")
    if "\0" in given:
        return Location(given, None, "NUL byte in the path")
    text = given if given.startswith("/") else f"{base}/{given}"
    parts = text.split("/")
    own = parts.pop() if parts[-1] not in ("", ".", "..") else None
    try:
        parent = _resolve(parts)
    except _Unresolvable as exc:
        return Location(text, None, str(exc), exc.escapes)
    absolute = parent if own is None else _join(parent, own)
    return Location(absolute, relative_to(absolute, root))


def relative_to(absolute: str, root: str) -> str | None:
    """`absolute` relative to `root` ("" for root itself); None when it is not below root."""
    if absolute == root:
        return ""
    prefix = root.rstrip("/") + "/"
    return absolute[len(prefix):] if absolute.startswith(prefix) else None


def _resolve(parts: list[str]) -> str:
    """The real directory `parts` name, resolving every symlink among them physically."""
    pending = deque((part, True) for part in parts)
    current, links = "/", 0
    depth_since_link: int | None = None  # caller's names stacked above the last symlink
    while pending:
        part, from_caller = pending.popleft()
        if part in ("", "."):
            continue
        if part == "..":
            if from_caller and depth_since_link == 0:
                raise _Unresolvable("'..' after a symlink: it names one file on disk and "
                                    "another once the text is normalised", escapes=False)
            if from_caller and depth_since_link:
                depth_since_link -= 1
            current = os.path.dirname(current)
            continue
        candidate = _join(current, part)
        target = _link_target(candidate)
        if target is None:
            current = candidate
            if from_caller and depth_since_link is not None:
                depth_since_link += 1
            continue
        links += 1
        if links > MAX_LINKS:
            raise _Unresolvable(f"too many levels of symbolic links at {candidate}",
                                escapes=True)
        if from_caller:
            depth_since_link = 0
        if target.startswith("/"):
            current = "/"
        pending.extendleft((piece, False) for piece in reversed(target.split("/")))
    return current


def _link_target(path: str) -> str | None:
    """The text of the symlink at `path`; None when it is no symlink or does not exist."""
    try:
        info = os.lstat(path)
        if not stat.S_ISLNK(info.st_mode):
            return None
        return os.readlink(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise _Unresolvable(f"cannot inspect {path}: {exc.strerror or exc}",
                            escapes=True) from None


def _join(directory: str, name: str) -> str:
    return f"{directory.rstrip('/')}/{name}"
