"""Parsing and checking the scalar values of a profile: durations, sizes, argv, paths.

Every refusal is a `PydanticCustomError` whose context carries the finished message and a
hint that says what to write instead; the loader turns those into one-line errors naming
the key path, so nobody ever sees pydantic's own wording.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from pydantic_core import PydanticCustomError

_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")
_SIZE = re.compile(r"^(\d+)\s*(B|KiB|MiB|GiB)?$")
_SIZE_UNITS = {None: 1, "B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
RUN_MAX_BYTES = 16 * 1024  # far below exec's limits; keeps shlex (quadratic in a token) fast
DURATION_HINT = 'use seconds or a value like "90s", "10m", "1h", "1h30m"'
SIZE_HINT = 'use bytes or a value like "512KiB", "8MiB", "1GiB"'


def problem(kind: str, message: str, hint: str, value: Any = None) -> PydanticCustomError:
    """A refusal the loader can show as-is (message and hint travel in the context)."""
    return PydanticCustomError(kind, "{message}", {"message": message, "hint": hint,
                                                   "value": value})


def show(value: Any) -> str:
    """A value as the operator would recognise it from TOML, escaped and bounded."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    else:
        text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 80 else text[:79] + "…"


def parse_duration(value: Any) -> int:
    """Integer seconds, or "1h30m"-style text, to a positive number of seconds."""
    if isinstance(value, int) and not isinstance(value, bool):
        seconds = value
    elif isinstance(value, str) and value.isdigit():
        seconds = int(value)
    elif isinstance(value, str) and value and (match := _DURATION.match(value)):
        hours, minutes, secs = (int(part or 0) for part in match.groups())
        seconds = hours * 3600 + minutes * 60 + secs
    else:
        raise problem("duration", f"{show(value)} is not a duration", DURATION_HINT, value)
    if seconds <= 0:
        raise problem("duration", f"{show(value)} is not a positive duration",
                      DURATION_HINT, value)
    return seconds


def parse_size(value: Any) -> int:
    """Integer bytes, or "8MiB"-style text, to a positive number of bytes."""
    if isinstance(value, int) and not isinstance(value, bool):
        size = value
    elif isinstance(value, str) and (match := _SIZE.match(value.strip())):
        size = int(match.group(1)) * _SIZE_UNITS[match.group(2)]
    else:
        raise problem("size", f"{show(value)} is not a size", SIZE_HINT, value)
    if size <= 0:
        raise problem("size", f"{show(value)} is not a positive size", SIZE_HINT, value)
    return size


def check_version(value: Any, supported: int) -> Any:
    """Only the version this code understands; anything else is refused, never guessed."""
    if isinstance(value, int) and not isinstance(value, bool) and value == supported:
        return value
    raise problem("version", f"{show(value)} is not a supported profile version",
                  f"set version = {supported} (the only version this git correx reads)", value)


def check_run(value: Any) -> Any:
    """A command line that splits into an argv like a shell would; it is never run by one.
    Its size is checked before shlex sees it, and a NUL is refused (exec cannot pass one)."""
    if not isinstance(value, str):
        raise problem("run", f"expected a command line string, got {show(value)}",
                      'write it as a string, e.g. "python -m pytest -q"', value)
    _check_run_bytes(value)
    try:
        argv = shlex.split(value)
    except ValueError as exc:
        raise problem("run", f"{show(value)} cannot be split into arguments ({exc})",
                      "balance the quotes; the line is split like a shell, never run by one",
                      value) from None
    if not argv:
        raise problem("run", "the command line is empty",
                      'write the program and its arguments, e.g. "make test"', value)
    return value


def _check_run_bytes(value: str) -> None:
    size = len(value.encode("utf-8", "surrogatepass"))
    if size > RUN_MAX_BYTES:
        raise problem("run", f"the command line is {size:,} bytes, over the "
                             f"{RUN_MAX_BYTES // 1024} KiB a command line may hold",
                      "put long argument lists in a script, or in a file the program reads",
                      value)
    if "\0" in value:
        raise problem("run", "the command line holds a NUL character (\\u0000), which no "
                             "program can receive as an argument",
                      "remove the NUL; write the program and its arguments as plain text",
                      value)


def check_threshold(value: Any) -> float:
    """A fraction from 0 to 1 inclusive (an integer 0 or 1 is fine; `true` is not a number)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    raise problem("threshold", f"{show(value)} is not a fraction from 0 to 1",
                  "write a number like 0.34 (0 accepts anything, 1 needs an exact restatement)",
                  value)


def check_relative_path(value: Any) -> Any:
    """A path inside the repository, written with "/" and without "..", ".", or "//"."""
    _check_path_text(value, "path")
    body = value[:-1] if value.endswith("/") else value
    if body.startswith("/") or re.match(r"^[A-Za-z]:", body):
        raise problem("path", f"{show(value)} is an absolute path",
                      'write it relative to the repository root, e.g. "pyproject.toml"', value)
    _check_components(value, body.split("/"))
    return value


def check_write_pattern(value: Any) -> Any:
    """A gitignore-style glob; a leading "/" anchors it at the repository root."""
    _check_path_text(value, "pattern")
    body = value[1:] if value.startswith("!") else value
    if body.startswith("#") or body in ("", "/"):
        raise problem("path", f"{show(value)} is not a write pattern",
                      'write a glob like "/src/**" ("/" anchors it at the repository root)',
                      value)
    body = body.removeprefix("/").removesuffix("/")
    _check_components(value, body.split("/"))
    return value


def _check_path_text(value: Any, what: str) -> None:
    if not isinstance(value, str) or not value:
        raise problem("path", f"expected a non-empty {what} string, got {show(value)}",
                      'write it as a string like "src/app.py"', value)
    if "\\" in value or "\0" in value:
        raise problem("path", f"{show(value)} contains a backslash or NUL",
                      'separate directories with "/" (backslashes are not path separators)',
                      value)


def _check_components(value: str, parts: list[str]) -> None:
    for part in parts:
        if part in ("", ".", ".."):
            raise problem("path", f"{show(value)} has an empty, \".\" or \"..\" component",
                          "name the path inside the repository directly, without "
                          '"..", "." or "//"', value)
