"""`git correx gate`: the stage's post-stage gates on the current state tree, in the fixed
order produces → grounding → echo → static analysis, stopping at the first that fails.

Everything that can refuse the request (stage, profile, session id, artifacts the echo
gate needs) is checked before any gate runs or anything is recorded. Each gate that runs
records its fact on the state tree (and the session, with its active step); the echo
gate records only a mismatch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.gates.artifacts import (
    BRIEF,
    RESTATEMENT,
    Artifact,
    check_produces,
    produces_feedback,
    read_artifacts,
)
from gitcorrex.gates.echo import diff_echo
from gitcorrex.gates.echo_record import echo_feedback, echo_fields
from gitcorrex.gates.gate_run import Gates, StageContext, stage_context
from gitcorrex.gates.grounding import ground_artifacts, grounding_feedback
from gitcorrex.gates.outcome import GateOutcome, GateResult
from gitcorrex.gates.static_gate import run_static_gate
from gitcorrex.git import Repository, StateProbe, head_tree
from gitcorrex.model.events import Provenance
from gitcorrex.model.profile import Profile


@dataclass(frozen=True)
class GateRequest:
    """The caller's choices: the stage, the session, and `artifact name → file`; `reuse`
    cites a clean static analysis already recorded for this state key and profile instead
    of running it again (a session's settlement asks for it). `profile` (the profile and its
    blob id) replaces the work tree's: a settlement passes the one its session is locked
    under."""

    stage: str | None
    session: str | None
    artifacts: Mapping[str, Path]
    reuse: bool = False
    profile: tuple[Profile, str] | None = None


def run_gates(repo: Repository, request: GateRequest, *, env: Mapping[str, str],
              clock: Callable[[], datetime], provenance: Provenance,
              probe: StateProbe | None = None) -> GateOutcome:
    """Run the configured gates; a failing gate ends the run (exit 1), never an error.

    `probe` (owned by the caller) may already be keying the work tree (`StateProbe.begin`).
    """
    context = stage_context(repo, request.stage, profile=request.profile)
    if request.session is not None:
        ledger.check_session_id(request.session)
    _check_inputs(context, request.artifacts)
    if repo.work_tree is None:
        tree = head_tree(repo)
        if tree is None:
            raise UsageError("this bare repository has no HEAD tree to gate",
                             hint="push a commit first, or run the gates in a work tree")
        return _run(Gates(repo, context, request.session, tree, clock, provenance),
                    request, env, None)
    unkeyed = Gates(repo, context, request.session, "", clock, provenance)
    if probe is not None:
        return _run_keyed(unkeyed, request, env, probe)
    with StateProbe(repo) as own_probe:
        return _run_keyed(unkeyed, request, env, own_probe)


def _run_keyed(unkeyed: Gates, request: GateRequest, env: Mapping[str, str],
               probe: StateProbe) -> GateOutcome:
    gates = replace(unkeyed, state_key=probe.measure().state_key)
    return _run(gates, request, env, probe)


def _run(gates: Gates, request: GateRequest, env: Mapping[str, str],
         probe: StateProbe | None) -> GateOutcome:
    policy = gates.context.policy
    artifacts = read_artifacts(gates.repo, dict(request.artifacts), list(policy.produces))
    results: list[GateResult] = []
    steps: list[Callable[[], tuple[GateResult, bytes | None]]] = []
    if policy.produces or artifacts:
        steps.append(lambda: _produces(gates, artifacts))
    if policy.ground_references:
        steps.append(lambda: _grounding(gates, artifacts))
    if policy.brief_echo:
        steps.append(lambda: _echo(gates, artifacts))
    if policy.static_analysis:
        steps.append(lambda: run_static_gate(gates, env, probe, reuse=request.reuse))
    for step in steps:
        result, feedback = step()
        results.append(result)
        if not result.passed:
            return GateOutcome(gates.context.stage, gates.state_key, results, feedback)
    return GateOutcome(gates.context.stage, gates.state_key, results)


def _produces(gates: Gates, artifacts: dict[str, Artifact]) -> tuple[GateResult, bytes | None]:
    checked = check_produces(list(gates.context.policy.produces), artifacts)
    anchors = {r.blob: "blob" for r in checked.artifacts if r.blob}
    event = gates.record(checked, anchors)
    names = ", ".join(r.name for r in checked.artifacts) or "none"
    if checked.passed:
        return GateResult("produces", True, f"artifacts supplied: {names}", event), None
    feedback = produces_feedback(checked)
    bad = [r.name for r in checked.artifacts if r.status.value != "supplied"]
    return GateResult("produces", False, f"artifacts not usable: {', '.join(bad)}",
                      event), feedback.encode()


def _grounding(gates: Gates, artifacts: dict[str, Artifact]) -> tuple[GateResult, bytes | None]:
    produces = gates.context.policy.produces
    judged = {name: a for name, a in artifacts.items()
              if (name in produces or not produces) and a.usable}
    checked = ground_artifacts(gates.repo, gates.state_key, judged)
    anchors = {blob: "blob" for blob in checked.artifacts.values()}
    event = gates.record(checked, anchors)
    total = len(checked.references) + checked.references_omitted
    summary = f"{total} file reference(s), {checked.missing} missing"
    if checked.passed:
        return GateResult("grounding", True, summary, event), None
    return GateResult("grounding", False, summary, event), grounding_feedback(checked).encode()


def _echo(gates: Gates, artifacts: dict[str, Artifact]) -> tuple[GateResult, bytes | None]:
    brief, restatement = artifacts[BRIEF], artifacts[RESTATEMENT]
    threshold = gates.context.policy.brief_echo_threshold
    diff = diff_echo(brief.document, restatement.document, Fraction(str(threshold)))
    summary = (f"{diff.requirements} requirement(s), {len(diff.dropped)} dropped, "
               f"{len(diff.hallucinated_files)} unknown file(s), {len(diff.symbols)} new "
               "symbol(s)")
    if not diff.mismatch:
        return GateResult("echo", True, summary), None
    fields = echo_fields(diff, brief, restatement, str(threshold))
    anchors = {fields.brief: "blob", fields.restatement: "blob"}
    event = gates.record(fields, anchors)
    return GateResult("echo", False, summary, event), echo_feedback(fields).encode()


def _check_inputs(context: StageContext, artifacts: Mapping[str, Path]) -> None:
    """Grounding needs an artifact and echo compares two; one neither supplied nor declared
    (so the produces gate cannot report it) is the caller's mistake, not the stage's."""
    policy = context.policy
    if policy.ground_references and not policy.produces and not artifacts:
        raise UsageError(f"stage {context.stage!r} grounds its artifacts' file references, "
                         "but none was given", hint="pass --artifact NAME=FILE")
    if not policy.brief_echo:
        return
    for name in (BRIEF, RESTATEMENT):
        if name not in artifacts and name not in context.policy.produces:
            raise UsageError(f"stage {context.stage!r} runs the brief echo gate, which needs "
                             f"the {name!r} artifact",
                             hint=f"pass --artifact {name}=FILE")
