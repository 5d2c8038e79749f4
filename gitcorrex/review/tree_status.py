"""A tree's verification status: its latest recorded verification under the profile the
reader trusts, or none at all.

Keyed by tree, never by commit: a rebased commit with an identical tree has the same
status. No observation means `none` (unverified), never `pass`. A latest verification
whose fields do not fit its class is `unavailable` and carries the problem instead of an
expectation: nothing half-read passes (or fails). A pass that ran another profile than the
trusted one is `other_profile` (model/observed_pass.py: what a pass is). A tree whose runs of
the deciding expectation both failed and passed under that profile in one environment is
marked flaky (observation_runs.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.environment_key import environment_digest
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import ReadActor, RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry, written_typed
from gitcorrex.model.observed_pass import is_under
from gitcorrex.model.payload_problem import unfit_text
from gitcorrex.model.verification import Result, VerificationFields
from gitcorrex.review.log_lines import MARKS as MARKS  # re-exported
from gitcorrex.review.log_lines import TreeStatus
from gitcorrex.review.observation_runs import Observed, flaky, is_reuse


def tree_status(tree: str, entries: Sequence[LedgerEntry], profile: str | None) -> TreeStatus:
    """The status of one tree under the trusted `profile` (its own `.correx.toml` blob, or
    the base's for the CI gate): the newest verification that ran it — or that does not fit
    its class (unavailable: nothing half-read passes) — decides. Verifications under another
    profile say nothing about this one's commands: only when none ran it is the newest of
    them shown, its pass as `other_profile` (model/observed_pass.py)."""
    foreign: TreeStatus | None = None
    newest_first = sorted(verifications(entries), key=time_order, reverse=True)
    for entry in newest_first:
        typed, writer = written_typed(entry, VerificationFields)  # one parse gives both
        by = writer_label(writer)
        payload = typed.payload
        if not isinstance(payload, VerificationFields):
            return TreeStatus(tree, "unavailable", by=by, at=entry.at, event=entry.id,
                              problem=unfit_text(entry.kind, str(typed.problem)))
        if is_under(payload, profile):
            return _status(tree, entry, payload, by, None,
                           _flaky(newest_first, payload.expectation, profile))
        foreign = foreign or _status(tree, entry, payload, by, payload.profile)
    return foreign or TreeStatus(tree, "none")


def verifications(entries: Sequence[LedgerEntry]) -> list[LedgerEntry]:
    return [entry for entry in entries if entry.kind == VerificationFields.KIND]


def _flaky(newest_first: list[LedgerEntry], expectation: str, profile: str | None
           ) -> str | None:
    """Whether the runs of `expectation` under the trusted `profile` both failed and passed
    in one environment (observation_runs.py), said in one phrase; None when not. The lines
    are parsed whole (for their environment) only when some run failed and another passed."""
    mine = []
    for entry in newest_first:
        payload = written_typed(entry, VerificationFields)[0].payload
        if isinstance(payload, VerificationFields) and payload.expectation == expectation \
                and is_under(payload, profile) and not is_reuse(payload):
            mine.append((entry, payload))
    if not {Result.PASS, Result.FAIL} <= {payload.result for _, payload in mine}:
        return None
    found = flaky(Observed(entry.id, payload, environment_digest(entry.event()))
                  for entry, payload in mine)
    return None if found is None else found.describe()


def _status(tree: str, entry: LedgerEntry, payload: VerificationFields, by: str,
            other: str | None, flaky_text: str | None = None) -> TreeStatus:
    """`other`: the profile it ran when that is not the trusted one; `flaky_text`: what
    makes the verdict a matter of luck, when something does."""
    result = payload.result.value
    if other is not None and payload.result is Result.PASS:
        result = "other_profile"
    return TreeStatus(tree, result, expectation=payload.expectation,
                      reason=None if payload.reason is None else payload.reason.value,
                      by=by, at=entry.at, event=entry.id, profile=other, flaky=flaky_text)


def actor_label(event: RecordedEvent) -> str:
    """Who recorded it, as shown to people: email, else name, else host."""
    return writer_label(event.actor)


def writer_label(actor: ReadActor) -> str:
    """An actor as shown to people: email, else name, else host."""
    return actor.email or actor.name or actor.host
