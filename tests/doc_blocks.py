"""The code blocks of README.md and docs/**/*.md, and what their page says about running them.

A block in a runnable language (```sh, ```bash, ```shell, ```console, ```python, ```py) is an
example the doc-test harness runs (tests/test_doc_examples.py). An HTML comment on the
line before the fence (blank lines between are allowed) says otherwise or how:

    <!-- not run: REASON -->                     never run; the reason is required
    <!-- doc-test: setup=new-project slow allow-exit=1 -->

`setup=NAME` picks the repository the block runs in (default `project`), `slow` marks it
slow, `allow-exit=N[,M]` lets a ```console command exit N (a documented refusal or failed
check). docs/testing.md#examples-in-the-docs-run describes them for doc writers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

RUNNABLE = {"sh": "sh", "bash": "sh", "shell": "sh", "console": "console",
            "python": "python", "py": "python"}
KEYS = ("setup", "slow", "allow-exit")
_FENCE = re.compile(r"^(\s*)(`{3,})\s*([\w+-]*)\s*$")
_NOT_RUN = re.compile(r"^<!--\s*not run:(.*?)-->$")
_DOC_TEST = re.compile(r"^<!--\s*doc-test:(.*?)-->$")


@dataclass(frozen=True)
class DocBlock:
    """One runnable block: where it is, its kind (sh, console, python), its text, and the
    page's directives (`not_run` is the reason, or None)."""

    page: str
    line: int
    kind: str
    text: str
    not_run: str | None = None
    options: dict[str, str] = field(default_factory=dict)

    ordinal: int = 1

    @property
    def name(self) -> str:
        """`docs/sessions.md#1`: the page and the block's place among its runnable ones
        (stable when prose above it changes; the line is in every failure message)."""
        return f"{self.page}#{self.ordinal}"


def doc_pages(root: Path) -> list[Path]:
    """README.md and every page under docs/, in a stable order."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def runnable_blocks(root: Path) -> list[DocBlock]:
    """Every block in a runnable language on every page."""
    return [block for page in doc_pages(root) for block in page_blocks(root, page)]


def page_blocks(root: Path, page: Path) -> list[DocBlock]:
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks, index = [], 0
    while index < len(lines):
        opened = _FENCE.match(lines[index])
        if opened is None:
            index += 1
            continue
        indent, fence, lang = opened.groups()
        end = _closing(lines, index + 1, fence)
        if lang in RUNNABLE:
            body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                    for line in lines[index + 1:end]]
            not_run, options = _directives(lines, index)
            blocks.append(DocBlock(str(page.relative_to(root)), index + 1, RUNNABLE[lang],
                                   "\n".join(body) + "\n", not_run, options,
                                   len(blocks) + 1))
        index = end + 1
    return blocks


def _closing(lines: list[str], start: int, fence: str) -> int:
    for index in range(start, len(lines)):
        if lines[index].strip().startswith(fence) and not lines[index].strip().strip("`"):
            return index
    return len(lines)


def _directives(lines: list[str], fence_index: int) -> tuple[str | None, dict[str, str]]:
    """The comments right above the fence: `not run` (its reason) and `doc-test` options."""
    not_run, options = None, {}
    index = fence_index - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    while index >= 0 and lines[index].strip().startswith("<!--"):
        text = lines[index].strip()
        if (found := _NOT_RUN.match(text)) is not None:
            not_run = found.group(1).strip()
        elif (found := _DOC_TEST.match(text)) is not None:
            for word in found.group(1).split():
                key, _, value = word.partition("=")
                options[key] = value
        index -= 1
    return not_run, options


def console_commands(text: str) -> list[str]:
    """The commands of a ```console transcript: `$ ` lines (a trailing backslash continues
    one); every other line is output shown for the reader, not compared."""
    commands: list[str] = []
    continuing = False
    for line in text.split("\n"):
        if continuing:
            commands[-1] += "\n" + line
        elif line.startswith("$ "):
            commands.append(line[2:])
        else:
            continue
        continuing = line.endswith("\\")
    return commands
