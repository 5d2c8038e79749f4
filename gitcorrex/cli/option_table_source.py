"""Writes `cli/option_table.py` from the click commands themselves:
`python -m gitcorrex.cli.option_table_source` (tests/cli/test_option_table.py fails when the
committed table differs from what this writes).

The click decorators are the one declaration of every option. The start-up path
(`cli/startup.py`) must not import click, so it reads this generated copy: names and aliases,
whether each takes a value, `multiple`, choices, integer ranges, and the values click itself
hands the command body for a flag and for a parameter not given (asked of click's parser,
never written here). A declaration the click-free parser cannot follow exactly (an envvar, a
callback, a prompt, a type it does not convert) stops the generation with what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gitcorrex.cli.root import _register_commands, root
from gitcorrex.cli.startup import RUNNERS

TABLE = Path(__file__).with_name("option_table.py")
REGENERATE = "python -m gitcorrex.cli.option_table_source"
DOC = f'''"""The options and arguments of the commands `cli/startup.py` answers before click loads,
as plain data read by `cli/option_parser.py`. Generated from the click commands by
`{REGENERATE}` (tests/cli/test_option_table.py fails when it is
stale): change the click declaration, never this file.
"""
'''


class UnsupportedDeclaration(Exception):
    """A click declaration the start-up parser cannot reproduce: teach option_parser.py, or
    serve the command through click only (remove it from startup.RUNNERS)."""


def option_table_source() -> str:
    """The text of `gitcorrex/cli/option_table.py`."""
    entries = "".join(f"    {_literal(path)}: {_render(grammar, 1)},\n"
                      for path, grammar in command_grammars().items())
    return (f"{DOC}\nfrom __future__ import annotations\n\n"
            "TYPE_CHECKING = False  # no `typing` at run time on the start-up path\n"
            "if TYPE_CHECKING:\n    from gitcorrex.cli.option_parser import Grammar\n\n"
            f"COMMANDS: dict[tuple[str, ...], Grammar] = {{\n{entries}}}\n")


def command_grammars() -> dict[tuple[str, ...], dict[str, Any]]:
    """Every command path the start-up path serves → its grammar."""
    return {path: grammar(path) for path in RUNNERS}


def grammar(path: tuple[str, ...]) -> dict[str, Any]:
    """One command's grammar, read from its click object and its real context."""
    command, context = command_context(path)
    _refuse_context(path, command, context)
    table: dict[str, Any] = {"options": {}, "arguments": (), "defaults": {}, "required": (),
                             "multiple": (), "choices": {}, "ints": {},
                             "ignore_unknown_options": context.ignore_unknown_options}
    defaults = parsed(path, [])
    for param in command.get_params(context):
        if not param.expose_value:  # help: click answers it
            table["options"].update(dict.fromkeys(_names(param), ("", "click", None)))
            continue
        name = _refuse_param(path, param)
        table["defaults"][name] = defaults.get(name)
        _add_param(table, path, param, name)
    return table


def _add_param(table: dict[str, Any], path: tuple[str, ...], param: click.Parameter,
               name: str) -> None:
    if isinstance(param, click.Argument):
        table["arguments"] += ((name, param.nargs),)
    elif _is_flag(param):
        table["options"].update({option: (name, "flag", parsed(path, [option])[name])
                                 for option in _names(param)})
    else:
        table["options"].update(dict.fromkeys(_names(param), (name, "value", None)))
    if param.required:
        table["required"] += (name,)
    if param.multiple or param.nargs == -1:
        table["multiple"] += (name,)
    _add_type(table, path, param, name)


def _add_type(table: dict[str, Any], path: tuple[str, ...], param: click.Parameter,
              name: str) -> None:
    kind = param.type
    if isinstance(kind, click.Choice) and all(isinstance(c, str) for c in kind.choices):
        table["choices"][name] = tuple(kind.choices)
    elif isinstance(kind, click.IntRange) and not (kind.min_open or kind.max_open
                                                    or kind.clamp):
        table["ints"][name] = (kind.min, kind.max)
    elif type(kind) is click.types.IntParamType:
        table["ints"][name] = (None, None)
    elif not (type(kind) in (click.types.StringParamType, click.types.UnprocessedParamType)
              or (type(kind) is click.types.BoolParamType and _is_flag(param))):
        raise UnsupportedDeclaration(f"{' '.join(path)}: {name}: type {kind!r}")


def _refuse_param(path: tuple[str, ...], param: click.Parameter) -> str:
    """The parameter's name, when the click-free parser reproduces it exactly."""
    refused = {"an envvar": param.envvar, "a callback": param.callback,
               "a callable default": callable(param.default),
               "a deprecation": getattr(param, "deprecated", False),
               "a prompt": getattr(param, "prompt", None),
               "a count": getattr(param, "count", False),
               "an optional value": getattr(param, "_flag_needs_value", False),
               "a multiple flag": _is_flag(param) and param.multiple,
               "nargs other than 1 or -1": param.nargs not in (1, -1),
               "an option with nargs -1": param.nargs == -1 and not isinstance(
                   param, click.Argument),
               "no name": not param.name}
    found = [what for what, present in refused.items() if present]
    if found or any(not name.startswith("-") for name in _names(param)):
        raise UnsupportedDeclaration(f"{' '.join(path)}: {param.name}: {found or 'a prefix'}")
    return str(param.name)


def _refuse_context(path: tuple[str, ...], command: click.Command,
                    context: click.Context) -> None:
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    refused = {"token_normalize_func": context.token_normalize_func is not None,
               "auto_envvar_prefix": context.auto_envvar_prefix is not None,
               "default_map": context.default_map is not None,
               "allow_extra_args": context.allow_extra_args,
               "no allow_interspersed_args": not context.allow_interspersed_args,
               "no_args_is_help": command.no_args_is_help,
               "deprecated": bool(command.deprecated),
               "nargs -1 before the last argument": any(
                   p.nargs == -1 for p in arguments[:-1])}
    found = [what for what, present in refused.items() if present]
    if found:
        raise UnsupportedDeclaration(f"{' '.join(path)}: {found}")


def command_context(path: tuple[str, ...]) -> tuple[click.Command, click.Context]:
    """The command and the context click gives it under `git correx` (help names and
    context settings are inherited from the root group, as when the CLI runs)."""
    _register_commands()
    context = root.make_context("git correx", [], resilient_parsing=True)
    command: click.Command = root
    for name in path:
        found = command.get_command(context, name) if isinstance(command, click.Group) else None
        if found is None:
            raise UnsupportedDeclaration(f"no command {' '.join(path)}")
        command = found
        context = command.make_context(name, [], parent=context, resilient_parsing=True)
    return command, context


def parsed(path: tuple[str, ...], args: list[str]) -> dict[str, Any]:
    """What click's own parser hands the command body for `args` (missing required
    values left out: resilient parsing)."""
    command, context = command_context(path)
    return command.make_context(path[-1], args, parent=context.parent,
                                resilient_parsing=True).params


def _is_flag(param: click.Parameter) -> bool:
    return isinstance(param, click.Option) and param.is_flag


def _names(param: click.Parameter) -> list[str]:
    return [*param.opts, *param.secondary_opts] if isinstance(param, click.Option) else []


def _render(value: object, depth: int) -> str:
    """Python source for plain data: a dict one entry a line, a tuple too when it would not
    fit in a line (ruff's 100 columns); anything else as a literal."""
    inner = "    " * (depth + 1)
    if isinstance(value, dict) and value:
        lines = "".join(f"{inner}{_literal(k)}: {_render(v, depth + 1)},\n"
                        for k, v in value.items())
        return "{\n" + lines + "    " * depth + "}"
    if isinstance(value, tuple) and len(_literal(value)) > 100 - len(inner) - 30:
        lines = "".join(f"{inner}{_render(item, depth + 1)},\n" for item in value)
        return "(\n" + lines + "    " * depth + ")"
    return _literal(value)


def _literal(value: object) -> str:
    """A literal in the house's quotes; a tuple of one keeps its comma."""
    if isinstance(value, tuple):
        items = ", ".join(_literal(item) for item in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, str) and value.isprintable() and not {'"', "\\"} & set(value):
        return f'"{value}"'
    return repr(value)


def main() -> None:
    TABLE.write_text(option_table_source())
    print(f"wrote {TABLE}")


if __name__ == "__main__":
    main()
