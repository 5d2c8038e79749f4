"""The profile (`.correx.toml`): the operator's commands, expectations and stage policies.

Models never choose a shell command; they can only name entries of this file. So every
rule that keeps a name honest lives here: a command is an argv (split like a shell, never
run by one), an expectation names only existing commands, a stage names only existing
expectations. Values are strict (TOML `true` is not a number, `"3"` is not an integer),
because a profile that silently means something else is worse than one that fails to load.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gitcorrex.model.profile_environment import EnvironmentPolicy
from gitcorrex.model.profile_references import (
    NO_BUILD_CLAIM,
    find_reference_problems,
)
from gitcorrex.model.profile_values import (
    check_relative_path,
    check_run,
    check_threshold,
    check_version,
    check_write_pattern,
    parse_duration,
    parse_size,
    problem,
)
from gitcorrex.model.record import Record

PROFILE_VERSION = 1

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN)]
Duration = Annotated[int, BeforeValidator(parse_duration)]
Size = Annotated[int, BeforeValidator(parse_size)]
RelativePath = Annotated[str, BeforeValidator(check_relative_path)]
WritePattern = Annotated[str, BeforeValidator(check_write_pattern)]
CommandLine = Annotated[str, BeforeValidator(check_run)]
Threshold = Annotated[float, BeforeValidator(check_threshold)]

_STRICT = ConfigDict(strict=True)


class CommandSpec(Record):
    """One operator command. A plain string in TOML is shorthand for `{ run = "..." }`."""

    model_config = _STRICT

    run: Annotated[str, BeforeValidator(check_run)]
    timeout: Duration | None = None
    requires: list[RelativePath] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _expand_shorthand(cls, data: Any) -> Any:
        return _expand(data, "run", str, 'a string like "make test" or a table { run = ... }')


class ExpectationSpec(Record):
    """Commands that must all pass, in order. A TOML list is shorthand for `{ commands = [] }`."""

    model_config = _STRICT

    commands: list[Name]
    setup: Name | None = None

    @model_validator(mode="before")
    @classmethod
    def _expand_shorthand(cls, data: Any) -> Any:
        return _expand(data, "commands", list,
                       'a list like ["build", "test"] or a table { commands = [...] }')


class Defaults(Record):
    """What applies when neither the caller nor a stage says otherwise."""

    model_config = _STRICT

    expectation: Name | None = None
    timeout: Duration = 30 * 60
    output_cap: Size = 8 * 1024 * 1024
    # an agent's Stop hook keeps it working until the changed workspace has a passing
    # observation (`git correx assess --hook AGENT` on Stop / AfterAgent / stop)
    verify_before_stop: bool = False
    # the expectation a Stop without a completion claim runs (agents/stop_check.py); None:
    # every Stop runs the full one (the stage's build expectation)
    stop_expectation: Name | None = None


class StagePolicy(Record):
    """What one orchestrator stage is held to: its build check, its writes, its retries,
    and the post-stage gates (`git correx gate`) its output must pass."""

    model_config = _STRICT

    build_expectation: Name | None = None
    writes: list[WritePattern] = Field(default_factory=list)
    max_attempts: int = Field(default=3, ge=1)
    # post-stage gates, run in this order by `git correx gate`
    produces: list[Name] = Field(default_factory=list)
    # artifacts another stage produces that a step of this stage needs before it starts
    consumes: list[Name] = Field(default_factory=list)
    ground_references: bool = False
    brief_echo: bool = False
    brief_echo_threshold: Threshold = 0.34
    static_analysis: list[CommandLine] = Field(default_factory=list)
    precondition_threshold: int = Field(default=3, ge=1)
    verify_before_stop: bool | None = None  # None: defaults.verify_before_stop
    stop_expectation: Name | None = None  # None: defaults.stop_expectation

    @field_validator("produces", "consumes")
    @classmethod
    def _check_artifact_names(cls, value: list[str]) -> list[str]:
        for index, name in enumerate(value):
            if name in value[:index]:
                raise problem("duplicate", f'artifact "{name}" is listed twice',
                              "list each artifact once", value)
        return value


class Profile(Record):
    """The whole `.correx.toml`, validated including every cross-reference."""

    model_config = _STRICT

    version: int
    commands: dict[Name, CommandSpec] = Field(default_factory=dict)
    expectations: dict[Name, ExpectationSpec] = Field(default_factory=dict)
    defaults: Defaults = Field(default_factory=Defaults)
    stages: dict[Name, StagePolicy] = Field(default_factory=dict)
    environment: EnvironmentPolicy = Field(default_factory=EnvironmentPolicy)

    @field_validator("version", mode="before")
    @classmethod
    def _check_version(cls, value: Any) -> Any:
        return check_version(value, PROFILE_VERSION)

    @model_validator(mode="after")
    def _check_references(self) -> Profile:
        problems = find_reference_problems(
            commands=sorted(self.commands), expectations=self.expectations,
            expectation_names=self.expectation_names(),
            default_expectation=self.defaults.expectation,
            stage_expectations={name: stage.build_expectation
                                for name, stage in self.stages.items()},
            stop_expectations=self._stop_expectations(),
            stage_artifacts={name: (stage.produces, stage.consumes)
                             for name, stage in self.stages.items()})
        if problems:
            summary = "; ".join(f"{'.'.join(map(str, p.path))}: {p.message}" for p in problems)
            raise PydanticCustomError("profile_references", "{summary}",
                                      {"summary": summary, "problems": tuple(problems)})
        return self

    def _stop_expectations(self) -> dict[tuple[str, ...], str]:
        """Each `stop_expectation` set, by its key path."""
        named: dict[tuple[str, ...], str] = {
            ("stages", name, "stop_expectation"): stage.stop_expectation
            for name, stage in self.stages.items() if stage.stop_expectation}
        if self.defaults.stop_expectation:
            named[("defaults", "stop_expectation")] = self.defaults.stop_expectation
        return named

    def expectation_names(self) -> list[str]:
        """Every name `select` accepts, including the built-in "none"."""
        return sorted({*self.expectations, NO_BUILD_CLAIM})


def _expand(data: Any, key: str, short: type, shape: str) -> Any:
    """Turn the shorthand form into the table form; refuse any other shape."""
    if isinstance(data, short):
        return {key: data}
    if isinstance(data, (dict, BaseModel)):
        return data
    raise problem("entry_shape", f"expected {shape}", f"write {shape}", data)
