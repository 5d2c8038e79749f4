"""The manual, rendered from a command tree: `git correx help`'s text, docs/commands.md and
the man page `man/git-correx.1` (one walk over the tree, `cli/tree.py`, feeds all three).

It takes the root group as an argument and imports no command: the help command hands it the
tree click is running, and cli/reference.py (the generator) the fully registered one.
"""

from __future__ import annotations

import textwrap

import click

from gitcorrex.cli import manpage
from gitcorrex.cli.tree import PROG, Entry, entries
from gitcorrex.errors import UsageError

EXIT_CODES = (
    ("0", "ok; verify: pass, or nothing to verify"),
    ("1", "check failed: fail, BLOCK, a non-pass verdict"),
    ("2", "usage or configuration error (bad arguments, invalid profile, no repository, no "
          "git identity git accepts, an object format libgit2 cannot read)"),
    ("3", "unavailable: timeout, missing prerequisite, command not found, workspace changed "
          "during the run, ledger contention exhausted, missing history, a git command failed; "
          "no space left, quota exceeded, read-only file system, permission denied"),
    ("4", "internal error (a bug: the traceback is printed)"),
    ("128+N", "stopped by signal N: 130 SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT"),
)
FILES = (
    (".correx.toml", "the profile: commands, expectations, defaults and stages (docs/profile.md)"),
    ("refs/notes/correx", "the ledger: one JSON line per event, in git notes (docs/ledger.md)"),
    ("$GIT_COMMON_DIR/correx/", "local state: the private index, caches, and plans/ "
                                "(`git correx plan path`), never part of a state key"),
)
EXAMPLES = (
    ("git correx init && git add .correx.toml && git commit -m profile",
     "write a starter profile and commit it"),
    ("git correx verify", "run the default expectation on this state and record it"),
    ("git correx log main..HEAD", "the latest verification of each commit's tree"),
    ("git correx report main..HEAD --format markdown", "a summary for a pull request"),
    ("git correx check origin/main..HEAD", "the CI gate on write manifests"),
)


def text_of(entry: Entry) -> str:
    """One command as plain text: usage, help paragraphs, options, subcommands."""
    out = [f"Usage: {entry.usage}", ""]
    out += [textwrap.fill(p, 79, initial_indent="  ", subsequent_indent="  ") + "\n"
            for p in entry.paragraphs]
    if entry.options:
        out += ["Options:", *(_item(o, h) for o, h in entry.options), ""]
    if entry.subcommands:
        out += ["Commands:", *(_item(n, s) for n, s in entry.subcommands), ""]
    return "\n".join(out)


def command_text(root: click.Group, words: tuple[str, ...]) -> str:
    """The text of the command named by `words`; an unknown name is a usage error."""
    for entry in entries(root):
        if entry.words == words:
            return text_of(entry)
    asked = " ".join(words)
    known = [" ".join(entry.words) for entry in entries(root) if entry.words]
    import difflib  # only for a name that is wrong

    close = difflib.get_close_matches(asked, known, n=3)
    also = f"did you mean {' or '.join(f'`{PROG} help {name}`' for name in close)}? " \
        if close else ""
    raise UsageError(f"{PROG} has no command {asked!r}",
                     hint=f"{also}`{PROG} help` lists every command")


def text_page(root: click.Group) -> str:
    """What `git correx help` prints: the man page's content without man."""
    found = entries(root)
    out = [f"{PROG} - {found[0].summary}", "", text_of(found[0])]
    for entry in found[1:]:
        out += ["-" * 79, entry.name, "", text_of(entry)]
    out += ["EXIT STATUS", *(_item(c, m) for c, m in EXIT_CODES), "", "FILES",
            *(_item(f, m) for f, m in FILES), "", "EXAMPLES",
            *(_item(c, m) for c, m in EXAMPLES), ""]
    return "\n".join(out)


def markdown_page(root: click.Group) -> str:
    """docs/commands.md."""
    found = entries(root)
    out = ["# Command reference", "",
           "Generated from the commands by `python -m gitcorrex.cli.reference --write`; "
           "do not edit. The same text is `git correx help [COMMAND]` and `man git-correx`.",
           ""]
    out += [f"- [`{e.name}`](#{_anchor(e.name)}): {e.summary}" for e in found[1:]]
    for entry in found:
        out += ["", f"## {entry.name}", "", "```text", text_of(entry).rstrip(), "```"]
    out += ["", "## Exit codes", "", "| code | meaning |", "|---|---|"]
    out += [f"| {code} | {meaning} |" for code, meaning in EXIT_CODES]
    return "\n".join(out) + "\n"


def man_page(root: click.Group) -> str:
    """man/git-correx.1."""
    return manpage.render(entries(root), EXIT_CODES, FILES, EXAMPLES)


def _item(name: str, text: str) -> str:
    """`  name   text…` with the text wrapped at column 25 (alone below a long name)."""
    head, indent = f"  {name}", " " * 25
    if len(head) < 24:
        return textwrap.fill(text, 79, initial_indent=head.ljust(25), subsequent_indent=indent)
    return head + "\n" + textwrap.fill(text, 79, initial_indent=indent, subsequent_indent=indent)


def _anchor(title: str) -> str:
    return "".join(c for c in title.lower().replace(" ", "-") if c.isalnum() or c == "-")
