"""Reading `.correx.toml` into a validated `Profile`, with errors an operator can act on.

Every failure is a `ConfigError` (exit 2) that names the file and the key path and says
what to write instead. The loaded profile also carries the git blob id of its exact bytes,
so an event can cite which profile it ran under without this module touching git.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gitcorrex.errors import ConfigError
from gitcorrex.model.events import git_blob_oid
from gitcorrex.model.profile import Profile
from gitcorrex.model.profile_references import ProfileProblem
from gitcorrex.profiles.limits import (
    check_depth,
    check_profile_size,
    nesting_error,
    refuse_byte_order_mark,
)
from gitcorrex.profiles.profile_file import PROFILE_NAME as PROFILE_NAME  # re-exported
from gitcorrex.profiles.profile_file import read_profile_bytes as read_profile_bytes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")


@dataclass(frozen=True)
class LoadedProfile:
    """A validated profile together with exactly what was read and from where."""

    profile: Profile
    raw: bytes
    path: Path
    blob_oid: str


def load_profile(root: Path) -> LoadedProfile:
    """The profile at the root of a work tree; a missing file says to run `git correx init`."""
    raw = read_profile_bytes(root)
    profile = parse_profile(raw, source=PROFILE_NAME)
    return LoadedProfile(profile, raw, root / PROFILE_NAME, git_blob_oid(raw))


def parse_profile(text: bytes, *, source: str) -> Profile:
    """Validate profile bytes; `source` is the name errors print (usually `.correx.toml`)."""
    check_profile_size(text, source)
    data = parse_toml(text, source)
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        from gitcorrex.profiles.problems import explain

        raise _problems_error(source, explain(exc, data)) from None


def parse_toml(text: bytes, source: str) -> dict[str, Any]:
    """TOML as UTF-8, nested at most MAX_DEPTH deep; errors name the line and column (for
    readers that skip validation)."""
    refuse_byte_order_mark(text, source)
    decoded = decode_utf8(text, source, hint="save the file as UTF-8 (TOML requires it)")
    try:
        data = tomllib.loads(decoded)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: {_toml_position(str(exc))}",
                          hint="fix the TOML syntax there (see https://toml.io)") from None
    except RecursionError as exc:
        raise nesting_error(exc, source) from None
    check_depth(data, source)
    return data


def decode_utf8(raw: bytes, source: str, *, hint: str) -> str:
    """`raw` as UTF-8 text; otherwise a ConfigError naming the first line that is not."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{source}: line {line} is not UTF-8", hint=hint) from None


def _toml_position(message: str) -> str:
    """`line 3, column 7: invalid TOML: Expected '=' ...` from tomllib's wording."""
    match = _POSITION.search(message)
    if match is None:
        return f"invalid TOML: {message}"
    body = message[:match.start()]
    where = f"line {match.group(1)}, column {match.group(2)}" if match.group(1) else "end of file"
    return f"{where}: invalid TOML: {body}"


def _problems_error(source: str, problems: list[ProfileProblem]) -> ConfigError:
    """One error: the first problem with its fix, and every further problem listed after."""
    from gitcorrex.profiles.problems import format_path

    first, rest = problems[0], problems[1:]
    lines = [f"{source}: {format_path(first.path)}: {first.message}"]
    lines += [f"  also {format_path(p.path)}: {p.message}; hint: {p.hint}" for p in rest]
    return ConfigError("\n".join(lines), hint=first.hint)
