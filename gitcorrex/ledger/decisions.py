"""Operator decisions that count (layer 3 of keeping them out of an agent's reach).

With `git config correx.requireSignedDecisions true`, an event that records a decision
reserved to people (`model/operator_commands.py`: an authorization, an audit, a route, a
resume, a clarification, a lock's `baseline_unverified`, ...) counts only when the ledger
commit that added its line carries a signature git verifies as good by a key it trusts —
`gpg.ssh.allowedSignersFile`, or a trusted OpenPGP key — exactly as `check --require-signed`
counts passes (ledger/signers.py). Every other decision is reported by the readers that
would have used it, and not counted. Off (the default), every decision counts as recorded.

Every reader of decisions asks here: plan validation and the authorize, audit and route
commands (plan/), a lock's validation, a session's fold (resume, clarify, the unverified
baseline: session/state.py) and step start's split routes. Replay does not: it folds what
was recorded, whoever signed it, and reads no configuration.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from gitcorrex.git import DECISIONS_CONFIG, Repository, are_signed_decisions_required
from gitcorrex.ledger.signers import Signer, event_signers
from gitcorrex.model.note_lines import LedgerEntry
from gitcorrex.model.operator_commands import DECISION_FIELDS


@dataclass(frozen=True)
class UncountedDecision:
    """A recorded decision that does not count, and the signature state that says why."""

    event: str
    kind: str
    signer: Signer

    def describe(self) -> str:
        """One line: the event, its ledger commit, what is wrong with it."""
        where = f"ledger commit {self.signer.commit[:12]}, which {self.signer.why()}" \
            if self.signer.commit else "a ledger commit that cannot be found (fetch the " \
                                       "whole ledger)"
        return f"{self.kind} {self.event[:12]} does not count ({DECISIONS_CONFIG}): it was " \
               f"added by {where}"

    def as_dict(self) -> dict[str, object]:
        return {"event": self.event, "kind": self.kind, "signature": self.signer.as_dict()}


def is_decision(entry: LedgerEntry) -> bool:
    """Whether the entry records an operator decision (for a kind whose decision is one
    field, a lock's `baseline_unverified`: whether that field is set)."""
    if entry.kind not in DECISION_FIELDS:
        return False
    name = DECISION_FIELDS[entry.kind]
    if name is None:
        return True
    try:
        return bool(json.loads(entry.line).get(name))
    except (ValueError, AttributeError):
        return True  # unreadable: treat as a decision (its reader refuses it anyway)


def uncounted_decisions(repo: Repository, tip: str | None, subject: str,
                        entries: Sequence[LedgerEntry]) -> dict[str, UncountedDecision]:
    """event id → why it does not count, for the decisions among `entries` (`subject`'s
    note at ledger `tip`); {} when signed decisions are not required, or all are signed."""
    if not are_signed_decisions_required(repo):
        return {}
    decisions = [entry for entry in entries if is_decision(entry)]
    if not decisions:
        return {}
    signers = event_signers(repo, tip, subject, [entry.id for entry in decisions])
    unsigned = Signer(None, "unverifiable", None, None)  # no ledger tip: nothing vouches
    return {entry.id: UncountedDecision(entry.id, entry.kind, signers.get(entry.id, unsigned))
            for entry in decisions if signers.get(entry.id, unsigned).state != "verified"}


def counted(entries: Sequence[LedgerEntry],
            uncounted: dict[str, UncountedDecision]) -> list[LedgerEntry]:
    """`entries` without the events that are only an uncounted decision (an event that
    records more, a lock, stays: its reader drops the decision field)."""
    return [entry for entry in entries
            if entry.id not in uncounted or DECISION_FIELDS.get(entry.kind) is not None]
