"""Seeding a private index from the user's, without believing the user's stat data.

git decides whether to hash a file again by its index entry's stat data alone: an entry
whose size, times and inode equal the file's is taken to hold the file's bytes. Whoever
writes the user's index chooses those fields. `git -c filter.x.clean='git show HEAD:f'
add f` (a filter that lives for one command) leaves HEAD's blob beside the edited file's
stat data: `git status` and `git add -A` see nothing, and a key taken on a copy of that
index records HEAD's bytes while the commands read the edited ones. The same holds for an
index written by any other program.

So a private index takes from the user's only what the definition needs of it: which
paths are tracked, with which mode, object and stage (tracked-but-ignored files, conflicts
and sparse entries depend on them) and the skip-worktree bits (`state_index_bits.py` probes
them). Stat data comes only from our own kept index, where git wrote it after hashing the
file under `GIT_ARGS`: an entry whose mode, object and stage both indexes hold keeps ours;
every other entry is written without stat data, and git hashes the file again. A first key
in a worktree (no kept index yet) hashes every tracked file once (50,000 files: ~0.7 s,
about ten `git status`); afterwards a rebuild hashes what the user's index changed (a
commit, a checkout) and nothing else.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from gitcorrex.errors import GitCommandError, environmental_error
from gitcorrex.git.background import in_background
from gitcorrex.git.process import run_git
from gitcorrex.git.state_index_bits import SKIPPED, skip_probes
from gitcorrex.git.state_scan import GIT_ARGS


def seed_index(root: Path, index: str, source: Path, keep_fds: tuple[int, ...], *,
               base: str | None, version: int | None = None) -> list[str]:
    """Make `index` hold the entries of the user's index `source` (no assume-unchanged
    bits), with stat data only from `base` (our kept index, or None: none at all);
    `index` may be `base` itself. Returns the skip-worktree probes (`skip_probes`).
    `version`: the index format to write (4 for a kept index)."""
    if base is not None and base != index:
        copy_index(base, index)  # first: what is compared below is what the copy holds
    elif base is None:
        Path(index).unlink(missing_ok=True)
    listed = in_background(lambda: _listing(root, str(source), keep_fds),
                           name="correx-user-index")
    ours = _listing(root, index, keep_fds)
    user = _without_assumed(listed())
    lines, newly_skipped = _differences(ours, user)
    if lines:
        version_args = ["--index-version", str(version)] if version else []
        _update(root, index, keep_fds, [*version_args, "-z", "--index-info"], lines)
    if newly_skipped:
        _update(root, index, keep_fds, ["--skip-worktree", "-z", "--stdin"], newly_skipped)
    if not (user.startswith(b"S ") or b"\0S " in user):
        return []
    return skip_probes([(line[:1], line.partition(b"\t")[2])
                        for line in user.split(b"\0") if line])


def _update(root: Path, index: str, keep_fds: tuple[int, ...], args: list[str],
            lines: list[bytes]) -> None:
    """`git update-index ARGS` on `index`, fed `lines`. A failure the machine caused (no
    space, read-only, no access where the index lives) names that directory and the fix,
    as the copy of the index this replaced did, rather than git's command line."""
    try:
        run_git([*GIT_ARGS, "update-index", *args], cwd=root, env={"GIT_INDEX_FILE": index},
                keep_fds=keep_fds, stdin=b"\0".join(lines) + b"\0")
    except GitCommandError as exc:
        from gitcorrex.git.write_faults import object_store_fault

        fault = object_store_fault(Path(index).parent) or environmental_error(exc)
        if fault is not None:
            raise fault from exc
        raise


_ASSUMED = re.compile(rb"\0[a-z] ")  # a tag in lower case: assume-unchanged


def _without_assumed(listing: bytes) -> bytes:
    """`listing` with every assume-unchanged tag in upper case: that bit is never carried,
    and the entry is compared as the same entry without it."""
    if listing[:1].islower():
        listing = listing[:1].upper() + listing[1:]
    if not _ASSUMED.search(listing):
        return listing
    return _ASSUMED.sub(lambda found: found.group().upper(), listing)


def _listing(root: Path, index: str, keep_fds: tuple[int, ...]) -> bytes:
    """`index`'s entries as `ls-files -s -v -z` gives them (`TAG MODE OBJECT STAGE\tPATH`,
    one per stage); none when there is no such file."""
    if not os.path.exists(index):
        return b""
    return run_git([*GIT_ARGS, "ls-files", "-s", "-v", "-z"], cwd=root,
                   env={"GIT_INDEX_FILE": index}, keep_fds=keep_fds).stdout


def _differences(ours: bytes, user: bytes) -> tuple[list[bytes], list[bytes]]:
    """The `--index-info` lines that turn `ours` into `user` (a path with any line of ours
    that differs, its tag included, dropped; every line of the user's that differs written
    without stat data), and the paths to mark skip-worktree then. Compared as whole lines,
    in sets; git sorts what it is given, so only a path's removal must come before its
    entries. An unmerged path may lose a stage that was equal in both: no key can tell,
    since `git add -A` replaces every stage with the work tree's file."""
    if ours == user:
        return [], []
    ours_set, user_set = set(ours.split(b"\0")), set(user.split(b"\0"))
    only_ours, only_user = ours_set - user_set - {b""}, user_set - ours_set - {b""}
    removed = {line.partition(b"\t")[2] for line in only_ours}
    if not removed and not only_user:
        return [], []
    some = next(iter(only_user or only_ours))
    remove = b"0 " + b"0" * len(some.split(b" ", 3)[2]) + b" 0\t"  # mode 0: drop every stage
    lines = [remove + path for path in removed]
    lines.extend(line[2:] for line in only_user)
    skipped = [line.partition(b"\t")[2] for line in only_user if line[:1] in SKIPPED]
    return lines, skipped


def copy_index(source: str, target: str) -> None:
    """Bytes and mtime (git's racy-entry rule compares entries with the file's own time);
    no `source`: no `target` either. (Plain os calls: `shutil` and the compression modules
    it loads cost a keyed run ~5 ms.)"""
    try:
        with open(source, "rb") as handle:
            data = handle.read()
            info = os.fstat(handle.fileno())
    except FileNotFoundError:
        Path(target).unlink(missing_ok=True)
        return
    with open(target, "wb") as out:
        out.write(data)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
