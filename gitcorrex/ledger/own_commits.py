"""Which ledger commits this clone wrote: what "one's own pass" means for reuse.

The ledger's one writer (`append.py`) adds the id of every notes commit it made here to
`<common dir>/correx/own-ledger-commits`, one id a line, after the ref moved. A line it
wrote is then "own" exactly when the commit that added the line (ledger/signers.py walks to
it) is listed. Nothing else writes the list: a commit received by `sync`, fetched by hand,
or put under the ledger ref by `git update-ref` is never in it, whatever its committer
field or its events' `actor` say (both are whatever the writer's git identity was).

The list lives in the common git dir, so every worktree of a clone shares it, and it never
travels: a fresh clone starts empty. A commit this clone wrote and `sync` brings back is
still listed (its id did not change). Appends are one short `O_APPEND` write, atomic among
concurrent writers on a local file system; a list that cannot be written (a read-only git
dir) only makes an own pass look foreign, so it is run again, never the reverse.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from gitcorrex.git import Repository, local_state_path, open_local_state

OWN_COMMITS = "own-ledger-commits"


def remember_own_commit(repo: Repository, commit: str) -> None:
    """List `commit` as written by this clone (best effort: see the module doc)."""
    try:
        fd = open_local_state(repo, OWN_COMMITS, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        os.write(fd, f"{commit}\n".encode("ascii"))
    except OSError:
        pass
    finally:
        os.close(fd)


def own_commits(repo: Repository, commits: Iterable[str]) -> set[str]:
    """Those of `commits` this clone wrote; an empty set when the list is missing."""
    wanted = {commit for commit in commits if commit}
    if not wanted:
        return set()
    try:
        listed = local_state_path(repo, OWN_COMMITS).read_bytes()
    except OSError:
        return set()
    framed = b"\n" + listed  # searched, not split: it grows by a line per append, and a
    return {commit for commit in wanted  # reuse asks about one or two commits
            if framed.find(b"\n" + commit.encode("ascii") + b"\n") != -1}
