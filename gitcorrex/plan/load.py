"""Reading a plan file (TOML or JSON) into a validated `Plan`, its canonical bytes and identity.

Every failure is a `ConfigError` (exit 2) naming the file, the step (by index and id) and
the field, with a hint saying what to write. The format is chosen by extension (`.toml`,
`.json`); any other name is read as JSON when its first character is `{`, else as TOML.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gitcorrex.errors import ConfigError
from gitcorrex.model.events import git_blob_oid
from gitcorrex.model.plan import Plan, canonical_plan_json
from gitcorrex.profiles.limits import DEPTH_HINT, MAX_DEPTH, check_depth
from gitcorrex.profiles.load import decode_utf8, parse_toml


@dataclass(frozen=True)
class LoadedPlan:
    """A validated plan, the canonical JSON bytes stored in git, and their blob id."""

    plan: Plan
    canonical_bytes: bytes
    identity: str
    path: Path | None = None


def load_plan(path: Path) -> LoadedPlan:
    """The plan at `path`; unreadable, unparsable or ill-shaped files raise ConfigError."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read plan {path}: {exc.strerror or exc}",
                          hint="pass the path of a readable plan file (TOML or JSON)") from None
    loaded = parse_plan(raw, source=str(path))
    return LoadedPlan(loaded.plan, loaded.canonical_bytes, loaded.identity, path)


def parse_plan(raw: bytes, *, source: str) -> LoadedPlan:
    """Validate plan bytes; `source` names the file in errors and picks the format."""
    data = _decode(raw, source)
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        raise _shape_error(source, exc, data) from None
    canonical = canonical_plan_json(plan).encode("ascii")
    return LoadedPlan(plan, canonical, git_blob_oid(canonical))


def _decode(raw: bytes, source: str) -> Any:
    text = decode_utf8(raw, source, hint="save the plan as UTF-8")
    data = _parse_json(text, source) if _is_json(source, text) else _parse_toml(text, source)
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a plan must be a table/object at the top level",
                          hint='start the plan with version = 1 and id = "..."')
    return data


def _parse_json(text: str, source: str) -> Any:
    """JSON, nested at most as deep as TOML may be (the decoder's RecursionError named)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{source}: line {exc.lineno}, column {exc.colno}: invalid JSON: "
                          f"{exc.msg}", hint="fix the JSON syntax there") from None
    except RecursionError:
        raise ConfigError(f"{source}: nested more than {MAX_DEPTH} levels deep",
                          hint=DEPTH_HINT) from None
    if isinstance(data, dict):
        check_depth(data, source)
    return data


def _is_json(source: str, text: str) -> bool:
    lowered = source.lower()
    if lowered.endswith(".json"):
        return True
    if lowered.endswith(".toml"):
        return False
    return text.lstrip().startswith("{")


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    """The profile's TOML reader, so plan errors name the line and column the same way."""
    return parse_toml(text.encode("utf-8"), source)


def _shape_error(source: str, error: ValidationError, data: dict[str, Any]) -> ConfigError:
    """The first problem with its fix, then every further problem, each with its location."""
    from gitcorrex.plan.problems import explain_plan

    problems = explain_plan(error, data)
    first, rest = problems[0], problems[1:]
    lines = [f"{source}: {first.where}: {first.message}"]
    lines += [f"  also {p.where}: {p.message}; hint: {p.hint}" for p in rest]
    return ConfigError("\n".join(lines), hint=first.hint)
