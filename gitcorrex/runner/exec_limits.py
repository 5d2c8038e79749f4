"""What exec would refuse, found before exec: a NUL, an argument too long, too much in all.

`subprocess` reports these as ValueError ("embedded null byte") or OSError E2BIG ("Argument
list too long"), which reach the error boundary as a bug. The profile already refuses a NUL
and a `run` over 16 KiB with the key named; this is the last check, against the system's
own limits, with the environment the command gets: the kernel counts the program's path,
every argument and every `NAME=value`, each with its NUL and pointer, against ARG_MAX
(`sysconf(SC_ARG_MAX)`), and on Linux refuses any one string over MAX_ARG_STRLEN.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from gitcorrex.errors import ConfigError, CorrexError, UnavailableError

MAX_ARG_STRLEN = 131072  # Linux: 32 pages, the string's NUL included
_POINTER = 8


def exec_refusal(argv: Sequence[str], env: Mapping[str, str]) -> CorrexError | None:
    """The error exec would end in for `argv` under `env`, as a CorrexError; None if none.
    The command line's own fault is a ConfigError (2), the environment's UnavailableError (3)."""
    program = argv[0] if argv else "(nothing)"
    args = [os.fsencode(arg) for arg in argv]
    for index, arg in enumerate(args):
        if b"\0" in arg:
            return ConfigError(f"cannot run {program!r}: argument {index} holds a NUL character",
                               hint="remove the NUL from the command line")
        if _is_linux() and len(arg) + 1 > MAX_ARG_STRLEN:
            return ConfigError(f"cannot run {program!r}: argument {index} is {len(arg):,} "
                               f"bytes, over the {MAX_ARG_STRLEN - 1:,} one argument may hold",
                               hint="put long argument lists in a script, or in a file the "
                                    "program reads")
    return _environment_refusal(program, args, env)


def _environment_refusal(program: str, args: list[bytes],
                         env: Mapping[str, str]) -> CorrexError | None:
    strings = {name: len(os.fsencode(name)) + len(os.fsencode(value)) + 2
               for name, value in env.items()}
    largest = max(strings, key=lambda name: strings[name], default=None)
    if largest is not None and _is_linux() and strings[largest] - 1 > MAX_ARG_STRLEN:
        return UnavailableError(f"cannot run {program!r}: the environment variable {largest} "
                                f"is {strings[largest]:,} bytes, over what exec passes",
                                hint=f"unset or shorten {largest}")
    limit = _arg_max()
    command = sum(len(arg) + 1 + _POINTER for arg in args) + len(os.fsencode(program)) + 1
    environment = sum(size + _POINTER for size in strings.values())
    if limit is None or command + environment <= limit:
        return None
    return UnavailableError(
        f"cannot run {program!r}: its arguments ({command:,} bytes) and the environment "
        f"({environment:,} bytes) exceed the system's limit of {limit:,} (ARG_MAX)",
        hint=f"shorten the environment (its largest variable is {largest}) or the command line")


def _arg_max() -> int | None:
    try:
        limit = os.sysconf("SC_ARG_MAX")
    except (ValueError, OSError):
        return None
    return limit if limit > 0 else None


def _is_linux() -> bool:
    return sys.platform.startswith("linux")
