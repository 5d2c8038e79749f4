"""Cross-references inside a profile: every name an entry uses must point at a definition.

Checked after the values themselves, and all at once, so the operator sees every dangling
name in one pass instead of fixing them one load at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gitcorrex.model.profile import ExpectationSpec, Profile

NO_BUILD_CLAIM = "none"
"""The built-in expectation with no commands: selecting it records no build claim."""


@dataclass(frozen=True)
class ProfileProblem:
    """One thing wrong with a profile: where (key path), what, and how to fix it."""

    path: tuple[str | int, ...]
    message: str
    hint: str


def find_reference_problems(profile: Profile) -> list[ProfileProblem]:
    """Names that point nowhere, reserved names misused, commands listed twice."""
    problems: list[ProfileProblem] = []
    commands = sorted(profile.commands)
    for name, spec in profile.expectations.items():
        problems += _expectation_problems(name, spec, commands)
    expectations = profile.expectation_names()
    if profile.defaults.expectation is not None:
        problems += _missing(profile.defaults.expectation, expectations,
                             ("defaults", "expectation"), "expectation")
    for name, stage in profile.stages.items():
        if stage.build_expectation is not None:
            problems += _missing(stage.build_expectation, expectations,
                                 ("stages", name, "build_expectation"), "expectation")
    return problems


def _expectation_problems(name: str, spec: ExpectationSpec,
                          commands: list[str]) -> list[ProfileProblem]:
    where = ("expectations", name)
    problems: list[ProfileProblem] = []
    if name == NO_BUILD_CLAIM and spec.commands:
        problems.append(ProfileProblem(where, '"none" is reserved for "no build claim"',
                                       "leave it empty (none = []) or rename it"))
    for index, command in enumerate(spec.commands):
        at = (*where, "commands", index)
        problems += _missing(command, commands, at, "command")
        if command in spec.commands[:index]:
            problems.append(ProfileProblem(at, f'"{command}" is listed twice',
                                           "list each command once"))
    if spec.setup is not None:
        problems += _missing(spec.setup, commands, (*where, "setup"), "command")
    return problems


def _missing(name: str, known: list[str], path: tuple[str | int, ...],
             what: str) -> list[ProfileProblem]:
    """A one-item list when `name` is not among `known`, naming the valid choices."""
    if name in known:
        return []
    choices = ", ".join(known) if known else "(none defined)"
    return [ProfileProblem(path, f'unknown {what} "{name}"',
                           f"use one of: {choices}; or define it under [{what}s]")]
