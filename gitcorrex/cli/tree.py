"""The click command tree as plain entries: what `-h`, `help`, the man page and
docs/commands.md all say about each command, read from the commands themselves.

Click cuts a command's summary at 45 characters in a group's listing ("Judge `write` or
`read` of PATH..."); `give_full_summaries` sets each summary to its docstring's whole first
paragraph instead, so no listing ends mid-sentence.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass

import click

PROG = "git correx"


@dataclass(frozen=True)
class Entry:
    """One command: its words after `git correx`, synopsis, help paragraphs and options."""

    words: tuple[str, ...]
    usage: str
    summary: str
    paragraphs: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    subcommands: tuple[tuple[str, str], ...]

    @property
    def name(self) -> str:
        return " ".join((PROG, *self.words))


def paragraphs_of(text: str | None) -> tuple[str, ...]:
    """A docstring's paragraphs, each on one line (click re-wraps them anyway)."""
    blocks = inspect.cleandoc(text or "").split("\n\n")
    return tuple(" ".join(line.strip() for line in block.splitlines()) for block in blocks
                 if block.strip())


def summary_of(command: click.Command) -> str:
    """The whole first paragraph of the help; never cut."""
    found = paragraphs_of(command.help)
    return found[0] if found else ""


def walk(command: click.Command, words: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], click.Command]]:
    """Every visible command, depth first; subcommands in the order `-h` lists them."""
    yield words, command
    if isinstance(command, click.Group):
        for name in command.list_commands(click.Context(command)):
            sub = command.commands[name]
            if not sub.hidden:
                yield from walk(sub, (*words, name))


def give_full_summaries(root: click.Group) -> None:
    """Set each command's short help to its full first paragraph (see the module doc)."""
    for _, command in walk(root):
        if not command.short_help:
            command.short_help = summary_of(command)


def entries(root: click.Group) -> list[Entry]:
    """One entry per visible command, the root first."""
    found = []
    for words, command in walk(root):
        context = _context(root, words)
        pieces = " ".join(command.collect_usage_pieces(context))
        options = tuple(record for param in command.get_params(context)
                        if isinstance(param, click.Option)
                        and (record := param.get_help_record(context)) is not None)
        subs: tuple[tuple[str, str], ...] = ()
        if isinstance(command, click.Group):
            subs = tuple((name, summary_of(command.commands[name]))
                         for name in command.list_commands(context)
                         if not command.commands[name].hidden)
        found.append(Entry(words=words, usage=" ".join((PROG, *words, pieces)),
                           summary=summary_of(command), paragraphs=paragraphs_of(command.help),
                           options=options, subcommands=subs))
    return found


def _context(root: click.Group, words: tuple[str, ...]) -> click.Context:
    context = click.Context(root, info_name=PROG, **root.context_settings)
    command: click.Command = root
    for word in words:
        if not isinstance(command, click.Group):
            raise TypeError(f"{word}: {command.name} has no subcommands")
        command = command.commands[word]
        context = click.Context(command, info_name=word, parent=context)
    return context
