"""When the check cannot run, the commit stops with a message saying how to repair it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.hooks.conftest import commit, hook_path, stage_file


def repin_python(root: Path, python: str) -> None:
    path = hook_path(root)
    path.write_text(re.sub(r"(?m)^hook_python=.*$", f"hook_python={python}", path.read_text()))


def test_missing_interpreter_stops_the_commit(hooked: Path) -> None:
    repin_python(hooked, "/nonexistent/python3")
    stage_file(hooked, "src/app.py", "print(2)\n")
    result = commit(hooked)
    assert result.code != 0, result
    assert "the interpreter /nonexistent/python3 is gone" in result.stderr
    assert "git correx hooks install" in result.stderr


def test_interpreter_without_the_package_stops_the_commit(hooked: Path,
                                                          tmp_path: Path) -> None:
    venv = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    repin_python(hooked, str(venv / "bin" / "python"))
    stage_file(hooked, "src/app.py", "print(2)\n")
    result = commit(hooked, env={"PYTHONPATH": ""})
    assert result.code != 0, result
    assert "cannot import gitcorrex" in result.stderr
    assert "git correx hooks install" in result.stderr


def test_interpreter_missing_a_dependency_stops_the_commit(hooked: Path,
                                                           tmp_path: Path) -> None:
    venv = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    repin_python(hooked, str(venv / "bin" / "python"))
    stage_file(hooked, "src/app.py", "print(2)\n")
    result = commit(hooked)  # PYTHONPATH finds gitcorrex, but not pathspec
    assert result.code != 0, result
    assert "cannot import what the check needs" in result.stderr


def test_missing_chained_hook_stops_the_commit(hooked: Path) -> None:
    path = hook_path(hooked)
    path.write_text(path.read_text().replace("hook_chained=''", "hook_chained=gone"))
    stage_file(hooked, "src/app.py", "print(2)\n")
    result = commit(hooked)
    assert result.code != 0, result
    assert "the chained hook" in result.stderr and "is missing" in result.stderr


def test_work_tree_package_is_never_imported(hooked: Path) -> None:
    """A `gitcorrex/` directory in the repository being committed cannot replace the hook."""
    stage_file(hooked, "gitcorrex/__init__.py", "raise SystemExit(0)\n")
    stage_file(hooked, "gitcorrex/cli/__init__.py", "def main(argv):\n    raise SystemExit(0)\n")
    result = commit(hooked)
    assert result.code != 0, result
    assert "gitcorrex/__init__.py: added outside" in result.stderr
