"""`git correx sync [REMOTE]`: fetch every ledger ref, unite, publish to this clone's own ref.

Each round: one fetch of the remote's shared ref and every writer ref (git/notes_transfer.py),
one union of all of them into the local ledger (sync/unite.py, compare-and-swap), then — when
the remote lacks something the local ledger holds — one push of the local tip to this clone's
writer ref (`<ref>-writers/<id>`, sync/writer.py), which no other clone updates, so it is not
contended, and, in the same push, to the shared ref when that is a fast-forward of what was
fetched: an opportunistic update that keeps the shared ref close for clones of older versions,
which read only it. Losing that race costs nothing — the lines are on the writer ref. A new
round starts only when the local ledger moved under the merge, the writer ref was moved by
a clone sharing this id, or the connection broke (a server at capacity resets or stalls
connections; git dies of SIGPIPE writing into a closed one); rounds are bounded, with
exponential backoff and full jitter, and a connection broken in every round is one line, exit 3.
`compact=True` runs sync/compact.py's step instead of publishing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gitcorrex import git
from gitcorrex.errors import UnavailableError
from gitcorrex.git import (
    RefUpdate,
    RemoteLedgers,
    Repository,
    TransientTransportError,
    fetch_ledgers,
    is_ancestor,
    require_ledger_format,
    tracking_ref,
    tree_of,
)
from gitcorrex.sync.compact import compact_step
from gitcorrex.sync.result import SyncResult
from gitcorrex.sync.round import Round
from gitcorrex.sync.unite import unite_tips
from gitcorrex.sync.writer import writer_id

DEFAULT_ROUNDS = 10


def sync_ledger(
    repo: Repository,
    *,
    remote: str,
    compact: bool = False,
    max_rounds: int = DEFAULT_ROUNDS,
    pause: Callable[[float], None] = time.sleep,
) -> SyncResult:
    """Make the local ledger hold every remote ledger ref's lines and publish its own;
    see the module doc. Exhausted rounds raise UnavailableError (exit 3)."""
    require_ledger_format(repo)  # a format libgit2 cannot merge is refused before any fetch
    ref = git.ledger_ref(repo)
    work = Round(repo, remote, ref, tracking_ref(repo, remote, ref), writer_id(repo))
    for number in range(1, max_rounds + 1):
        work.rounds = number
        try:
            result = _round(work, compact=compact)
        except TransientTransportError as exc:
            work.transport_errors.append(exc.reason)
            if number == max_rounds:
                raise _broken(work) from exc
            result = None
        if result is not None:
            return result
        pause(backoff(number))
    raise UnavailableError(
        f"sync with {remote}: lost {len(work.lost_races)} race(s) in {max_rounds} rounds "
        f"(last: {work.lost_races[-1] if work.lost_races else 'none'}); the local ledger "
        "holds everything fetched so far",
        hint="run `git correx sync` again; if it keeps happening, give each clone its own "
             "`git config correx.writer`",
    )


def _broken(work: Round) -> UnavailableError:
    """The connection broke in every round: one line with git's last words (exit 3)."""
    return UnavailableError(
        f"sync with {work.remote}: the connection broke in all {work.rounds} rounds "
        f"(last: {work.transport_errors[-1]}); the local ledger holds everything fetched so far",
        hint=f"check that {work.remote} is reachable (`git ls-remote {work.remote}`), then run "
             "`git correx sync` again",
    )


def _round(work: Round, *, compact: bool) -> SyncResult | None:
    """Fetch, unite, publish (or compact) once; the result, or None for another round."""
    repo, ref = work.repo, work.ref
    fetched = fetch_ledgers(repo, work.remote, ref, work.tracking)
    work.refs_fetched = fetched.ref_count
    united = unite_tips(repo, ref, ours=git.ledger_tip(repo, ref), tips=fetched.tips,
                        message=f"git correx: unite ledgers from {work.remote}", settle=compact)
    if united is None:
        work.lost_races.append("the local ledger moved during the merge")
        return None
    if united.conflicts:
        return work.result("conflict", united, fetched.shared)
    work.gained += united.gained
    work.merged = work.merged or united.moved
    done = compact_step(work, united, fetched) if compact else _publish(work, united.tip, fetched)
    if done is None:
        return None
    return work.result(done, united, work.shared_after or fetched.shared)


def _publish(work: Round, tip: str | None, fetched: RemoteLedgers) -> str | None:
    """Push `tip` where it is missing; the outcome, or None when the writer ref lost a race."""
    if tip is None:
        return "up-to-date"
    published = _is_published(work.repo, tip, fetched)
    updates = [] if published else [RefUpdate(work.writer_ref, tip)]
    if fetched.shared != tip and (fetched.shared is None
                                  or is_ancestor(work.repo, fetched.shared, tip)):
        updates.append(RefUpdate(work.ref, tip))  # opportunistic: a lost race costs nothing
    statuses = work.push(updates, strict=[work.writer_ref]) if updates else {}
    if work.ref in statuses and statuses[work.ref].is_accepted:
        work.shared_after = tip
    if published:
        return "pulled" if work.merged else "up-to-date"
    if not statuses[work.writer_ref].is_accepted:
        return None
    return "merged-and-pushed" if work.merged else "pushed"


def _is_published(repo: Repository, tip: str, fetched: RemoteLedgers) -> bool:
    """Whether some remote ref already holds every line of `tip` (it, or the same tree)."""
    if tip in fetched.tips:
        return True
    tree = tree_of(repo, tip)
    return any(tree_of(repo, other) == tree for other in fetched.tips)


def backoff(number: int) -> float:
    """Exponential backoff with full jitter: uniform in [0, 50 ms * 2^round], capped at 1.6 s."""
    return random.uniform(0, 0.05 * 2 ** min(number, 5))

