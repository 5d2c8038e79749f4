"""The static analysis gate as one step of a gate run: run, re-key, record.

A bare repository has no work tree to run anything in: the gate records a no-op
(`skipped` = "no_workspace") and passes. A command that changed the work tree (a formatter
rewriting files) makes the gate fail: the results describe a state that no longer exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gitcorrex.gates.outcome import GateResult
from gitcorrex.gates.static_analysis import run_static, static_commands, static_feedback
from gitcorrex.gates.static_reuse import find_clean_static
from gitcorrex.git import StateProbe
from gitcorrex.model.environment import EnvironmentPrint
from gitcorrex.model.gates import StaticAnalysisCompleted
from gitcorrex.runner.environment import fingerprint

if TYPE_CHECKING:
    from gitcorrex.gates.gate_run import Gates

NO_WORKSPACE = "no_workspace"
CHANGED_FEEDBACK = ("static analysis changed the workspace ({before} -> {after}); list what "
                    "the commands write in .gitignore, or make them check without fixing, "
                    "then run the gates again\n")


def run_static_gate(gates: Gates, env: Mapping[str, str], probe: StateProbe | None, *,
                    reuse: bool = False) -> tuple[GateResult, bytes | None]:
    """Run the stage's static analysis (or record the no-op of a bare repository).

    With `reuse`, a clean result already recorded for this state key, profile, command
    list and environment fingerprint is cited instead (nothing runs, nothing new is
    recorded): the same commands on the same tree under the same profile, run by the same
    programs, would say the same.
    """
    context = gates.context
    if probe is None:
        fields = StaticAnalysisCompleted(commands=[], clean=True, skipped=NO_WORKSPACE,
                                         state_after=None, profile=context.profile_oid)
        event = gates.record(fields, {})
        return GateResult("static_analysis", True, "no work tree: nothing run", event), None
    commands = static_commands(context.profile, list(context.policy.static_analysis))
    here = fingerprint(gates.repo, commands=commands, policy=context.profile.environment,
                       run_dir=gates.repo.root, env=env, state_key=gates.state_key)
    cited = find_clean_static(gates.repo, gates.state_key, context.profile_oid,
                              [c.argv for c in commands], here["digest"]) if reuse else None
    if cited is not None:
        return GateResult("static_analysis", True, f"{len(commands)} command(s), clean "
                          f"(reused {cited.id[:12]})", cited), None
    run = run_static(gates.repo, commands, root=gates.repo.root,
                     env={**env, "CORREX_STATE_KEY": gates.state_key},
                     output_cap=context.profile.defaults.output_cap)
    after = probe.measure().state_key
    fields = StaticAnalysisCompleted(commands=run.records, clean=run.clean, skipped=None,
                                     state_after=after, profile=context.profile_oid,
                                     environment=EnvironmentPrint.model_validate(here))
    anchors = dict(run.anchors)
    if after != gates.state_key:
        anchors[after] = "tree"
    event = gates.record(fields, anchors)
    dirty = len(run.failing_output)
    summary = f"{len(commands)} command(s), {dirty} not clean"
    if after != gates.state_key:
        feedback = CHANGED_FEEDBACK.format(before=gates.state_key[:12], after=after[:12])
        return GateResult("static_analysis", False, summary + ", workspace changed",
                          event), static_feedback(run) + feedback.encode()
    if run.clean:
        return GateResult("static_analysis", True, summary, event), None
    return GateResult("static_analysis", False, summary, event), static_feedback(run)
