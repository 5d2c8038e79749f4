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
                            stage_expectations: Mapping[str, str | None],
                            stop_expectations: Mapping[tuple[str, ...], str] | None = None,
                            stage_artifacts: Mapping[str, tuple[Sequence[str], Sequence[str]]]
                            ) -> list[ProfileProblem]:
    """Names that point nowhere, reserved names misused, commands listed twice.

    `commands` are the defined command names (sorted), `expectation_names` every name an
    expectation may be selected by, `stage_expectations` each stage's `build_expectation`,
    `stop_expectations` each `stop_expectation` set, by key path,
    `stage_artifacts` each stage's (`produces`, `consumes`): a consumed artifact no stage
    produces could never exist, and a step of that stage could never start.
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
    for path, expectation in (stop_expectations or {}).items():
        problems += _missing(expectation, expectation_names, path, "expectation")
    produced = sorted({a for produces, _ in stage_artifacts.values() for a in produces})
    for name, (_, consumes) in stage_artifacts.items():
        for index, artifact in enumerate(consumes):
            problems += _unproduced(artifact, produced, ("stages", name, "consumes", index))
    return problems


def _unproduced(artifact: str, produced: Sequence[str],
                path: tuple[str | int, ...]) -> list[ProfileProblem]:
    """A one-item list when no stage `produces` the consumed `artifact`."""
    if artifact in produced:
        return []
    choices = ", ".join(produced) if produced else "(no stage produces any)"
    return [ProfileProblem(path, f'unknown artifact "{artifact}": no stage produces it',
                           f"use one of: {choices}; or add it to the producing stage's "
                           "`produces`")]


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
