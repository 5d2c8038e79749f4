"""The table of planted bugs (benchmarks/planted_bugs.toml) stays current: every snippet is
still in its file exactly once and every test that must kill it still exists. A refactor
that moves the code fails here, fast, instead of leaving a mutation run that proves
nothing (benchmarks/mutants.py reports such a bug as stale)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from benchmarks.planted_bugs import ROOT, PlantedBug, load_planted

BUGS = load_planted()


def test_every_planted_snippet_is_in_its_file_exactly_once() -> None:
    stale = [(bug.id, bug.file, bug.occurrences()) for bug in BUGS if bug.occurrences() != 1]
    assert stale == []


def test_every_planted_bug_changes_the_code_and_has_a_unique_id() -> None:
    assert [bug.id for bug in BUGS if bug.original == bug.mutated] == []
    ids = [bug.id for bug in BUGS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9-]+", bug_id) for bug_id in ids)


def test_every_planted_bug_names_tests_that_exist() -> None:
    missing = [(bug.id, test) for bug in BUGS for test in bug.tests if not _exists(test)]
    assert [bug.id for bug in BUGS if not bug.tests] == []
    assert missing == []


def test_a_planted_bug_lands_once_and_only_where_its_snippet_was(tmp_path: Path) -> None:
    bug = PlantedBug("example", "m.py", "x = 1", "x = 2", "an example", ("t",))
    (tmp_path / "m.py").write_text("a = 0\nx = 1\n")
    assert bug.planted_text(tmp_path) == "a = 0\nx = 2\n"
    (tmp_path / "m.py").write_text("x = 1\nx = 1\n")
    assert bug.occurrences(tmp_path) == 2


def _exists(node_id: str) -> bool:
    """`path::function` or `path::Class::method` (parameters dropped) defined in the file."""
    path, *names = node_id.split("[")[0].split("::")
    file = ROOT / path
    if not file.is_file() or not names:
        return False
    scope: list[ast.stmt] = ast.parse(file.read_text(encoding="utf-8")).body
    for name in names:
        found = [node for node in scope if isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name]
        if not found:
            return False
        scope = found[0].body
    return True
