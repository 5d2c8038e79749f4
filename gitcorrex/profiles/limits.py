"""The bounds on a profile (and any TOML document we read) before anything recurses into it.

A profile is read by `verify`, by the hooks (at HEAD) and by the CI gate (at BASE), so a
hostile one must end as a ConfigError (exit 2) in a fraction of a second, never as a
traceback. tomllib (tomli on Python 3.10) parses arrays and inline tables recursively and
gives up with RecursionError about 500 levels down; a document it can still read but nested
deeper than any profile or plan needs would recurse again further on (validation, error
messages, canonical JSON). So the reader's own overflow and the parsed depth are both
refused, naming the key (and the line where the reader stopped). A byte order mark is named
(tomllib reports only "Invalid statement"), and a profile's size is capped before parsing:
its `run` lines are split by shlex, whose time grows with the length of a token.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from gitcorrex.errors import ConfigError
from gitcorrex.profiles.problems import format_path

PROFILE_MAX_BYTES = 256 * 1024  # profiles hold names and short command lines: a few KiB
MAX_DEPTH = 32  # tables and lists within tables; a profile needs 4 (stages.<name>.writes)
_SHOWN_KEYS = 6
_PARSER_FILES = ("tomllib/_parser.py", "tomli/_parser.py")
DEPTH_HINT = "profiles and plans nest tables and lists a few levels deep; flatten this value"


def check_profile_size(raw: bytes, source: str) -> None:
    """Refuse a profile over PROFILE_MAX_BYTES before any parsing."""
    if len(raw) > PROFILE_MAX_BYTES:
        number, length = _longest_line(raw)
        raise ConfigError(
            f"{source}: {len(raw):,} bytes, over the {PROFILE_MAX_BYTES // 1024} KiB a "
            f"profile may hold (its longest line, line {number}, holds {length:,})",
            hint="a profile names commands and paths; move long lists into a script or a "
                 "file the command reads")


def _longest_line(raw: bytes) -> tuple[int, int]:
    """(line number, length) of the longest line, found without parsing anything."""
    best, start, number = (1, 0), 0, 1
    while start <= len(raw):
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end
        best = max(best, (number, end - start), key=lambda item: item[1])
        start, number = end + 1, number + 1
    return best


def refuse_byte_order_mark(raw: bytes, source: str) -> None:
    """A UTF-8 BOM, named: tomllib's own error is "line 1, column 1: Invalid statement"."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ConfigError(
            f"{source}: starts with a UTF-8 byte order mark (BOM), which the TOML reader refuses",
            hint='save the file as UTF-8 without a BOM (in most editors: "UTF-8", not "UTF-8 '
                 'with BOM")')


def check_depth(data: dict[str, Any], source: str) -> None:
    """Refuse a parsed document nested deeper than MAX_DEPTH (walked without recursion)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise _too_deep(source, path, None)
        children = node.items() if isinstance(node, dict) else enumerate(node)
        stack.extend((child, (*path, key)) for key, child in children
                     if isinstance(child, (dict, list)))


def nesting_error(exc: RecursionError, source: str) -> ConfigError:
    """The TOML reader's RecursionError as a ConfigError naming the key and the line."""
    path, line = _where_the_reader_stopped(exc.__traceback__)
    return _too_deep(source, path, line)


def _too_deep(source: str, path: tuple[str | int, ...], line: str | None) -> ConfigError:
    keys: list[str] = []
    for part in path:
        if isinstance(part, int) or len(keys) == _SHOWN_KEYS:
            break
        keys.append(part)
    shown = format_path(tuple(keys)) + ("…" if len(keys) == _SHOWN_KEYS else "")
    where = f"{shown} ({line})" if line else shown
    return ConfigError(f"{source}: {where}: nested more than {MAX_DEPTH} levels deep",
                       hint=DEPTH_HINT)


def _where_the_reader_stopped(
        tb: TracebackType | None) -> tuple[tuple[str | int, ...], str | None]:
    """The key path and `line L, column C` the parser was at, read from its frames (the
    parse functions of tomllib and tomli take `src` and `pos`; keys are in `header` and
    `key`); what cannot be found is left out."""
    keys: list[str | int] = []
    src, pos, in_array = None, None, False
    while tb is not None:
        frame, tb = tb.tb_frame, tb.tb_next
        if not frame.f_code.co_filename.replace("\\", "/").endswith(_PARSER_FILES):
            continue
        local, name = frame.f_locals, frame.f_code.co_name
        if name == "key_value_rule" and not keys:
            keys += _key(local.get("header"))
        elif name == "parse_key_value_pair" and not in_array:
            keys += _key(local.get("key"))
        in_array = in_array or name == "parse_array"
        if isinstance(local.get("src"), str) and isinstance(local.get("pos"), int):
            src, pos = local["src"], local["pos"]
    if src is None or pos is None:
        return tuple(keys), None
    start = src.rfind("\n", 0, pos) + 1
    return tuple(keys), f"line {src.count(chr(10), 0, pos) + 1}, column {pos - start + 1}"


def _key(value: object) -> list[str | int]:
    return [part for part in value if isinstance(part, str)] if isinstance(value, tuple) else []
