"""What the private index must not inherit: index bits and settings that hide an edit.

git trusts its index. Any of these makes `git add -A && git write-tree` record the index's
bytes while the commands read other bytes from the work tree:

- **assume-unchanged** (`git update-index --assume-unchanged`, or set by git itself on each
  entry it adds under `core.ignoreStat`): git never looks at the file again;
- **fsmonitor-valid** and `core.fsmonitor`: git asks a hook what changed, and believes it;
- `core.trustctime=false`, `core.checkStat=minimal`: an edit of the same size whose mtime
  is put back looks unchanged;
- **skip-worktree** (sparse checkouts, `git update-index --skip-worktree`): git neither
  looks at the file nor adds it; and in a sparse checkout `git add -A` skips every tracked
  file outside the cone, whatever its bytes.

So (1) every git process that refreshes or adds to a private index runs with `GIT_ARGS`
(state_scan.py):
no file-system monitor, no ignoreStat, full stat checks, no sparse rules (skip-worktree
entries are still left alone, but a tracked file outside the cone is an ordinary file);
(2) when a private index is made from the user's (`state_index_seed.py`), its
assume-unchanged bits are not carried and its skip-worktree entries are noted as *probes*: the
top-most directory holding only skip-worktree entries, else the file itself; (3) each key
lstat()s the probes (`refuse_present_skipped`) — in a sparse checkout, the few directories
outside the cone, absent. A skip-worktree path whose file exists with other bytes than its
entry is refused (exit 3) naming it: the commands can read it. An absent one stays as git
records it, one with the same bytes is keyed as it is.
"""

from __future__ import annotations

import os
from pathlib import Path

from gitcorrex.errors import UnavailableError
from gitcorrex.git import owned_files
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.state_scan import GIT_ARGS, LITERAL, parse_status

TEMP_INDEX_PREFIX = "correx-index-"  # every scratch index a run owns (owned_files.py)
SKIPPED = (b"S", b"s")


def skip_probes(records: list[tuple[bytes, bytes]]) -> list[str]:
    """For each skip-worktree path, its top-most directory that holds no other entry, or
    the path itself: absent probes mean absent files, at one lstat() each."""
    occupied: set[bytes] = set()
    for tag, path in records:
        if tag not in SKIPPED:
            slash = path.rfind(b"/")
            while slash > 0 and path[:slash] not in occupied:
                occupied.add(path[:slash])
                slash = path.rfind(b"/", 0, slash)
    probes: set[bytes] = set()
    for tag, path in records:
        if tag in SKIPPED:
            slash = path.find(b"/")
            while slash > 0 and path[:slash] in occupied:
                slash = path.find(b"/", slash + 1)
            probes.add(path[:slash] if slash > 0 else path)
    return sorted(decode_path(probe) for probe in probes)


def refuse_present_skipped(root: Path, index: str, keep_fds: tuple[int, ...],
                           probes: list[str], scratch_dir: Path) -> None:
    """Raise when a skip-worktree path exists with other bytes than its entry."""
    present = [probe for probe in probes if os.path.lexists(root / probe)]
    if not present:
        return
    out = run_git([*GIT_ARGS, "ls-files", "-v", "-s", "-z", "--", *present], cwd=root,
                  env={"GIT_INDEX_FILE": index, **LITERAL}, keep_fds=keep_fds).stdout
    entries = [record[2:] for record in out.split(b"\0") if record[:1] in SKIPPED
               and os.path.lexists(root / decode_path(record.split(b"\t", 1)[-1]))]
    differing = _differing(root, entries, scratch_dir) if entries else []
    if differing:
        more = f" (and {len(differing) - 1} more)" if len(differing) > 1 else ""
        raise UnavailableError(
            f"cannot compute the state key: {differing[0]}{more} is marked skip-worktree in "
            f"the index, yet the work tree holds other bytes than its entry; the commands "
            f"would read bytes the key does not record",
            hint=f"track it again (`git update-index --no-skip-worktree -- {differing[0]}`), "
                 "or remove it (a sparse checkout: `git sparse-checkout reapply`), then retry")


def _differing(root: Path, entries: list[bytes], scratch_dir: Path) -> list[str]:
    """The paths of `entries` (`ls-files -s` lines) whose files differ from them, by git's
    own comparison (filters, modes, symlinks): a scratch index of just those entries, with
    no stat data, so git hashes every one of them."""
    scratch = owned_files.reserve(scratch_dir, TEMP_INDEX_PREFIX)
    paths = [decode_path(entry.split(b"\t", 1)[1]) for entry in entries]
    try:
        os.unlink(scratch)  # git makes the index; it refuses an empty file
        env = {"GIT_INDEX_FILE": scratch, **LITERAL}
        run_git(["update-index", "-z", "--index-info"], cwd=root, env=env,
                stdin=b"\0".join(entries) + b"\0")
        out = run_git([*GIT_ARGS, "status", "--porcelain=v2", "-z", "--untracked-files=no",
                       "--no-renames", "--ignore-submodules=dirty", "--", *paths],
                      cwd=root, env=env).stdout
    finally:
        owned_files.remove(scratch)
    changed = parse_status(out)
    return paths if changed is None else sorted(decode_path(path) for path in changed)
