"""Cross-references inside a profile: every name an entry uses must point at a definition.

Checked after the values themselves, and all at once, so the operator sees every dangling
name in one pass instead of fixing them one load at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

NO_BUILD_CLAIM = "none"
"""The built-in expectation with no commands: selecting it records no build claim."""


@dataclass(frozen=True)
class ProfileProblem:
    """One thing wrong with a profile: where (key path), what, and how to fix it."""

    path: tuple[str | int, ...]
    message: str
    hint: str


class ExpectationNames(Protocol):
    """What an expectation names: its commands and its setup command (model/profile.py's
    ExpectationSpec). A protocol, so this module needs nothing of profile.py, which
    calls it."""

    @property
    def commands(self) -> Sequence[str]: ...
    @property
    def setup(self) -> str | None: ...


def find_reference_problems(*, commands: Sequence[str],
                            expectations: Mapping[str, ExpectationNames],
                            expectation_names: Sequence[str], default_expectation: str | None,
                            stage_expectations: Mapping[str, str | None]
                            ) -> list[ProfileProblem]:
    """Names that point nowhere, reserved names misused, commands listed twice.

    `commands` are the defined command names (sorted), `expectation_names` every name an
    expectation may be selected by, `stage_expectations` each stage's `build_expectation`.
    """
    problems: list[ProfileProblem] = []
    for name, spec in expectations.items():
        problems += _expectation_problems(name, spec, commands)
    if default_expectation is not None:
        problems += _missing(default_expectation, expectation_names,
                             ("defaults", "expectation"), "expectation")
    for name, expectation in stage_expectations.items():
        if expectation is not None:
            problems += _missing(expectation, expectation_names,
                                 ("stages", name, "build_expectation"), "expectation")
    return problems


def _expectation_problems(name: str, spec: ExpectationNames,
                          commands: Sequence[str]) -> list[ProfileProblem]:
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


def _missing(name: str, known: Sequence[str], path: tuple[str | int, ...],
             what: str) -> list[ProfileProblem]:
    """A one-item list when `name` is not among `known`, naming the valid choices."""
    if name in known:
        return []
    choices = ", ".join(known) if known else "(none defined)"
    return [ProfileProblem(path, f'unknown {what} "{name}"',
                           f"use one of: {choices}; or define it under [{what}s]")]
