"""A starter profile whose first verify passes: a fresh Python project, `init`, commit,
`verify` exits 0; ignore lines are proposed, and written only to .git/info/exclude."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, write

Correx = Callable[..., CliResult]
PROJECT = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "0.1.0"\n'
                      '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    "src/pkg/__init__.py": "def add(a, b):\n    return a + b\n",
    "tests/test_add.py": "from pkg import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
}


def python_first() -> dict[str, str]:
    """The interpreter running these tests (it has pytest) is the `python` on PATH."""
    return {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}


def test_init_commit_then_first_verify_passes(make_repo: Callable[..., Path], correx: Correx,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # as on a newcomer's machine
    repo = make_repo(files=PROJECT)
    assert correx(repo, "init").code == 0
    git(repo, "add", ".correx.toml")
    git(repo, "commit", "-q", "-m", "Add git correx profile")
    result = correx(repo, "verify", env=python_first())
    assert result.code == 0, result
    assert "pass" in result.stdout
    assert git(repo, "status", "--porcelain") == ""


def test_init_exclude_adds_outputs_to_info_exclude_only(make_repo: Callable[..., Path],
                                                        correx: Correx) -> None:
    repo = make_repo(files=PROJECT)
    result = correx(repo, "init", "--exclude")
    assert result.code == 0, result
    exclude = repo / ".git" / "info" / "exclude"
    assert "__pycache__/" in exclude.read_text().splitlines()
    assert f"ignored in {exclude}: __pycache__/" in result.stdout
    assert "not ignored yet" not in result.stdout
    assert not (repo / ".gitignore").exists()
    assert git(repo, "status", "--porcelain") == "?? .correx.toml\n"
    write(repo, "src/pkg/__pycache__/x.pyc", b"\0")
    assert git(repo, "status", "--porcelain") == "?? .correx.toml\n"


def test_init_exclude_keeps_an_existing_profile(make_repo: Callable[..., Path],
                                                correx: Correx) -> None:
    repo = make_repo(files={**PROJECT, ".correx.toml": "version = 1\n"})
    result = correx(repo, "init", "--exclude", "--json")
    assert result.code == 0, result
    assert '"created": false' in result.stdout
    assert (repo / ".correx.toml").read_text() == "version = 1\n"
    assert "__pycache__/" in (repo / ".git" / "info" / "exclude").read_text()


def test_init_names_no_output_that_is_already_ignored(make_repo: Callable[..., Path],
                                                      correx: Correx) -> None:
    repo = make_repo(files={**PROJECT, ".gitignore": "__pycache__/\n"})
    result = correx(repo, "init")
    assert result.code == 0, result
    assert "not ignored yet" not in result.stdout
