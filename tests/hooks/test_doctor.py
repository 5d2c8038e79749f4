"""`git correx doctor` proves git will run the hook, and names what would make it skip."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git
from tests.hooks.conftest import hook_path

Correx = Callable[..., CliResult]


def fail_lines(result: CliResult) -> list[str]:
    return [line for line in result.stdout.splitlines() if line.startswith("FAIL")]


def repin_python(root: Path, python: str) -> None:
    path = hook_path(root)
    text = re.sub(r"(?m)^hook_python=.*$", f"hook_python={python}", path.read_text())
    path.write_text(text)


def test_doctor_passes_after_install(hooked: Path, correx: Correx) -> None:
    result = correx(hooked, "doctor")
    assert result.code == 0, result
    assert "imports gitcorrex" in result.stdout
    assert fail_lines(result) == []


def test_doctor_finds_a_missing_hook(repo: Path, correx: Correx) -> None:
    result = correx(repo, "doctor")
    assert result.code == 1, result
    assert any("pre-commit: no hook at" in line and "fix: git correx hooks install" in line
               for line in fail_lines(result))


def test_doctor_finds_a_non_executable_hook(hooked: Path, correx: Correx) -> None:
    hook_path(hooked).chmod(0o644)
    result = correx(hooked, "doctor")
    assert result.code == 1, result
    (line,) = fail_lines(result)
    assert "is not executable: git skips it" in line and "chmod +x" in line


def test_doctor_finds_a_missing_interpreter(hooked: Path, correx: Correx) -> None:
    repin_python(hooked, "/nonexistent/python3")
    result = correx(hooked, "doctor")
    assert result.code == 1, result
    (line,) = fail_lines(result)
    assert "/nonexistent/python3: the interpreter does not exist" in line


def test_doctor_finds_an_interpreter_without_the_package(hooked: Path, correx: Correx,
                                                         tmp_path: Path) -> None:
    venv = _bare_venv(tmp_path)
    repin_python(hooked, str(venv))
    result = correx(hooked, "doctor", env={"PYTHONPATH": ""})
    assert result.code == 1, result
    assert "cannot import gitcorrex" in fail_lines(result)[0]


def test_doctor_finds_hooks_path_dev_null(hooked: Path, correx: Correx) -> None:
    git(hooked, "config", "core.hooksPath", "/dev/null")
    result = correx(hooked, "doctor")
    assert result.code == 1, result
    assert "core.hooksPath: is /dev/null: git runs no hooks here" in fail_lines(result)[0]


def test_doctor_checks_every_linked_worktree(hooked: Path, correx: Correx,
                                             tmp_path: Path) -> None:
    worktree = tmp_path / "linked"
    git(hooked, "worktree", "add", "-q", "-b", "side", str(worktree))
    git(hooked, "config", "extensions.worktreeConfig", "true")
    git(worktree, "config", "--worktree", "core.hooksPath", "/dev/null")
    result = correx(hooked, "doctor")
    assert result.code == 1, result
    (line,) = fail_lines(result)
    assert line.startswith(f"FAIL {worktree}: core.hooksPath")


def test_doctor_finds_a_missing_chained_hook(hooked: Path, correx: Correx) -> None:
    path = hook_path(hooked)
    path.write_text(path.read_text().replace("hook_chained=''", "hook_chained=gone"))
    result = correx(hooked, "doctor")
    assert result.code == 1, result
    assert "the chained hook gone is missing" in fail_lines(result)[0]


def test_doctor_json_lists_findings(hooked: Path, correx: Correx) -> None:
    document = json.loads(correx(hooked, "doctor", "--json").stdout)
    assert document["ok"] is True
    subjects = {finding["subject"] for finding in document["findings"]}
    assert {"pre-commit", "pre-merge-commit", "correx.stage"} <= subjects


def _bare_venv(tmp_path: Path) -> Path:
    """A virtualenv without pip or git correx: an interpreter that cannot import it."""
    import subprocess
    import sys

    target = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True)
    return target / "bin" / "python"
