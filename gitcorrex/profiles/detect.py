"""Guessing a repository's build and test commands for `git correx init`.

Python gets `python -B -m pytest -q` and no build step: `-B` keeps pytest and the imports
from writing `__pycache__/` (a byte-compile step such as `compileall` writes it whatever
the flags), so the verified state is the state the tests ran on.

Only a starting point the operator edits: the first ecosystem whose marker files are
present wins (Python with pytest, npm scripts, Go, Cargo, a Makefile with a `test:`
target), and nothing recognised yields `None`, which gets the commented generic template.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_NPM_PLACEHOLDER = "no test specified"


@dataclass(frozen=True)
class Detection:
    """What was recognised, the evidence for it, and the commands it suggests."""

    ecosystem: str
    evidence: str
    test: str | None
    build: str | None = None
    setup: str | None = None
    outputs: tuple[str, ...] = ()


def detect_project(root: Path) -> Detection | None:
    """The first matching ecosystem at `root`, or None when none is recognised."""
    for detector in DETECTORS:
        found = detector(root)
        if found is not None:
            return found
    return None


def _python(root: Path) -> Detection | None:
    manifest = next((n for n in ("pyproject.toml", "setup.py") if (root / n).is_file()), None)
    if manifest is None or not _uses_pytest(root):
        return None
    return Detection("python", f"{manifest} with pytest", test="python -B -m pytest -q",
                     setup="python -m pip install -e .", outputs=("__pycache__/",))


def _uses_pytest(root: Path) -> bool:
    if any((root / name).is_file() for name in ("pytest.ini", "conftest.py")):
        return True
    names = ["pyproject.toml", "setup.py", "setup.cfg", "tox.ini"]
    names += sorted(path.name for path in root.glob("requirements*.txt"))
    return any("pytest" in _read_text(root / name) for name in names)


def _node(root: Path) -> Detection | None:
    try:
        scripts = json.loads(_read_text(root / "package.json")).get("scripts") or {}
    except (ValueError, AttributeError):
        return None
    if not isinstance(scripts, dict):
        return None
    has_test = "test" in scripts and _NPM_PLACEHOLDER not in str(scripts["test"])
    if not has_test and "build" not in scripts:
        return None
    setup = "npm ci" if (root / "package-lock.json").is_file() else "npm install"
    return Detection("node", "package.json scripts", test="npm test" if has_test else None,
                     build="npm run build" if "build" in scripts else None, setup=setup,
                     outputs=("node_modules/",))


def _go(root: Path) -> Detection | None:
    if not (root / "go.mod").is_file():
        return None
    return Detection("go", "go.mod", test="go test ./...", build="go build ./...",
                     setup="go mod download")


def _rust(root: Path) -> Detection | None:
    if not (root / "Cargo.toml").is_file():
        return None
    return Detection("rust", "Cargo.toml", test="cargo test", build="cargo build",
                     setup="cargo fetch", outputs=("target/",))


def _make(root: Path) -> Detection | None:
    for name in ("GNUmakefile", "makefile", "Makefile"):
        targets = _make_targets(_read_text(root / name))
        if "test" in targets:
            return Detection("make", f"{name} with a test target", test="make test",
                             build="make build" if "build" in targets else None)
    return None


def _make_targets(text: str) -> set[str]:
    """Rule targets (`test:`, `test lint:`), not variable assignments (`test := ...`)."""
    targets: set[str] = set()
    for line in text.splitlines():
        head, colon, rest = line.partition(":")
        if colon and not line.startswith(("\t", "#")) and not rest.startswith("="):
            targets.update(head.split())
    return targets


def _read_text(path: Path) -> str:
    """The file's text, or "" when it is missing or unreadable (detection is a guess)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


DETECTORS: tuple[Callable[[Path], Detection | None], ...] = (_python, _node, _go, _rust, _make)
