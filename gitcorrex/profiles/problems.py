"""Pydantic's validation errors, rewritten as the operator's key paths and fixes.

Pydantic's wording ("Input should be a valid integer") names neither the file nor what to
write; the operator should read `commands.test.timeout: "10x" is not a duration` and a hint.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError

from gitcorrex.model.profile import (
    CommandSpec,
    Defaults,
    ExpectationSpec,
    Profile,
    StagePolicy,
)
from gitcorrex.model.profile_references import ProfileProblem
from gitcorrex.model.profile_values import show

_SECTIONS: dict[str, type[BaseModel]] = {
    "commands": CommandSpec, "expectations": ExpectationSpec, "stages": StagePolicy}
_TYPE_NAMES = {"string_type": "a string", "int_type": "an integer", "list_type": "a list",
               "dict_type": "a table", "model_type": "a table", "bool_type": "a boolean"}
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
NAME_HINT = 'names start with a letter or digit and use only letters, digits, "_", "." and "-"'


def explain(error: ValidationError, raw: Any) -> list[ProfileProblem]:
    """Every error in `error` as key path + fix, unknown keys first."""
    problems: list[ProfileProblem] = []
    items = sorted(error.errors(), key=lambda item: item["type"] != "extra_forbidden")
    for item in items:  # a misspelt key first: it usually explains a "missing" one
        ctx = item.get("ctx") or {}
        if item["type"] == "profile_references":
            problems += [ProfileProblem(_as_written(p.path, raw), p.message, p.hint)
                         for p in ctx["problems"]]
        else:
            problems.append(_explain_one(item, _as_written(item["loc"], raw)))
    return problems


def format_path(path: tuple[str | int, ...]) -> str:
    """`commands.test.timeout`, `expectations.full.commands[1]`, `commands."a b"`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            key = part if _BARE_KEY.match(part) else show(part)
            text += f".{key}" if text else key
    return text or "(top level)"


def _as_written(loc: tuple[Any, ...], raw: Any) -> tuple[str | int, ...]:
    """The key path as the operator wrote it: shorthand forms have no `run`/`commands` key."""
    path: list[str | int] = []
    node = raw
    for part in loc:
        if part == "[key]":
            continue
        if isinstance(part, str) and not isinstance(node, dict):
            continue
        path.append(part)
        node = _child(node, part)
    return tuple(path)


def _child(node: Any, part: str | int) -> Any:
    if isinstance(node, dict) and isinstance(part, str):
        return node.get(part)
    if isinstance(node, list) and isinstance(part, int) and part < len(node):
        return node[part]
    return None


def _explain_one(item: Any, path: tuple[str | int, ...]) -> ProfileProblem:
    kind, ctx, value = item["type"], item.get("ctx") or {}, item.get("input")
    if "message" in ctx:
        return ProfileProblem(path, ctx["message"], ctx["hint"])
    if (item["loc"] and item["loc"][-1] == "[key]") or kind == "string_pattern_mismatch":
        return ProfileProblem(path, f"{show(value)} is not a valid name", NAME_HINT)
    if kind == "extra_forbidden":
        valid = ", ".join(_valid_keys(path[:-1]))
        return ProfileProblem(path, f'unknown key "{path[-1]}"',
                              f"check the spelling; valid keys here: {valid}")
    if kind == "missing":
        return ProfileProblem(path, "required key is missing", _missing_hint(path))
    if kind in _TYPE_NAMES:
        return ProfileProblem(path, f"expected {_TYPE_NAMES[kind]}, got {show(value)}",
                              f"write {_TYPE_NAMES[kind]} here")
    if kind == "greater_than_equal":
        return ProfileProblem(path, f"{show(value)} is too small",
                              f"use a value of at least {ctx.get('ge')}")
    return ProfileProblem(path, f"{show(value)} is not allowed here", "see the profile reference")


def _valid_keys(parent: tuple[str | int, ...]) -> list[str]:
    """The keys the table at `parent` accepts (top level, a section entry, or [defaults])."""
    model: type[BaseModel] = Profile
    if parent == ("defaults",):
        model = Defaults
    elif len(parent) == 2 and parent[0] in _SECTIONS:
        model = _SECTIONS[str(parent[0])]
    return list(model.model_fields)


def _missing_hint(path: tuple[str | int, ...]) -> str:
    if path == ("version",):
        return "add `version = 1` at the top of the file"
    if path[-1:] == ("run",):
        return 'add run = "<program and arguments>" to this command'
    return f"add `{path[-1]} = ...` here"
