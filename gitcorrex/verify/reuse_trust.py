"""Whose pass may save a run here: the writer-trust binding of `verify --reuse` and the
Stop gate's ledger-first allow (DESIGN §7).

A pass this clone recorded — its line added by a ledger commit this clone's writer made
(ledger/own_commits.py) — is reused as it always was. Any other writer's pass (a CI
runner's or a colleague's, arrived by `sync`, or put under the ledger ref by any other
means) is reused only when the ledger commit that added its line carries a good signature
by a key in the allowed signers (`correx.trustedSigners`, else `gpg.ssh.allowedSignersFile`,
or a trusted OpenPGP key): the same door (ledger/signers.py) through which `check
--require-signed` counts passes and signed decisions count. An unsigned pass, one signed by
a key not listed, a signature git cannot check, or a pass whose ledger history is cut
saves no one a run: the caller runs the commands and says why.

This is the answer to remote build caches trusted blindly: Nx's shared cache let any
writer poison every reader (CVE-2025-36852, "CREEP"), and Turborepo signs its artifacts so
a reader can refuse unsigned ones. The committer field and the event's `actor` are never
evidence of anything: any writer sets them.

Own passes cost one walk to the commit that added the line and no process; a signature is
checked (one `git log`) only for a pass that is not own, newest first, until one is trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gitcorrex.git import Repository
from gitcorrex.ledger.own_commits import own_commits
from gitcorrex.ledger.signers import Signer, adding_commits, commit_signers
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.printable import printable
from gitcorrex.model.verification import ReusedTrust, TrustBasis

_BOUND = 256  # writer, host and signer are outside text


@dataclass(frozen=True)
class TrustJudgement:
    """One pass, the ledger commit that added it (None: it cannot be traced), and either
    that this clone wrote it (`own`) or git's verdict on that commit's signature."""

    event: RecordedEvent
    commit: str | None
    own: bool
    signer: Signer | None = None

    @property
    def trusted(self) -> bool:
        return self.own or (self.signer is not None and self.signer.state == "verified")

    def record(self) -> ReusedTrust:
        """What a reuse records about the pass it cites (`reused_trust`)."""
        verified = None if self.own else self.signer
        return ReusedTrust(
            basis=TrustBasis.OWN if self.own else TrustBasis.SIGNED,
            writer=_writer(self.event), host=_host(self.event),
            ledger_commit=self.commit,
            signer=(verified.signer or "")[:_BOUND] if verified is not None else None,
            key=verified.key if verified is not None else None)

    def refusal(self) -> str:
        """Why this pass saves no run: `pass 1a2b… by W on H not trusted: …`."""
        why = self.signer.why() if self.signer is not None else "is unsigned"
        where = f"its ledger commit {self.commit[:12]} {why}" if self.commit else \
            "it cannot be traced to the ledger commit that added it (fetch the whole ledger)"
        return f"pass {self.event.id[:12]} by {_writer(self.event)} on " \
               f"{_host(self.event)} not trusted: another writer's pass is " \
               f"reused only when signed by an allowed signer, and {where}"


class ReuseTrust:
    """The trust of the passes on one subject's note at one ledger tip, judged lazily
    (newest first) and kept, so a caller can say why the passes it skipped were skipped."""

    def __init__(self, repo: Repository, *, tip: str | None, subject: str) -> None:
        self._repo, self._tip, self._subject = repo, tip, subject
        self._judged: dict[str, TrustJudgement] = {}

    def newest_trusted(self, candidates: Sequence[RecordedEvent]) -> RecordedEvent | None:
        """The newest of `candidates` this clone may reuse; None when none is."""
        for event in sorted(candidates, key=time_order, reverse=True):
            if self.judge(event).trusted:
                return event
        return None

    def judge(self, event: RecordedEvent) -> TrustJudgement:
        """Own (no signature asked), else git's verdict on the adding commit's signature."""
        if event.id not in self._judged:
            commit = adding_commits(self._repo, self._tip, self._subject, [event.id])
            found = commit.get(event.id)
            if found is not None and own_commits(self._repo, [found]):
                self._judged[event.id] = TrustJudgement(event, found, own=True)
            else:
                signer = commit_signers(self._repo, {event.id: found})[event.id]
                self._judged[event.id] = TrustJudgement(event, found, False, signer)
        return self._judged[event.id]

    def refused(self) -> list[TrustJudgement]:
        """The passes judged and not trusted, in the order they were judged (newest first)."""
        return [judged for judged in self._judged.values() if not judged.trusted]


def _writer(event: RecordedEvent) -> str:
    """Who the pass says wrote it, on one line: any writer sets its own name, so a newline
    in it must not start a line of ours (`printable`)."""
    actor = event.actor
    who = f"{actor.name} <{actor.email}>" if actor.name and actor.email \
        else actor.email or actor.name or "an unnamed writer"
    return printable(who[:_BOUND])


def _host(event: RecordedEvent) -> str:
    return printable(event.actor.host[:_BOUND])
