"""The command reference, generated from the click commands so it cannot drift.

One walk over the command tree (`cli/tree.py`) feeds three renderings: `docs/commands.md`,
the man page `man/git-correx.1` (installed into `share/man/man1`, where `man git-correx`
and `git correx --help` find it) and the text `git correx help` prints. In a checkout,
`python -m gitcorrex.cli.reference --write` regenerates both files; a test fails when
either is stale.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import click

from gitcorrex.cli import manpage
from gitcorrex.cli.tree import PROG, Entry, entries
from gitcorrex.errors import UsageError

CHECKOUT = Path(__file__).resolve().parents[2]
MARKDOWN = Path("docs") / "commands.md"
MAN = Path("man") / "git-correx.1"

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


def command_tree() -> click.Group:
    """The root group with every command registered."""
    from gitcorrex.cli.root import _register_commands, root

    _register_commands()
    return root


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


def command_text(words: tuple[str, ...]) -> str:
    """The text of the command named by `words`; an unknown name is a usage error."""
    for entry in entries(command_tree()):
        if entry.words == words:
            return text_of(entry)
    raise UsageError(f"no such command: {' '.join((PROG, *words))}",
                     hint="`git correx help` lists every command")


def text_page() -> str:
    """What `git correx help` prints: the man page's content without man."""
    found = entries(command_tree())
    out = [f"{PROG} - {found[0].summary}", "", text_of(found[0])]
    for entry in found[1:]:
        out += ["-" * 79, entry.name, "", text_of(entry)]
    out += ["EXIT STATUS", *(_item(c, m) for c, m in EXIT_CODES), "", "FILES",
            *(_item(f, m) for f, m in FILES), "", "EXAMPLES",
            *(_item(c, m) for c, m in EXAMPLES), ""]
    return "\n".join(out)


def markdown_page() -> str:
    """docs/commands.md."""
    found = entries(command_tree())
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


def man_page() -> str:
    """man/git-correx.1."""
    return manpage.render(entries(command_tree()), EXIT_CODES, FILES, EXAMPLES)


def _item(name: str, text: str) -> str:
    """`  name   text…` with the text wrapped at column 25 (alone below a long name)."""
    head, indent = f"  {name}", " " * 25
    if len(head) < 24:
        return textwrap.fill(text, 79, initial_indent=head.ljust(25), subsequent_indent=indent)
    return head + "\n" + textwrap.fill(text, 79, initial_indent=indent, subsequent_indent=indent)


def _anchor(title: str) -> str:
    return "".join(c for c in title.lower().replace(" ", "-") if c.isalnum() or c == "-")


def stale_files(root: Path = CHECKOUT) -> list[Path]:
    """The generated files under `root` that differ from what the commands say now."""
    wanted = {MARKDOWN: markdown_page(), MAN: man_page()}
    return [path for path, text in wanted.items()
            if not (root / path).is_file() or (root / path).read_text("utf-8") != text]


def main(argv: list[str]) -> int:
    """`--write` regenerates the files of a checkout; `--check` exits 1 when one is stale."""
    if not (CHECKOUT / "pyproject.toml").is_file():
        print(f"not a checkout of git correx: {CHECKOUT}", file=sys.stderr)
        return 2
    stale = stale_files()
    if "--write" in argv:
        for path, text in ((MARKDOWN, markdown_page()), (MAN, man_page())):
            (CHECKOUT / path).parent.mkdir(exist_ok=True)
            (CHECKOUT / path).write_text(text, "utf-8")
        return 0
    for path in stale:
        print(f"stale: {path} (run python -m gitcorrex.cli.reference --write)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
