"""What the model reads when a call is blocked: what, why, and what to do instead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gitcorrex.agents.request import Event, HookRequest
from gitcorrex.model.repo_paths import printable_path

if TYPE_CHECKING:
    from gitcorrex.errors import CorrexError
    from gitcorrex.manifest.assess import AssessOutcome
    from gitcorrex.manifest.check import Violation

RESTORE_FIX = ("undo these changes (`git restore --source=HEAD -- PATH` for a tracked file, "
               "delete a new one), or ask the operator to declare the paths in the "
               "manifest (inside a session: in the step's `writes`, by a re-plan)")


def block_reason(request: HookRequest, outcome: AssessOutcome) -> str:
    """A file call's blocked paths, each with its rule and fix, and any precondition signal.
    After the fact (Cursor's afterFileEdit, a PostToolUse write) nothing was blocked: the
    edit happened, and the words say so."""
    named = ", ".join(printable_path(path) for path in request.paths)
    lines = [_after_fact(request, f"a {request.action} of {named}")
             if request.event == Event.POST_TOOL
             else f"git correx blocked this {request.tool} (a {request.action} of {named}):"]
    for path in outcome.blocked:
        lines.append(f"  {path.rule.value}: {path.path}: {path.detail}")
        lines.append(f"  instead: {path.fix}")
    for signal in outcome.preconditions:
        lines.append(f"  {signal.path} is a build prerequisite ({signal.named_by}) still missing "
                     f"after {signal.attempts} attempts: stop retrying; it must be created by a "
                     "bootstrap step, or the operator must clarify")
    return "\n".join(lines) + "\n"


def shell_reason(request: HookRequest, violations: Sequence[Violation], baseline: str,
                 event: str) -> str:
    """The paths a shell call left changed outside the manifest, and how to put them back."""
    lines = [f"git correx: after this {request.tool}, the workspace has "
             f"{len(violations)} change(s) outside the write manifest (since {baseline[:12]}):"]
    lines += [f"  {violation.describe()}" for violation in violations[:50]]
    if len(violations) > 50:
        lines.append(f"  ... and {len(violations) - 50} more")
    lines.append(f"  instead: {RESTORE_FIX}")
    lines.append(f"  recorded: tool_call_assessed {event[:12]}")
    return "\n".join(lines) + "\n"


def foreign_actor_reason(request: HookRequest, refused: CorrexError) -> str:
    """A call in a step that another runtime actor started: who started it, who is acting."""
    head = f"git correx: this {request.tool} already ran, outside the manifest" \
        if request.event == Event.POST_TOOL else f"git correx blocked this {request.tool}"
    return f"{head}: {refused.message}\n  instead: {refused.hint}\n"


def _after_fact(request: HookRequest, what: str) -> str:
    return (f"git correx: this {request.tool} ({what}) already happened, outside the manifest "
            "(recorded; nothing was blocked, so undo it):")
