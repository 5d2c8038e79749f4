"""Reads an argument list against one command's grammar (`cli/option_table.py`) without
click, and hands back exactly the keyword arguments click would pass the command's body.

It follows click's own parser (`click/parser.py`) for everything it accepts: `--opt VALUE`
and `--opt=VALUE`, short options with their value attached (`-n5`) or clustered (`-qn5`),
the last of a repeated option winning unless it is `multiple`, options between the
positional arguments. Whatever it is not sure of — help, `--`, an unknown option, a missing
value, a value click would refuse — it answers None, so that click parses the same list and
reports it with its usual words. The start-up path (`cli/startup.py`) runs on these answers,
so this module imports neither click nor `typing`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, TypedDict

    class Grammar(TypedDict):
        """One command's options and arguments, as `option_table_source.py` writes them."""

        options: dict[str, tuple[str, str, object]]  # name → (parameter, kind, flag's value)
        arguments: tuple[tuple[str, int], ...]  # (parameter, nargs), in order
        defaults: dict[str, object]  # every parameter → what click passes when not given
        required: tuple[str, ...]  # (their default is never used)
        multiple: tuple[str, ...]  # parameters that collect every value given, as a tuple
        choices: dict[str, tuple[str, ...]]
        ints: dict[str, tuple[int | None, int | None]]  # parameter → (min, max) inclusive
        ignore_unknown_options: bool

    Found = dict[str, list[object]]

INVALID = object()  # a value click's type would refuse


def parse_params(grammar: Grammar, args: Sequence[str]) -> dict[str, Any] | None:
    """The command body's keyword arguments for `args` (what follows the command's name),
    or None to let click parse them."""
    found: Found = {}
    positional: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            return None
        if arg[:1] != "-" or arg == "-":
            positional.append(arg)
        elif not _take_option(grammar, arg, rest, found, positional):
            return None
    if not _take_arguments(grammar, positional, found):
        return None
    return _params(grammar, found)


def _take_option(grammar: Grammar, arg: str, rest: list[str], found: Found,
                 positional: list[str]) -> bool:
    """One option token, as click's `_process_opts` reads it; False when click must."""
    name, equals, value = arg.partition("=")
    option = None if _is_short(name) else grammar["options"].get(name)
    if option is not None:
        return _store(option, value if equals else None, rest, found)
    if not arg.startswith("--"):
        return _take_short(grammar, arg, rest, found, positional)
    if grammar["ignore_unknown_options"]:
        positional.append(arg)
        return True
    return False


def _take_short(grammar: Grammar, arg: str, rest: list[str], found: Found,
                positional: list[str]) -> bool:
    """`-q`, `-n5`, `-qn 5`: each letter an option until one takes the rest as its value."""
    unknown = ""
    stored = True
    for end, letter in enumerate(arg[1:], start=2):
        option = grammar["options"].get(f"-{letter}")
        if option is None:
            if not grammar["ignore_unknown_options"]:
                return False
            unknown += letter
            continue
        if option[1] == "value" and end < len(arg):
            rest.insert(0, arg[end:])
            stored = _store(option, None, rest, found)
            break
        if not _store(option, None, rest, found):
            return False
    if unknown:
        positional.append(f"-{unknown}")
    return stored


def _store(option: tuple[str, str, object], explicit: str | None, rest: list[str],
           found: Found) -> bool:
    """Record one occurrence; False for help (kind "click"), a missing value or a value
    given to a flag."""
    parameter, kind, constant = option
    if kind == "value":
        if explicit is None:
            if not rest:
                return False
            explicit = rest.pop(0)
        found.setdefault(parameter, []).append(explicit)
        return True
    if kind == "click" or explicit is not None:
        return False
    found.setdefault(parameter, []).append(constant)
    return True


def _take_arguments(grammar: Grammar, positional: list[str], found: Found) -> bool:
    """Positional arguments in order; the last may take any number (nargs -1). False when
    some are left over (click names them)."""
    for parameter, nargs in grammar["arguments"]:
        if nargs == -1:
            found[parameter], positional = list(positional), []
        elif positional:
            found[parameter] = [positional.pop(0)]
    return not positional


def _params(grammar: Grammar, found: Found) -> dict[str, Any] | None:
    """Every parameter's value: converted as click's type would, else its default."""
    params: dict[str, Any] = {}
    for parameter, default in grammar["defaults"].items():
        given = found.get(parameter)
        if not given:
            if parameter in grammar["required"]:
                return None
            params[parameter] = default
            continue
        multiple = parameter in grammar["multiple"]  # else the last one given wins
        values = [_convert(grammar, parameter, value) for value in given[0 if multiple else -1:]]
        if any(value is INVALID for value in values):
            return None
        params[parameter] = tuple(values) if multiple else values[0]
    return params


def _convert(grammar: Grammar, parameter: str, value: object) -> object:
    """What click's type makes of `value`: a choice as given, an int in its range."""
    if not isinstance(value, str):
        return value  # a flag's constant
    if parameter in grammar["choices"]:
        return value if value in grammar["choices"][parameter] else INVALID
    if parameter not in grammar["ints"]:
        return value
    try:
        number = int(value)
    except ValueError:
        return INVALID
    low, high = grammar["ints"][parameter]
    in_range = (low is None or number >= low) and (high is None or number <= high)
    return number if in_range else INVALID


def _is_short(name: str) -> bool:
    """click's short option: one dash and one letter (`-q`); `-qn` is a cluster of them."""
    return len(name) == 2 and name[0] == "-" and name[1] != "-"
