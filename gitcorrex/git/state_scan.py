"""Refreshing a kept state index: `git status` says what changed, `git add` adds only that.

`git add -A` on 50,000 files spends ~45 ms of its ~150 ms walking every directory for
untracked files: it cannot use git's untracked cache (git 2.39 keeps that cache for
`status --untracked-files=normal` only). `git status` with the untracked cache that our kept
index carries does the same refresh (stat of every tracked file, racy entries re-read by
git's own rules) and finds untracked files by comparing directory mtimes (~1.5 ms). So a
kept index is refreshed in two steps:

1. `git status --porcelain=v2 -z` on the kept index lists every path whose work-tree file
   differs from the index entry (modified, deleted, type or mode changed, intent-to-add,
   unmerged, a submodule at another commit) and every untracked, not ignored path (a whole
   untracked directory as one entry). These are exactly the paths `git add -A` would
   change: both compare with `run_diff_files` and both select untracked files by the same
   ignore rules.
2. Nothing listed: the index already holds what `git add -A` would give (status may have
   rewritten it, but only stat data and the cache, never an entry). A few paths: `git add
   -A` limited to them as literal pathspecs. Many paths: plain `git add -A` (matching
   every index entry against hundreds of pathspecs costs more than the walk it saves).

Submodules are compared with `--ignore-submodules=dirty`: a gitlink records the
submodule's HEAD commit, which is what `dirty` still reports, and it spares a `git status`
inside every submodule. The flag on the command line overrides `.gitmodules` and config.
"""

from __future__ import annotations

from gitcorrex.git.process import run_git
from gitcorrex.git.spawn import spawn_git

TYPE_CHECKING = False  # no `typing`, no `pathlib`: state_start.py begins the scan before they load
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

MAX_PATHSPECS = 32
# Every git process that refreshes or adds to a private index trusts no hook, no index bit
# and no weakened stat check, and applies no sparse rules (state_index_bits.py says why).
GIT_ARGS = ("-c", "core.fsmonitor=false", "-c", "core.ignoreStat=false",
            "-c", "core.trustctime=true", "-c", "core.checkStat=default",
            "-c", "core.sparseCheckout=false")
STATUS_ARGS = (*GIT_ARGS, "-c", "core.untrackedCache=true", "status", "--porcelain=v2", "-z",
               "--untracked-files=normal", "--no-renames", "--ignore-submodules=dirty")
LITERAL = {"GIT_LITERAL_PATHSPECS": "1", "GIT_GLOB_PATHSPECS": "0",
           "GIT_NOGLOB_PATHSPECS": "0", "GIT_ICASE_PATHSPECS": "0"}


def begin_scan(root: str | Path, env: dict[str, str],
               keep_fds: tuple[int, ...]) -> Callable[[], list[bytes] | None]:
    """Start `changed_paths` over the whole work tree; the returned waiter gives its answer.
    The git process runs beside this thread (no Python thread waits on it)."""
    try:
        scan = spawn_git(STATUS_ARGS, cwd=str(root), env=env, keep_fds=keep_fds)
    except OSError:  # no git to start: changed_paths reports it as every git call does
        from pathlib import Path

        return lambda: changed_paths(Path(root), env, keep_fds)
    return lambda: parse_status(scan.wait().stdout)


def changed_paths(root: Path, env: dict[str, str], keep_fds: tuple[int, ...],
                  limit: list[bytes] | None = None) -> list[bytes] | None:
    """Work-tree paths `git add -A` would change in the index `env` names (raw bytes; an
    untracked directory as its path without the slash); None: walk the whole work tree.
    `limit`: look at these paths (literal pathspecs, each with its subtree) and no other:
    the ones a watcher reports (`state_watch.py`)."""
    if limit is None:
        out = run_git(STATUS_ARGS, cwd=root, env=env, keep_fds=keep_fds).stdout
    else:
        pathspecs = [path.decode("utf-8", "surrogateescape") for path in limit]
        out = run_git([*STATUS_ARGS, "--", *pathspecs], cwd=root, env={**env, **LITERAL},
                      keep_fds=keep_fds).stdout
    return parse_status(out)


def parse_status(out: bytes) -> list[bytes] | None:
    """The paths of `git status --porcelain=v2 -z` entries whose work-tree side differs;
    None for an entry a kept index should not hold (unmerged: the last `git add -A`
    resolved them; renames: not asked for) or one this parser does not know."""
    paths: list[bytes] = []
    for record in out.split(b"\0"):
        kind = record[:1]
        if not record or kind == b"#":
            continue
        if kind == b"?":
            paths.append(record[2:].rstrip(b"/"))
        elif kind == b"1" and len(record) > 4:
            if record[3:4] != b".":
                paths.append(record.split(b" ", 8)[8])
        else:
            return None
    return paths


def add_paths(root: Path, env: dict[str, str], keep_fds: tuple[int, ...],
              paths: list[bytes]) -> None:
    """`git add -A` limited to `paths`, each taken literally (no pathspec magic)."""
    run_git([*GIT_ARGS, "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], cwd=root,
            env={**env, **LITERAL}, keep_fds=keep_fds, stdin=b"\0".join(paths) + b"\0")
