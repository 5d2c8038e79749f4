"""`verify --reuse`: an earlier pass counts only for the same tree, the same commands and
the same profile (the one this run would use: the tree's own, or REV's with
`--profile-from`; model/observed_pass.py), from a writer this clone trusts (its own, or
signed by an allowed signer: verify/reuse_trust.py), and reusing it records a new
observation citing the run that actually happened and how its writer was trusted.

Reading earlier events needs the event models; they load only when `--reuse` is asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gitcorrex import ledger
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.observed_pass import is_pass_under
from gitcorrex.model.record import EventPayload
from gitcorrex.model.verification import Result, VerificationFields
from gitcorrex.verify.observation import Observation
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.reuse_trust import ReuseTrust
from gitcorrex.verify.run_commands import ResolvedCommand


class Reuse(NamedTuple):
    """A recorded citation (`outcome`), or None and why the passes found were not trusted
    (`declined`: one line each, for the run's summary)."""

    outcome: VerifyOutcome | None
    declined: tuple[str, ...] = ()


def reuse_pass(obs: Observation, state_key: str, setup_line: str | None) -> Reuse:
    """Record a citation of an earlier pass of `state_key` with exactly our commands from a
    trusted writer; nothing recorded when there is none."""
    found = ledger.read_subject(obs.repo, state_key)
    trust = ReuseTrust(obs.repo, tip=found.tip, subject=state_key)
    cited = find_reusable_pass(found.events, state_key=state_key, trust=trust,
                               commands=obs.profile.selection.commands,
                               profile=obs.profile.profile)
    if cited is None:
        return Reuse(None, tuple(judged.refusal() for judged in trust.refused()))
    trusted = trust.judge(cited).record()
    known = payload_of(cited)  # a newer writer's keys left out: only what this version knows
    fields = known.model_dump() if isinstance(known, VerificationFields) else {}
    changed, omitted = obs.changed_since_baseline(state_key)
    fields.update(expectation=obs.expectation, reused_from=original_of(cited),
                  writes=list(obs.profile.selection.writes), isolated=obs.isolated,
                  profile=obs.profile.profile, profile_from=obs.profile.profile_from,
                  head_tree=obs.head_tree, reused_trust=trusted,
                  changed_paths=changed, changed_paths_omitted=omitted)
    typed = VerificationFields.model_validate(fields)
    line = obs.append(typed.KIND, typed.line_fields(), state_key, {})
    summary = f"pass (reused {original_of(cited)[:12]}): {obs.expectation} on " \
              f"{state_key[:12]}; reused the {trusted.describe()}"
    return Reuse(VerifyOutcome(obs.expectation, state_key, line, setup_line, Result.PASS,
                               summary))


def find_reusable_pass(events: Iterable[RecordedEvent], *, state_key: str,
                       commands: Sequence[ResolvedCommand], profile: str | None,
                       trust: ReuseTrust) -> RecordedEvent | None:
    """The newest pass on `state_key` under `profile` whose command digests equal ours, in
    order, from a writer `trust` trusts; or None."""
    wanted = [command.digest for command in commands]
    candidates = [
        event for event in events
        if event.kind == VerificationFields.KIND and event.state_key == state_key
        and _is_pass_of(payload_of(event), wanted, profile)
    ]
    return trust.newest_trusted(candidates)


def original_of(event: RecordedEvent) -> str:
    """Cite the observation that actually ran, not another reuse of it."""
    payload = payload_of(event)
    if isinstance(payload, VerificationFields) and payload.reused_from is not None:
        return payload.reused_from
    return event.id


def _is_pass_of(payload: EventPayload | None, wanted: list[str], profile: str | None) -> bool:
    """A readable pass under `profile` of exactly these commands (a line that does not fit
    is no pass)."""
    return isinstance(payload, VerificationFields) and is_pass_under(payload, profile) \
        and [command.digest for command in payload.commands] == wanted
