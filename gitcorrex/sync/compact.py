"""`sync --compact`: fold every writer ref into the shared ref, then retire what it holds.

Meant for CI or a scheduled job. After the round's union (settled: every writer tip becomes
an ancestor of the local tip), two pushes, in this order:
1. the shared ref, by compare-and-swap (`--force-with-lease=<ref>:<tip fetched>`): if anyone
   moved it since the fetch, nothing changes and a new round starts;
2. each writer ref whose fetched tip the new shared tip descends from is deleted, each with
   its own lease on that fetched tip: a writer that pushed in between keeps its ref (the
   lease fails, recorded as a lost race), and its new lines wait for the next compaction.
At every instant the remote's refs together hold every line: a line leaves a writer ref only
after the shared ref holds it. Old clones, which read only the shared ref, see it all.
"""

from __future__ import annotations

from gitcorrex.git import RefUpdate, RemoteLedgers, tips_missing_from, writers_namespace
from gitcorrex.sync.round import Round
from gitcorrex.sync.unite import United


def compact_step(work: Round, united: United, fetched: RemoteLedgers) -> str | None:
    """One compaction after a settled union; the outcome, or None to start a new round."""
    tip = united.tip
    if tip is None:
        return "up-to-date"
    if fetched.shared != tip:
        update = RefUpdate(work.ref, tip, lease=fetched.shared or "")
        if not work.push([update], strict=[work.ref])[work.ref].is_accepted:
            return None
    work.shared_after = tip
    namespace = writers_namespace(work.ref)
    outside = set(tips_missing_from(work.repo, list(fetched.writers.values()), tip))
    retire = [RefUpdate(namespace + writer, None, lease=held)
              for writer, held in sorted(fetched.writers.items()) if held not in outside]
    if retire:
        statuses = work.push(retire)
        work.retired.extend(update.ref for update in retire
                            if statuses[update.ref].is_accepted)
    return "compacted"

