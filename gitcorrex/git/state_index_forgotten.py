"""Tracked files that match an ignore rule, which a kept state index can forget.

The definition starts every key from a copy of the user's index, so a file the user
tracks stays tracked even where a rule ignores it (`git add -f`, or added before the
rule). A kept index is refreshed from its own last state instead: when such a file is
deleted, `git add -A` drops its entry, and when it comes back, neither `git status` nor
`git add -A` picks it up again (untracked and ignored, as far as the kept index knows),
while a copy of the user's index still tracks it: the key would miss the file.

So a rebuild lists the user's tracked-but-ignored files (read from the user's own index,
while the copy is made: `tracked_ignored`; usually none,
and then this costs nothing more), and every refresh of a kept index that has some lists
them again in the kept index (one `git ls-files`, which reads the whole index: such
repositories pay it on every key, with or without a watcher) and adds back, by exact path
with `git add -f`, those missing from it that exist as a file or a symlink. A change of
ignore rules or of the user's index rebuilds the kept index, and with it the list.
"""

from __future__ import annotations

import os
from pathlib import Path

from gitcorrex.git.process import run_git
from gitcorrex.git.state_scan import GIT_ARGS, LITERAL


def tracked_ignored(root: Path, index: str, keep_fds: tuple[int, ...]) -> list[str]:
    """Entries of `index` that the ignore rules match (as git's own names)."""
    out = run_git([*GIT_ARGS, "ls-files", "-z", "-c", "-i", "--exclude-standard"], cwd=root,
                  env={"GIT_INDEX_FILE": index}, keep_fds=keep_fds).stdout
    return sorted({path.decode("utf-8", "surrogateescape") for path in out.split(b"\0")
                   if path})


def to_add_back(root: Path, index: str, keep_fds: tuple[int, ...],
                tracked: list[str]) -> list[str]:
    """The user's tracked-but-ignored paths missing from the kept `index` (just
    refreshed) that exist as a file or a symlink: the ones a copy of the user's index
    would still hold. (A directory in a path's place is scanned as any directory is.)"""
    kept = set(tracked_ignored(root, index, keep_fds))
    back = []
    for path in tracked:
        if path in kept:
            continue
        try:
            mode = os.lstat(root / path).st_mode
        except OSError:
            continue
        if (mode & 0o170000) in (0o100000, 0o120000):
            back.append(path)
    return back


def add_back(root: Path, env: dict[str, str], keep_fds: tuple[int, ...],
             paths: list[str]) -> None:
    """`git add -f` of exactly these paths (literal pathspecs)."""
    data = b"".join(path.encode("utf-8", "surrogateescape") + b"\0" for path in paths)
    run_git([*GIT_ARGS, "add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"],
            cwd=root, env={**env, **LITERAL}, keep_fds=keep_fds, stdin=data)
