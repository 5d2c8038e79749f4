"""Two sides of a change as bytes, compared the way the gates compare two trees."""

from __future__ import annotations

from gitcorrex.integrity.compare import compare_cases
from gitcorrex.integrity.findings import Weakening
from gitcorrex.integrity.read import read_side
from gitcorrex.integrity.suite_paths import tests_language


def weakenings(old: dict[str, str], new: dict[str, str]) -> list[Weakening]:
    """The findings from `old` (path → source) to `new`; a path absent from `new` is gone."""
    def side(files: dict[str, str]) -> dict[str, tuple[str, bytes]]:
        found: dict[str, tuple[str, bytes]] = {}
        for path, source in files.items():
            language = tests_language(path)
            assert language is not None, f"{path} is not a test file"
            found[path] = (language, source.encode())
        return found

    return compare_cases(read_side(side(old)), read_side(side(new)))


def rules(found: list[Weakening]) -> list[tuple[str, str]]:
    """(test, rule) of each finding, in order."""
    return [(finding.test, finding.rule.value) for finding in found]
