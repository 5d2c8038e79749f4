"""The command reference, generated from the click commands so it cannot drift.

cli/manual.py renders the registered command tree as `docs/commands.md` and the man page
`man/git-correx.1` (installed into `share/man/man1`, where `man git-correx` and
`git correx --help` find it); `git correx help` prints the same text. In a checkout,
`python -m gitcorrex.cli.reference --write` regenerates both files; a test fails when
either is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.cli import manual
from gitcorrex.errors import UsageError
from gitcorrex.model.conclusion import Conclusion

if TYPE_CHECKING:
    import click

CHECKOUT = Path(__file__).resolve().parents[2]
MARKDOWN = Path("docs") / "commands.md"
MAN = Path("man") / "git-correx.1"


def command_tree() -> click.Group:
    """The root group with every command registered."""
    from gitcorrex.cli.root import _register_commands, root

    _register_commands()
    return root


def markdown_page() -> str:
    """docs/commands.md, from every registered command."""
    return manual.markdown_page(command_tree())


def man_page() -> str:
    """man/git-correx.1, from every registered command."""
    return manual.man_page(command_tree())


def stale_files(root: Path = CHECKOUT) -> list[Path]:
    """The generated files under `root` that differ from what the commands say now."""
    wanted = {MARKDOWN: markdown_page(), MAN: man_page()}
    return [path for path, text in wanted.items()
            if not (root / path).is_file() or (root / path).read_text("utf-8") != text]


def main(argv: list[str]) -> Conclusion:
    """`--write` regenerates the files of a checkout; `--check` exits 1 when one is stale."""
    if not (CHECKOUT / "pyproject.toml").is_file():
        raise UsageError(f"not a checkout of git correx: {CHECKOUT}",
                         hint="run it in a checkout of the git correx repository")
    stale = stale_files()
    if "--write" in argv:
        for path, text in ((MARKDOWN, markdown_page()), (MAN, man_page())):
            (CHECKOUT / path).parent.mkdir(exist_ok=True)
            (CHECKOUT / path).write_text(text, "utf-8")
        return Conclusion.OK
    for path in stale:
        print(f"stale: {path} (run python -m gitcorrex.cli.reference --write)", file=sys.stderr)
    return Conclusion.CHECK_FAILED if stale else Conclusion.OK


if __name__ == "__main__":
    from gitcorrex.cli.boundary import exit_now, run_guarded

    exit_now(run_guarded(lambda: main(sys.argv[1:])))
