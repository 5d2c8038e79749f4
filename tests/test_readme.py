"""README.md is a short product page whose commands and links hold; docs/ is reachable.

- README stays under ~250 lines; its set-up commands are the ones CI runs (.ci/run);
- every command it names (the table, the tour) exists in the CLI, and every command the
  CLI offers has a row in its table;
- every relative link in README.md and docs/ resolves (file and `#anchor`), and every page
  under docs/ is reachable from docs/index.md.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

README = REPO_ROOT / "README.md"
DOCS = REPO_ROOT / "docs"
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
COMMAND_WORD = re.compile(r"[a-z][a-z-]*$")


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def relative_links(path: Path) -> list[str]:
    """Link targets outside fenced code blocks, minus URLs."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, flags=re.M):
        slug = "".join(c for c in heading.lower() if c in " -_"
                       or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        found.add(slug if slug not in found else f"{slug}-1")
    return found


def command_words(text: str) -> tuple[str, ...]:
    """`git correx plan lock PLAN [--session ID]` → ("plan", "lock")."""
    words = []
    for word in text.split()[2:]:
        if not COMMAND_WORD.match(word):
            break
        words.append(word)
    return tuple(words)


def cli_commands() -> set[tuple[str, ...]]:
    from gitcorrex.cli.reference import command_tree
    from gitcorrex.cli.tree import walk

    return {words for words, _ in walk(command_tree()) if words}


def test_readme_is_a_short_product_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move reference to docs/"
    for heading in ("## Try it", "## Use it on your repositories", "## Commands",
                    "## Exit codes"):
        assert heading in lines


def test_readme_set_up_commands_are_the_ones_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    try_it = text.split("## Try it")[1].split("\n## ")[0]
    blocks = re.findall(r"```sh\n(.*?)```", try_it, flags=re.S)
    assert len(blocks) == 2, "Try it: one command for the demo, one for the tests"
    steps = [part.strip() for block in blocks for part in block.strip().split("&&")]
    assert "git correx demo" in steps
    assert "python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder" in steps
    ci = [line.strip() for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines()]
    positions = [ci.index(step) for step in steps if step != ". .venv/bin/activate"]
    assert positions == sorted(positions), f"{steps} out of order in .ci/run"
    assert "bash .ci/newcomer" in ci


def test_every_command_in_the_readme_exists() -> None:
    text = README.read_text(encoding="utf-8")
    named = {command_words(m) for m in re.findall(r"^\| `(git correx [^`]*)`", text, re.M)}
    named |= {command_words(m) for m in re.findall(r"^\$ (git correx .*?)(?:  +#|$)", text,
                                                    re.M)}
    known = cli_commands() | {("hook", "run"), ()}  # `hook` is hidden; () is --version
    assert named - known == set()


def test_every_command_has_a_row_in_the_readme_table() -> None:
    text = README.read_text(encoding="utf-8")
    rows = {command_words(m) for m in re.findall(r"^\| `(git correx [^`]*)`", text, re.M)}
    groups = {words[:-1] for words in cli_commands() if len(words) > 1}
    assert cli_commands() - groups - rows == set()


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    broken = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        anchored = not anchor or resolved.suffix != ".md" or anchor in anchors(resolved)
        if not (resolved.exists() and anchored):
            broken.append(target)
    assert broken == []


def test_every_docs_page_is_reachable_from_the_index() -> None:
    seen, todo = set(), [DOCS / "index.md"]
    while todo:
        page = todo.pop().resolve()
        if page in seen or page.suffix != ".md" or not page.is_relative_to(DOCS.resolve()):
            continue
        seen.add(page)
        todo += [page.parent / t.partition("#")[0] for t in relative_links(page)
                 if t.partition("#")[0]]
    unreached = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
                       if p.resolve() not in seen)
    assert unreached == [], "link these pages from docs/index.md (or a page it links)"
