"""The start-up parser (cli/option_parser.py) against click's own, for every command the
generated table holds: over many argument lists built from that table (each option alone,
with `=`, attached, repeated, combined, unknown options, help, `--`, positionals), it
answers exactly the parameters click's parser hands the command body, or None — and None
only where click refuses the list or the list holds `--`, so that which options were given
never decides whether click is loaded."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click
import pytest

from gitcorrex.cli.option_parser import parse_params
from gitcorrex.cli.option_table import COMMANDS
from gitcorrex.cli.root import _register_commands, root

if TYPE_CHECKING:
    from gitcorrex.cli.option_parser import Grammar

UNKNOWN = [["--frobnicate"], ["--frobnicate=1"], ["-z"], ["--"], ["--", "-x"], ["--jso"],
           ["-"], ["x"], ["HEAD~1"], ["-zq"]]
STRINGS = ["v", "", "-", "a=b", "--json", "-q", "é"]
INTS = ["1", "3", "0", "-2", "x", " 4", "+5", "1_0", "=4"]


def click_params(argv: Sequence[str]) -> dict[str, Any] | None:
    """The parameters click hands the command body for `git correx ARGV` (never invoked),
    resolving groups as click's own `Group.invoke` does; None when click refuses or helps."""
    _register_commands()
    try:
        context = root.make_context("git correx", list(argv))
        command: click.Command = root
        while isinstance(command, click.Group):
            protected = context.__dict__.get("_protected_args", None)
            args = [*(context.protected_args if protected is None else protected),
                    *context.args]
            name, found, rest = command.resolve_command(context, args)
            assert name is not None and found is not None
            command = found
            context = command.make_context(name, rest, parent=context)
    except (click.ClickException, click.exceptions.Exit):
        return None
    return context.params


def samples(grammar: Grammar, parameter: str) -> list[str]:
    """Values worth trying for `parameter`: its choices and near misses, numbers in and out
    of range, and strings that look like options."""
    if parameter in grammar["choices"]:
        choices = list(grammar["choices"][parameter])
        return [*choices, "nope", choices[0].upper()]
    return INTS if parameter in grammar["ints"] else STRINGS


def pieces(grammar: Grammar) -> list[list[str]]:
    """Argument pieces from the table: every option in every spelling, positionals, and what
    click must answer itself."""
    found: list[list[str]] = [*UNKNOWN]
    for name, (parameter, kind, _) in grammar["options"].items():
        found += [[name], [f"{name}=x"], [f"{name}="]]
        if kind != "value":
            continue
        for value in samples(grammar, parameter):
            found += [[name, value], [f"{name}={value}"]]
            if len(name) == 2:
                found.append([f"{name}{value}"])
    for parameter, _ in grammar["arguments"]:
        found += [[value] for value in samples(grammar, parameter)]
    shorts = [name[1] for name in grammar["options"] if len(name) == 2]
    found += [[f"-{a}{b}"] for a in shorts for b in shorts]
    found += [[f"-{a}{b}", "3"] for a in shorts for b in shorts]
    return found


def forms(grammar: Grammar) -> Iterator[list[str]]:
    """Nothing; each piece alone and twice; each pair; then seeded random combinations."""
    every = pieces(grammar)
    yield []
    for piece in every:
        yield piece
        yield piece + piece
    for first in every:
        for second in every[::3]:
            yield first + second
    chance = random.Random(20240611)
    for _ in range(1500):
        chosen = chance.sample(every, chance.randint(2, 6))
        yield [token for piece in chosen for token in piece]


def exactly(params: dict[str, Any] | None) -> str:
    """Comparable with types: True is not 1, ("a",) is not ["a"], "3" is not 3."""
    return repr(None if params is None else sorted(params.items()))


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_the_parser_answers_what_click_parses_or_leaves_it_to_click(
        path: tuple[str, ...]) -> None:
    grammar = COMMANDS[path]
    served = 0
    for form in forms(grammar):
        expected = click_params([*path, *form])
        got = parse_params(grammar, form)
        if got is None:
            assert expected is None or "--" in form, (path, form, expected)
            continue
        served += 1
        assert exactly(got) == exactly(expected), (path, form)
    assert served >= 3  # not vacuous: `state` has the fewest forms click accepts


def test_every_option_alone_is_answered_without_click() -> None:
    """Which options were given never sends a call to click: each one, in its plainest
    spelling with a value click accepts, is parsed here."""
    for path, grammar in COMMANDS.items():
        required = [samples(grammar, name)[0] for name in grammar["required"]]
        for name, (parameter, kind, _) in grammar["options"].items():
            if kind == "click":
                continue
            value = [samples(grammar, parameter)[0]] if kind == "value" else []
            form = [*required, name, *value]
            assert parse_params(grammar, form) == click_params([*path, *form]), (path, form)


def test_a_repeated_option_keeps_what_click_keeps() -> None:
    verify = COMMANDS[("verify",)]
    params = parse_params(verify, ["--artifact", "a=1", "--artifact=b=2", "--stage", "s",
                                   "--stage=t", "-q", "--quiet"])
    assert params is not None
    assert (params["artifacts"], params["stage"], params["quiet"]) == (("a=1", "b=2"), "t", True)
    assert parse_params(COMMANDS[("log",)], ["-n5", "--max-count", "2"]) == {
        "revisions": (), "limit": 2, "show_all": False, "verify_signatures": False,
        "as_json": False}


def test_what_click_must_answer_is_left_to_it() -> None:
    verify = COMMANDS[("verify",)]
    for form in (["--json=x"], ["--json="], ["--expect"], ["-h"], ["--help"], ["-qh"],
                 ["--", "x"], ["--frobnicate"], ["--jso"], ["stray"]):
        assert parse_params(verify, form) is None, form
    for form in (["-n", "0"], ["-n", "x"], ["-n=4"]):
        assert parse_params(COMMANDS[("log",)], form) is None, form
    assert parse_params(COMMANDS[("assess",)], ["--hook", "Codex"]) is None
    assert parse_params(COMMANDS[("hook", "run")], []) is None  # NAME is required
