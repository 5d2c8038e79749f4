"""Which commands a verification runs: decided by names in the profile, never by the caller.

The order is fixed so two runs asked the same question run the same commands: an explicit
`--expect` wins, then the stage's `build_expectation`, then `defaults.expectation`. Each
command's digest binds its argv and its normalized entry, so a recorded pass is only reused
for exactly the command that produced it.
"""

from __future__ import annotations

import hashlib
import json
import shlex

from gitcorrex.errors import ConfigError
from gitcorrex.model.canonical import canonical_json
from gitcorrex.model.profile import Profile, StagePolicy
from gitcorrex.model.profile_environment import EnvironmentPolicy
from gitcorrex.model.record import Record

_PROFILE = ".correx.toml"


class ResolvedCommand(Record):
    """One profile command, ready to run: argv, effective timeout, prerequisites, identity."""

    name: str
    argv: list[str]
    timeout_s: int
    requires: list[str]
    digest: str


class Selection(Record):
    """The expectation chosen for one verification, with its commands in run order."""

    expectation: str
    stage: str | None
    writes: list[str]
    setup: ResolvedCommand | None
    commands: list[ResolvedCommand]
    # what the observation's environment fingerprint includes (the profile's [environment])
    environment: EnvironmentPolicy = EnvironmentPolicy()


def select_expectation(profile: Profile, *, stage: str | None, expect: str | None) -> Selection:
    """Resolve the expectation; an unknown stage or expectation is a ConfigError (exit 2)."""
    policy = _stage_policy(profile, stage)
    name = _expectation_name(profile, policy, expect)
    writes = list(policy.writes) if policy else []
    spec = profile.expectations.get(name)
    if spec is None:  # the built-in "none": no commands, no build claim
        return Selection(expectation=name, stage=stage, writes=writes, setup=None, commands=[],
                         environment=profile.environment)
    setup = resolve_command(profile, spec.setup) if spec.setup else None
    commands = [resolve_command(profile, command) for command in spec.commands]
    return Selection(expectation=name, stage=stage, writes=writes, setup=setup,
                     commands=commands, environment=profile.environment)


def resolve_command(profile: Profile, name: str) -> ResolvedCommand:
    """A named command with the profile's default timeout applied and its digest computed."""
    spec = profile.commands[name]
    argv = shlex.split(spec.run)
    timeout_s = spec.timeout if spec.timeout is not None else profile.defaults.timeout
    entry = {"run": spec.run, "timeout_s": timeout_s, "requires": list(spec.requires)}
    digest = hashlib.sha256(
        canonical_json({"argv": argv, "entry": entry}).encode("ascii")).hexdigest()
    return ResolvedCommand(name=name, argv=argv, timeout_s=timeout_s,
                           requires=list(spec.requires), digest=digest)


def _stage_policy(profile: Profile, stage: str | None) -> StagePolicy | None:
    if stage is None:
        return None
    policy = profile.stages.get(stage)
    if policy is None:
        choices = ", ".join(sorted(profile.stages)) or "(none defined)"
        raise ConfigError(f"unknown stage {json.dumps(stage)}",
                          hint=f"use one of: {choices}; or add [stages.{stage}] to {_PROFILE}")
    return policy


def _expectation_name(profile: Profile, policy: StagePolicy | None, expect: str | None) -> str:
    """--expect, else the stage's build_expectation, else defaults.expectation."""
    name = expect or (policy.build_expectation if policy else None) or \
        profile.defaults.expectation
    if name is None:
        raise ConfigError("no expectation selected",
                          hint=f"pass --expect NAME (one of: {_names(profile)}) or set "
                               f"defaults.expectation in {_PROFILE}")
    if name not in profile.expectation_names():
        raise ConfigError(f"unknown expectation {json.dumps(name)}",
                          hint=f"use one of: {_names(profile)}; or define it under "
                               f"[expectations] in {_PROFILE}")
    return name


def _names(profile: Profile) -> str:
    return ", ".join(profile.expectation_names())
