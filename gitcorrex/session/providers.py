"""Trusted providers: they observe facts for claims, outside the ledger's append loop.

Only `verification` is built in. Its facts are those of the session's latest recorded
observation of the current state key: `result`, and the `exit_code` and `stop_reason` of
the command that ended the run. Raw output is never evidence. There is deliberately no
provider for user authority: a machine observation never grants it.

Observations are read as `VerificationFields` (only that kind is parsed). One whose fields
do not fit is no observation: the latest readable one answers, or none (the claim stays
unresolved); the line stays in the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.session_claims import BlockerClaim, ProviderObservation
from gitcorrex.model.typed_facts import read_facts
from gitcorrex.model.verification import StopReason, VerificationFields


@dataclass(frozen=True)
class ObserveContext:
    """What a provider may look at: the repository, the session, the state key."""

    repo: Repository
    session: str
    state_key: str


class Provider(Protocol):
    """Observe the claim's fact, or say it cannot (None: the claim stays unresolved)."""

    name: str
    version: str

    def observe(self, context: ObserveContext,
                claim: BlockerClaim) -> ProviderObservation | None: ...


class VerificationProvider:
    """Facts of the session's recorded observation for the current state key."""

    name = "verification"
    version = "1"
    facts = ("result", "exit_code", "stop_reason")

    def observe(self, context: ObserveContext,
                claim: BlockerClaim) -> ProviderObservation | None:
        if claim.fact not in self.facts or claim.subject != context.state_key:
            return None
        entries = ledger.LedgerView.at_tip(context.repo).session_entries(context.session)
        mine = read_facts((e for e in entries if e.state_key == context.state_key),
                          VerificationFields)
        if not mine:
            return None
        latest = mine[-1]
        value = _fact(latest.payload, claim.fact)
        return ProviderObservation(provider=self.name, version=self.version,
                                   subject=context.state_key, fact=claim.fact, value=value,
                                   observed_at=datetime.fromisoformat(
                                       latest.at.replace("Z", "+00:00")),
                                   source=latest.id)


def _fact(observed: VerificationFields, fact: str) -> bool | int | str | None:
    """`result`, or the `exit_code` / `stop_reason` of the last command that ran."""
    if fact == "result":
        return observed.result.value
    ran = [c for c in observed.commands if c.stop_reason is not StopReason.SKIPPED]
    if not ran:
        return None
    return ran[-1].exit_code if fact == "exit_code" else ran[-1].stop_reason.value


BUILT_IN: Mapping[str, Provider] = {VerificationProvider.name: VerificationProvider()}
