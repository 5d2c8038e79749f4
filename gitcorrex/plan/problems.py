"""Pydantic's validation errors on a plan, rewritten as `steps[1] (S2).checks[0]: ...` + a fix.

The reader is an architect (often a model) editing the file: each problem names the step
by index and id, the field as written, what is wrong, and what to write instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from gitcorrex.model.profile_values import show

_TYPE_NAMES = {"string_type": "a string", "int_type": "an integer", "list_type": "a list",
               "dict_type": "a table", "model_type": "a table", "bool_type": "a boolean"}
_KEY_HINTS = {
    "evidence": '{ check = <index> } or { plan-risk-proof = "<failure mode>" }',
    "dependencies": '{ step = "<step id>", requires = [<output index>, ...] }',
    "verification_map": "{ output = <index>, evidence = [...] }",
}
NAME_HINT = 'ids and names start with a letter or digit and use only letters, digits, "_", ' \
    '"." and "-" (plan ids at most 48 characters)'


@dataclass(frozen=True)
class PlanProblem:
    """One thing wrong with the plan's shape: where (as written), what, and the fix."""

    where: str
    message: str
    hint: str


def explain_plan(error: ValidationError, raw: dict[str, Any]) -> list[PlanProblem]:
    """Every error as location + fix; misspelt keys first (they explain "missing" ones)."""
    items = sorted(error.errors(), key=lambda item: item["type"] != "extra_forbidden")
    return [_explain_one(item, raw) for item in items]


def describe_location(loc: tuple[Any, ...], raw: Any) -> str:
    """`steps[1] (S2).verification_map[0].evidence[1]`: indices, plus the step's id if any."""
    text, node = "", raw
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
            node = node[part] if isinstance(node, list) and part < len(node) else None
            if text.endswith(f"steps[{part}]") and isinstance(node, dict) \
                    and isinstance(node.get("id"), str):
                text += f" ({node['id']})"
        else:
            text += f".{part}" if text else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return text or "(top level)"


def _explain_one(item: Any, raw: dict[str, Any]) -> PlanProblem:
    kind, ctx, value = item["type"], item.get("ctx") or {}, item.get("input")
    loc = tuple(ctx.get("loc", item["loc"]))
    where = describe_location(loc, raw)
    if "hint" in ctx:
        return PlanProblem(where, ctx["message"], ctx["hint"])
    if kind == "evidence_shape":
        return PlanProblem(where, "evidence needs exactly one key", _KEY_HINTS["evidence"])
    if kind == "extra_forbidden":
        return PlanProblem(where, f'unknown key "{loc[-1]}"', "check the spelling of the key")
    if kind == "missing":
        return PlanProblem(where, "required key is missing", f"add `{loc[-1]} = ...` here")
    if kind == "string_pattern_mismatch":
        return PlanProblem(where, f"{show(value)} is not a valid id or name", NAME_HINT)
    if kind == "string_too_short":
        return PlanProblem(where, "must not be empty", "write the text or remove the entry")
    if kind == "greater_than_equal":
        return PlanProblem(where, f"{show(value)} is negative", "indices start at 0")
    if kind in {"literal_error", "enum"} and loc == ("version",):
        return PlanProblem(where, f"{show(value)} is not a supported plan version",
                           "set version = 1 (version 0 is the legacy form, read only)")
    if kind == "enum":
        return PlanProblem(where, f"{show(value)} is not a risk level", 'use "low" or "guarded"')
    if kind in _TYPE_NAMES:
        return PlanProblem(where, f"expected {_TYPE_NAMES[kind]}, got {show(value)}",
                           _type_hint(loc, _TYPE_NAMES[kind]))
    return PlanProblem(where, f"{show(value)} is not allowed here: {item['msg']}",
                       "see docs/plans.md")


def _type_hint(loc: tuple[Any, ...], expected: str) -> str:
    """The entry's shape when the field holds structured entries, else the expected type."""
    keys = [part for part in loc if isinstance(part, str)]
    return _KEY_HINTS.get(keys[-1] if keys else "", f"write {expected} here")
