"""A commit's verifications in the Markdown report: one line per expectation (and, apart,
per expectation run under another profile than the tree's), every observation counted.

The line shows the newest verdict; when that is a reuse, the run it cites (the only one
that ran anything), with its reuses folded in ("reused ×6 by …"); "latest of N runs"
counts runs, never reuses; a flaky marker says when the same profile and environment both
failed and passed (observation_runs.py). A line whose fields do not fit is always listed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gitcorrex.model.environment_key import environment_digest
from gitcorrex.model.event_kinds import payload_or_problem
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.observed_pass import is_under
from gitcorrex.model.verification import ReusedTrust, TrustBasis, VerificationFields
from gitcorrex.review.observation_runs import Flaky, Observed, flaky, reuses_of, runs_of

MAX_REUSERS = 5


@dataclass(frozen=True)
class ExpectationLine:
    """What one line of a commit's verifications says (`fields` is the problem text when
    the event does not fit its class)."""

    event: RecordedEvent
    fields: VerificationFields | str
    runs: int = 1  # observations of this expectation that ran their commands
    newest_run: bool = True  # whether the shown run is the newest of them
    reusers: tuple[str, ...] = ()  # who reused the shown run, newest first, one per reuse
    flaky: Flaky | None = None
    cites_missing: str | None = None  # a reuse shown as itself: the run it cites is not here


def expectation_lines(verifications: list[RecordedEvent], profile: str | None,
                      label: dict[str, str]) -> list[ExpectationLine]:
    """One line per expectation (newest first in `verifications`), under the tree's
    `profile` and, apart, under any other. `label` maps an event id to who recorded it."""
    groups: dict[str, list[tuple[RecordedEvent, VerificationFields]]] = {}
    lines: dict[str, ExpectationLine] = {}
    for event in verifications:
        payload, problem = payload_or_problem(event)
        if not isinstance(payload, VerificationFields):
            lines[f"\0{event.id}"] = ExpectationLine(event, str(problem))
            continue
        key = payload.expectation + ("" if is_under(payload, profile) else "\0other")
        lines.setdefault(key, ExpectationLine(event, payload))  # its place in the order
        groups.setdefault(key, []).append((event, payload))
    for key, group in groups.items():
        lines[key] = _folded(group, trusted=not key.endswith("\0other"), label=label)
    return list(lines.values())


def _folded(group: list[tuple[RecordedEvent, VerificationFields]], *, trusted: bool,
            label: dict[str, str]) -> ExpectationLine:
    """The newest observation, resolved to the run it cites, with its reuses and flakiness
    (only under the tree's own profile: another profile's commands are another claim)."""
    observed = [Observed(event.id, fields, environment_digest(event)) for event, fields in group]
    shown_event, shown_fields = group[0]
    cited = shown_fields.reused_from
    original = next(((e, f) for e, f in group if e.id == cited), None) if cited else None
    if original is not None:
        shown_event, shown_fields = original
    trusts = {event.id: fields.reused_trust for event, fields in group if fields.reused_trust}
    reusers = tuple(_reuser(label[o.id], trusts.get(o.id))
                    for o in reuses_of(shown_event.id, observed))
    runs = runs_of(observed)
    newest = bool(runs) and runs[0].id == shown_event.id
    return ExpectationLine(shown_event, shown_fields, len(runs), newest, reusers,
                           flaky(observed) if trusted else None,
                           shown_fields.reused_from if original is None else None)


def _reuser(who: str, trust: ReusedTrust | None) -> str:
    """Who reused the run and how the pass was trusted there (`ada@x in its own clone`,
    `bob@y, signed by ci@z`): a reviewer's question about every reuse; `show` gives the
    whole of it (review/describe.py)."""
    if trust is None:
        return who
    if trust.basis is TrustBasis.OWN:
        return f"{who} in its own clone"
    return f"{who}, signed by {trust.signer}"


def reused_text(reusers: tuple[str, ...]) -> str:
    """`reused ×6 by ada@x (×4), bob@y (×2)`: who reused the run, most first."""
    counts: dict[str, int] = {}
    for who in reusers:
        counts[who] = counts.get(who, 0) + 1
    named = sorted(counts.items(), key=lambda item: -item[1])
    shown = [who if n == 1 or len(counts) == 1 else f"{who} (×{n})"
             for who, n in named[:MAX_REUSERS]]
    more = f" and {len(named) - MAX_REUSERS} more" if len(named) > MAX_REUSERS else ""
    return f"reused ×{len(reusers)} by {', '.join(shown)}{more}"


def earlier_text(line: ExpectationLine) -> Iterator[str]:
    """The notes after a verification line: reuses, earlier runs, flakiness."""
    if line.cites_missing is not None:
        yield f"a reuse of {line.cites_missing[:12]}, a run not recorded on this tree"
    if line.reusers:
        yield reused_text(line.reusers)
    if line.runs > 1:
        yield f"latest of {line.runs} runs" if line.newest_run else f"{line.runs} runs in all"
    if line.flaky is not None:
        yield f"⚠ {line.flaky.describe()}"
