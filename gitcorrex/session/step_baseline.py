"""Where a step's writes begin: the `baseline` its latest `step_started` recorded (the state
the last settlement left, or an operator adopted), which every settlement of the step
diffs against, with or without a build claim."""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.errors import TransitionRefusedError
from gitcorrex.git import Repository
from gitcorrex.model.event_order import session_order
from gitcorrex.model.events import session_object_oid
from gitcorrex.model.note_lines import typed_events
from gitcorrex.model.session_events import StepStartedFields


def step_baseline(repo: Repository, session: str, step: str) -> str:
    """The baseline of `step`'s latest start; refused (exit 1) when it never started."""
    entries = ledger.read_subject(repo, session_object_oid(session)).entries
    starts = sorted((e for e in entries if e.session == session and e.step == step),
                    key=session_order)
    for typed in reversed(typed_events(starts, (StepStartedFields,))):
        if isinstance(typed.payload, StepStartedFields):
            return typed.payload.baseline
    raise TransitionRefusedError(f"step {step} of session {session} has no recorded start "
                                 "to judge its writes against",
                                 hint="read `git correx session status`")
