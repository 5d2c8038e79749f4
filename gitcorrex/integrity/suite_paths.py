"""Which paths hold tests, per language: the conventions the runners themselves use.

Python: `test_*.py`, `*_test.py`, anything under a `test`/`tests`/`testing` directory
(read for its helpers; its tests count only where pytest collects them: `is_collected`).
JavaScript/TypeScript: `*.test.*`, `*.spec.*`, anything under `__tests__`, `test`,
`tests`, `spec`, `e2e`. Go: `*_test.go`. Rust: every `.rs` file (unit tests live beside
the code; only `#[test]` functions count). Java/Kotlin: `*Test`, `*Tests`, `*IT`,
`*TestCase`, `*Spec`, anything under a `test` directory (`src/test/…`).
"""

from __future__ import annotations

from gitcorrex.symbols.languages import language_of

TEST_DIRS = {"test", "tests", "testing", "__tests__", "spec", "specs", "e2e"}
JVM_SUFFIXES = ("Test", "Tests", "IT", "TestCase", "Spec")


def is_collected(path: str) -> bool:
    """Whether a runner collects tests from `path` by default. pytest and unittest only
    from `test*.py` / `*_test.py`: a test moved into `tests/helpers.py` no longer runs,
    though the file is still read (its functions are helpers other tests call)."""
    if language_of(path) != "python":
        return True
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return stem.startswith("test") or stem.endswith("_test")


def tests_language(path: str) -> str | None:
    """The language of the tests `path` holds, or None when it is not a test file."""
    language = language_of(path)
    if language is None:
        return None
    directories = path.split("/")[:-1]
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    in_test_dir = any(part in TEST_DIRS for part in directories)
    if language == "python":
        held = stem.startswith("test_") or stem.endswith("_test") or in_test_dir
    elif language in ("javascript", "typescript", "tsx"):
        held = ".test." in name or ".spec." in name or in_test_dir
    elif language == "go":
        held = name.endswith("_test.go")
    elif language == "rust":
        held = True
    else:
        held = stem.endswith(JVM_SUFFIXES) or in_test_dir
    return language if held else None
