"""Referenced paths: the existing files and directories a step assumes.

Present only when the state tree records the exact path. A path an earlier step the
step depends on (or the step itself) declares writing is not assumed to exist: it passes
with a note. Otherwise the architect gets the closest real paths: several paths ending
with the reference make it ambiguous; none make it absent. A path inside a submodule is
unknown (the submodule's files are not in this tree) and needs clarification.
"""

from __future__ import annotations

from functools import partial

from gitcorrex.model.grounding import Check, GroundingFinding, Route, Status
from gitcorrex.model.plan import PlanStep
from gitcorrex.plan.grounding.candidates import path_candidates
from gitcorrex.plan.grounding.inputs import GroundingInput, finding
from gitcorrex.plan.grounding.tree_view import parse_path_ref


def check_references(given: GroundingInput) -> list[GroundingFinding]:
    return [_check_reference(given, step, text)
            for step in given.plan.steps for text in step.references]


def _check_reference(given: GroundingInput, step: PlanStep, text: str) -> GroundingFinding:
    ref = parse_path_ref(text)
    view = given.view

    found = partial(finding, Check.PATH, step.id, text)

    if ref.problem is not None:
        return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT,
                     detail=f"not a repository path: {ref.problem}")
    if view.exists(ref.path, directory=ref.directory):
        return found(Status.PRESENT, Route.PASS, paths=[ref.path])
    link = view.submodule_holding(ref.path)
    if link is not None:
        return found(Status.UNKNOWN, Route.CLARIFICATION_REQUIRED,
                     detail=f"inside submodule {link}, whose files are not in this tree")
    provided = provided_by(given, step, ref.path)
    if provided is not None:
        return found(Status.ABSENT, provided[0], detail=provided[1])
    suffixed = view.ending_with(ref.path)
    if len(suffixed) > 1:
        return found(Status.AMBIGUOUS, Route.RETURN_TO_ARCHITECT, candidates=suffixed,
                     detail=f"{len(suffixed)} paths end with it: name one exactly")
    return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT,
                 candidates=path_candidates(view, ref.path))


def provided_by(given: GroundingInput, step: PlanStep, path: str) -> tuple[Route, str] | None:
    """Whether the plan itself creates `path` before `step` relies on it.

    Written by the step or by a step it depends on: pass. Written only by steps it does
    not depend on: return to the architect (the order is not guaranteed). None: nobody
    declares writing it.
    """
    writers = given.writers.get(path, [])
    if not writers:
        return None
    if step.id in writers:
        return Route.PASS, "written by this step"
    before = [w for w in writers if w in set(given.predecessors(step.id))]
    if before:
        return Route.PASS, f"written by step {before[0]}, which this step depends on"
    return (Route.RETURN_TO_ARCHITECT,
            f"written by step {writers[0]}, which this step does not depend on: add the "
            "dependency")
