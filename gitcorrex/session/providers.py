"""Trusted providers: they observe facts for claims, outside the ledger's append loop.

Only `verification` is built in. Its facts are those of the session's latest recorded
observation of the current state key: `result`, and the `exit_code` and `stop_reason` of
the command that ended the run. Raw output is never evidence. There is deliberately no
provider for user authority: a machine observation never grants it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gitcorrex import ledger
from gitcorrex.git.repository import Repository
from gitcorrex.model.session_claims import BlockerClaim, ProviderObservation
from gitcorrex.model.verification import VerificationFields


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
        events = ledger.LedgerView(context.repo, ledger.read_subject(
            context.repo, context.state_key).tip).session_events(context.session)
        mine = [e for e in events if e.kind == VerificationFields.KIND
                and e.state_key == context.state_key]
        if not mine:
            return None
        latest = mine[-1]
        value = _fact(latest.field("result"), latest.field("commands"), claim.fact)
        return ProviderObservation(provider=self.name, version=self.version,
                                   subject=context.state_key, fact=claim.fact, value=value,
                                   observed_at=datetime.fromisoformat(
                                       latest.at.replace("Z", "+00:00")),
                                   source=latest.id)


def _fact(result: object, commands: object, fact: str) -> bool | int | str | None:
    if fact == "result":
        return result if isinstance(result, str) else None
    ran = [c for c in commands if isinstance(c, dict) and c.get("stop_reason") != "skipped"] \
        if isinstance(commands, list) else []
    value = ran[-1].get(fact) if ran else None
    return value if isinstance(value, (bool, int, str)) or value is None else None


BUILT_IN: Mapping[str, Provider] = {VerificationProvider.name: VerificationProvider()}
