"""The commands that settle a step: its stage's `build_expectation` (when the step makes a
build claim), then the step's own plan `checks`, de-duplicated, every one a profile entry
(a plan names checks; it never spells out a command).

A step makes a build claim when it declares writes and its stage's expectation runs a
command. Every other step (a docs stage, no declared writes) still runs its own checks, and
is verified only when they pass; a step whose checks run nothing either is activity-only.

The stage's expectation runs first because it is the operator's build order (build, then
test); a check that names a command the expectation already runs is not run twice. A
check naming an expectation contributes that expectation's commands (and its setup when
the stage's expectation has none). The observation keeps the stage's expectation name,
so between steps `verify` re-observes it by that name; its `writes` are the step's.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.profile import Profile
from gitcorrex.model.profile_references import NO_BUILD_CLAIM
from gitcorrex.profiles.load import PROFILE_NAME
from gitcorrex.profiles.selection import ResolvedCommand, Selection, resolve_command


def makes_build_claim(step: PlanStep, stage: Selection) -> bool:
    """Whether settling `step` claims its state builds: it declares writes and its stage's
    expectation (`stage`, selected) runs a command (seed 000: a docs-only stage or a stage
    without writes does not manufacture a build claim)."""
    return bool(step.writes) and bool(stage.commands)


def step_selection(profile: Profile, step: PlanStep, stage: Selection) -> Selection:
    """`stage` (the stage's expectation, selected) extended by the step's checks; the
    step's checks alone when it makes no build claim."""
    claim = makes_build_claim(step, stage)
    names = [command.name for command in stage.commands] if claim else []
    setup = stage.setup if claim else None
    for check in step.checks:
        more, check_setup = _check_commands(profile, step, check)
        names += [name for name in more if name not in names]
        setup = setup or check_setup
    commands: list[ResolvedCommand] = [resolve_command(profile, name) for name in names]
    return Selection(expectation=stage.expectation, stage=step.stage, writes=list(step.writes),
                     setup=setup, commands=commands, environment=stage.environment)


def _check_commands(profile: Profile, step: PlanStep,
                    check: str) -> tuple[list[str], ResolvedCommand | None]:
    """A check's command names (and setup): a command, or an expectation's commands."""
    if check in profile.commands:
        return [check], None
    spec = profile.expectations.get(check)
    if spec is None:
        if check == NO_BUILD_CLAIM:
            return [], None
        raise ConfigError(f"step {step.id} checks {check!r}, which {PROFILE_NAME} does not "
                          "define", hint="define it under [commands] or [expectations], or "
                                         "re-plan the step with checks the profile defines")
    setup = resolve_command(profile, spec.setup) if spec.setup else None
    return list(spec.commands), setup
