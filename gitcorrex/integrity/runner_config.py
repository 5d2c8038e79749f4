"""The test runner's own configuration: a change that makes pytest collect or select less.

`pyproject.toml` (`[tool.pytest.ini_options]`), `pytest.ini` and `tox.ini` (`[pytest]`),
`setup.cfg` (`[tool:pytest]`) at the repository's root. A selector added to `addopts`
(`-k`, `-m`, `--deselect`, `--ignore`, `--ignore-glob`, `--last-failed`, `--co`), a
`testpaths` entry dropped that the tree still holds, a pattern dropped from
`python_files`/`python_classes`/`python_functions`, a directory added to `norecursedirs`:
each is a **check command changed**, the same command running fewer tests.
"""

from __future__ import annotations

import configparser
import shlex
from collections.abc import Callable, Iterator
from typing import Any

from gitcorrex.integrity.findings import Weakening
from gitcorrex.model.test_integrity import WeakeningRule as Rule

SECTIONS = {"pytest.ini": "pytest", "tox.ini": "pytest", "setup.cfg": "tool:pytest"}
SELECTORS = ("-k", "-m", "--deselect", "--ignore", "--ignore-glob", "--last-failed", "--lf",
             "--co", "--collect-only", "--stepwise", "--sw")
PATTERNS = ("python_files", "python_classes", "python_functions")  # fewer: less collected


def is_runner_config(path: str) -> bool:
    return path == "pyproject.toml" or path in SECTIONS


def runner_weakenings(path: str, old: bytes | None, new: bytes | None,
                      exists: Callable[[list[str]], set[str]]) -> list[Weakening]:
    """Selectors added to pytest's `addopts`, and collection narrowed. `exists` says which
    of some paths the new tree holds: a `testpaths` entry dropped because its directory
    moved away collected nothing any more."""
    if old is None or new is None:
        return []
    before, after = _options(path, old), _options(path, new)
    return list(_compared(path, before, after, exists))


def _compared(path: str, before: dict[str, str], after: dict[str, str],
              exists: Callable[[list[str]], set[str]]) -> Iterator[Weakening]:
    added = [t for t in _selectors(after.get("addopts", ""))
             if t not in _selectors(before.get("addopts", ""))]
    if added:
        yield Weakening(path, "pytest.addopts", Rule.CHECK_COMMAND_CHANGED,
                        f"now selects fewer tests: {' '.join(added)[:300]}")
    dropped = sorted(exists(_gone(before, after, "testpaths")))
    if dropped:
        yield _narrowed(path, "testpaths", "no longer collected from", dropped)
    for key in PATTERNS:
        if _gone(before, after, key):
            yield _narrowed(path, key, "no longer matches", _gone(before, after, key))
    if _gone(after, before, "norecursedirs"):
        yield _narrowed(path, "norecursedirs", "now skips", _gone(after, before,
                                                                  "norecursedirs"))


def _gone(before: dict[str, str], after: dict[str, str], key: str) -> list[str]:
    """The words of `before[key]` that `after[key]` lacks (both set: a key left out means
    pytest's default, which is not compared)."""
    if key not in before or key not in after:
        return []
    return [word for word in before[key].split() if word not in after[key].split()]


def _narrowed(path: str, key: str, what: str, words: list[str]) -> Weakening:
    return Weakening(path, f"pytest.{key}", Rule.CHECK_COMMAND_CHANGED,
                     f"{what} {', '.join(words)}"[:1000])


def _selectors(addopts: str) -> list[str]:
    """The selecting options and their values (`-k 'not slow'`, `--deselect=a::b`)."""
    try:
        tokens = shlex.split(addopts)
    except ValueError:
        tokens = addopts.split()
    found: list[str] = []
    for index, token in enumerate(tokens):
        name = token.split("=", 1)[0]
        if name in SELECTORS:
            value = "" if "=" in token or index + 1 >= len(tokens) or \
                tokens[index + 1].startswith("-") else f" {tokens[index + 1]}"
            found.append(token + value)
    return found


def _options(path: str, data: bytes) -> dict[str, str]:
    text = data.decode("utf-8", "replace")
    if path == "pyproject.toml":
        return _pyproject(text)
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return {}
    section = SECTIONS[path]
    return dict(parser[section]) if parser.has_section(section) else {}


def _pyproject(text: str) -> dict[str, str]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        table: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    for key in ("tool", "pytest", "ini_options"):
        table = table.get(key) if isinstance(table, dict) else None
    if not isinstance(table, dict):
        return {}
    return {str(k): " ".join(map(str, v)) if isinstance(v, list) else str(v)
            for k, v in table.items()}
