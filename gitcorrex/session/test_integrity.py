"""Test integrity where sessions are known: the baseline a workspace is judged against,
the settlement's refusal, and `git correx accept-tests`.

The baseline is the session's settled key (the state its last verified step left), else
HEAD's tree: what the change started from. A settlement refuses a step whose state weakened
the tests of its step's baseline, until a person accepts the findings on that exact tree or
the tests are restored; the refusal is one `step_failed` at part `test_integrity`, its
feedback naming each file, test and weakening. Accepting is a person's decision: the
command records who accepted what, and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, compute_state, head_tree, resolve_tree
from gitcorrex.integrity.gate import Integrity, judge_integrity
from gitcorrex.integrity.record import record_acceptance
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.session.selection import selected_session
from gitcorrex.session.settlement_events import Failure
from gitcorrex.session.state import session_state

PART = "test_integrity"


def integrity_baseline(repo: Repository, session: str | None) -> str | None:
    """The session's settled key, else HEAD's tree; None while HEAD is unborn and no
    session names one (nothing to compare with)."""
    chosen = selected_session(repo, session)
    if chosen is not None:
        state = session_state(repo, chosen)
        if state.exists and state.baseline is not None:
            return state.baseline.state_key
    return head_tree(repo)


def weakened_tests(repo: Repository, *, baseline: str, state: str,
                   clock: Callable[[], datetime], provenance: Provenance
                   ) -> tuple[Failure, str] | None:
    """The settlement's refusal (its failure and one summary line) when `state` weakened
    `baseline`'s tests and no person accepted it; None when the tests held."""
    integrity = judge_integrity(repo, baseline=baseline, state=state,
                                record=lambda: provenance, now=clock())
    if integrity.ok:
        return None
    found = integrity.open
    failure = Failure(event=integrity.event_of(found[0]) or state, part=PART, result="fail",
                      reason=None, feedback=integrity.describe(), output_blob=None,
                      rule="test_integrity_weakened",
                      paths=sorted({finding.path for finding in found}))
    summary = f"fail: {len(found)} test weakening(s) ({PART}): " + \
        "; ".join(finding.describe() for finding in found[:3])
    return failure, summary


@dataclass(frozen=True)
class Acceptance:
    """What `accept-tests` found on the current state, and the acceptance it recorded (None
    when there was nothing to accept, or on a dry run)."""

    integrity: Integrity
    event: RecordedEvent | None


def accept_tests(repo: Repository, *, reason: str, base: str | None, session: str | None,
                 dry_run: bool, now: datetime, provenance: Provenance) -> Acceptance:
    """Record that the current git identity accepts every finding of the workspace's state
    against `base` (a revision; default: the session's settled key, else HEAD). Findings an
    earlier acceptance covers are accepted again: a signed acceptance may follow an
    unsigned one."""
    if not reason.strip():
        raise UsageError("an acceptance says why", hint="pass --reason TEXT")
    if provenance.name is None and provenance.email is None:
        raise UsageError("an acceptance is recorded by a git identity, and none is set",
                         hint="set `git config user.name` and `git config user.email`")
    baseline = resolve_tree(repo, base) if base else integrity_baseline(repo, session)
    state = compute_state(repo).state_key
    if baseline is None:
        raise UsageError("HEAD is unborn and no session is selected: nothing to compare with",
                         hint="pass --base REV")
    integrity = judge_integrity(repo, baseline=baseline, state=state,
                                record=None if dry_run else (lambda: provenance), now=now)
    if dry_run or not integrity.scan.findings:
        return Acceptance(integrity, None)
    event = record_acceptance(repo, baseline=baseline, state=state,
                              findings=integrity.scan.findings, reason=reason.strip(),
                              now=now, provenance=provenance)
    return Acceptance(integrity, event)
