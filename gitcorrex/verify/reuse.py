"""`verify --reuse`: an earlier pass counts only for the same tree, the same commands, the
same profile (the one this run would use: the tree's own, or REV's with `--profile-from`;
model/observed_pass.py) and the same environment (an equal fingerprint digest:
model/environment.py), from a writer this clone trusts (its own, or signed by an allowed
signer: verify/reuse_trust.py); reusing it records a new observation citing the run that
actually happened and how its writer was trusted.

`reuse_refusal` is the one rule for what a pass says about itself, asked of every
candidate by `find_reusable_pass` (verify, a session's settlement through verify, the agent
Stop gate) and by `git correx explain`, which shows its answer for every observation; the
trust of the writer is asked of what passes it, newest first. A pass recorded before
fingerprints has no environment: nothing says where it ran, so it is never reused.

Reading earlier events needs the event models; they load only when `--reuse` is asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from gitcorrex import ledger
from gitcorrex.model.environment import EnvironmentPrint, differences
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.observed_pass import is_pass_under, is_under
from gitcorrex.model.verification import Result, VerificationFields
from gitcorrex.verify.observation import Observation
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.reuse_trust import ReuseTrust
from gitcorrex.verify.run_commands import ResolvedCommand


class Reuse(NamedTuple):
    """A recorded citation (`outcome`), or None and why the passes found were not reused
    (`declined`: one line each, for the run's summary: the newest pass of this tree and
    commands refused for its environment, passes refused for their writer)."""

    outcome: VerifyOutcome | None
    declined: tuple[str, ...] = ()


def reuse_pass(obs: Observation, state_key: str, setup_line: str | None, *,
               env: Mapping[str, str]) -> Reuse:
    """Record a citation of an earlier pass of `state_key` with exactly our commands, in
    this environment, from a trusted writer; else nothing recorded, and why not."""
    here = obs.environment(env, state_key)
    found = ledger.read_subject(obs.repo, state_key)
    trust = ReuseTrust(obs.repo, tip=found.tip, subject=state_key)
    wanted: dict[str, Any] = dict(state_key=state_key, commands=obs.profile.selection.commands,
                                  profile=obs.profile.profile, environment=here)
    cited = find_reusable_pass(found.events, trust=trust, **wanted)
    if cited is None:
        nearest = nearest_refusal(found.events, **wanted)
        return Reuse(None, (*([nearest] if nearest else []),
                            *(f"not reused: {judged.refusal()}" for judged in trust.refused())))
    trusted = trust.judge(cited).record()
    known = payload_of(cited)  # a newer writer's keys left out: only what this version knows
    fields = known.model_dump() if isinstance(known, VerificationFields) else {}
    changed, omitted = obs.changed_since_baseline(state_key)
    fields.update(expectation=obs.expectation, reused_from=original_of(cited),
                  writes=list(obs.profile.selection.writes), isolated=obs.isolated,
                  profile=obs.profile.profile, profile_from=obs.profile.profile_from,
                  head_tree=obs.head_tree, environment=here, reused_trust=trusted,
                  changed_paths=changed, changed_paths_omitted=omitted)
    typed = VerificationFields.model_validate(fields)
    line = obs.append(typed.KIND, typed.line_fields(), state_key, {})
    summary = f"pass (reused {original_of(cited)[:12]}): {obs.expectation} on " \
              f"{state_key[:12]}; reused the {trusted.describe()}"
    return Reuse(VerifyOutcome(obs.expectation, state_key, line, setup_line, Result.PASS,
                               summary))


def find_reusable_pass(events: Iterable[RecordedEvent], *, state_key: str,
                       commands: Sequence[ResolvedCommand], profile: str | None,
                       environment: Mapping[str, Any],
                       trust: ReuseTrust) -> RecordedEvent | None:
    """The newest pass on `state_key` under `profile` whose command digests equal ours, in
    order, recorded in an environment whose fingerprint digest is `environment`'s, from a
    writer `trust` trusts; or None."""
    candidates = [
        event for event in events
        if reuse_refusal(event, state_key=state_key, commands=commands, profile=profile,
                         environment=environment) is None
    ]
    return trust.newest_trusted(candidates)


def reuse_refusal(event: RecordedEvent, *, state_key: str,
                  commands: Sequence[ResolvedCommand], profile: str | None,
                  environment: Mapping[str, Any]) -> str | None:
    """None when what `event` says of itself lets it be reused here; else why not, in
    words (who wrote it is `ReuseTrust`'s question)."""
    if event.kind != VerificationFields.KIND:
        return f"not a verification ({event.kind})"
    payload = payload_of(event)
    if not isinstance(payload, VerificationFields):
        return "its fields do not fit this version's verification record"
    if event.state_key != state_key:
        return f"another tree ({(event.state_key or '?')[:12]})"
    if not is_under(payload, profile):
        return f"it ran another profile ({payload.profile[:12]}, here {(profile or 'none')[:12]})"
    if not is_pass_under(payload, profile):  # the one definition of a pass
        return f"it did not pass ({payload.result.value})"
    if [c.digest for c in payload.commands] != [c.digest for c in commands]:
        return "it ran other commands than this selection"
    if payload.environment is None:
        return "it was recorded without an environment fingerprint (before fingerprints)"
    if payload.environment.digest != environment.get("digest"):
        here = EnvironmentPrint.model_validate(environment)
        return "another environment: " + "; ".join(differences(payload.environment, here))
    return None


def nearest_refusal(events: Iterable[RecordedEvent], **wanted: Any) -> str:
    """Why the newest pass of this tree, profile and commands was not reused ("" when there
    is none, or when its own record allows it): its environment differs, or it has none."""
    passes = [event for event in events
              if _is_pass_of_tree(event, wanted["state_key"], wanted["profile"],
                                  wanted["commands"])]
    newest = max(passes, key=time_order, default=None)
    if newest is None:
        return ""
    why = reuse_refusal(newest, **wanted)
    return f"pass {original_of(newest)[:12]} not reused: {why}" if why else ""


def original_of(event: RecordedEvent) -> str:
    """Cite the observation that actually ran, not another reuse of it."""
    payload = payload_of(event)
    if isinstance(payload, VerificationFields) and payload.reused_from is not None:
        return payload.reused_from
    return event.id


def _is_pass_of_tree(event: RecordedEvent, state_key: str, profile: str | None,
                     commands: Sequence[ResolvedCommand]) -> bool:
    payload = payload_of(event)
    return isinstance(payload, VerificationFields) and event.state_key == state_key \
        and is_pass_under(payload, profile) \
        and [c.digest for c in payload.commands] == [c.digest for c in commands]
