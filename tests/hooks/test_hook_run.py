"""`git correx hook run NAME` run directly: every exit code it can return."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git
from tests.hooks.conftest import stage_file

Correx = Callable[..., CliResult]
ZERO = "0" * 40


def test_allowed_index_exits_0_silently(hooked: Path, correx: Correx) -> None:
    stage_file(hooked, "src/app.py", "print(2)\n")
    result = correx(hooked, "hook", "run", "pre-commit")
    assert (result.code, result.stdout, result.stderr) == (0, "", "")


def test_blocked_index_exits_1(hooked: Path, correx: Correx) -> None:
    stage_file(hooked, "README.md")
    result = correx(hooked, "hook", "run", "pre-commit")
    assert result.code == 1, result
    assert "README.md: modified outside" in result.stderr


def test_unknown_hook_name_exits_2(hooked: Path, correx: Correx) -> None:
    assert correx(hooked, "hook", "run", "post-commit").code == 2


def test_pre_push_of_an_unknown_remote_tip_exits_3(hooked: Path, correx: Correx) -> None:
    head = git(hooked, "rev-parse", "HEAD").strip()
    line = f"refs/heads/main {head} refs/heads/main {'1' * 40}\n"
    result = correx(hooked, "hook", "run", "pre-push", "origin", "url", input=line.encode())
    assert result.code == 3, result
    assert "`git fetch origin`" in result.stderr


def test_pre_push_deletion_exits_0(hooked: Path, correx: Correx) -> None:
    line = f"(delete) {ZERO} refs/heads/old {'1' * 40}\n"
    result = correx(hooked, "hook", "run", "pre-push", "origin", "url", input=line.encode())
    assert result.code == 0, result


def test_outside_a_repository_exits_2(tmp_path: Path, correx: Correx) -> None:
    result = correx(tmp_path, "hook", "run", "pre-commit")
    assert result.code == 2, result
    assert "stopped, because the check could not run" in result.stderr


def test_uninstall_with_hooks_path_outside_exits_2(hooked: Path, tmp_path: Path,
                                                    correx: Correx) -> None:
    git(hooked, "config", "core.hooksPath", str(tmp_path / "elsewhere"))
    result = correx(hooked, "hooks", "uninstall")
    assert result.code == 2, result
    assert "installed nothing there" in result.stderr
