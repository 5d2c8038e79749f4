"""`git correx demo`, the first command a newcomer runs, works end to end."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult


def test_demo_fails_then_passes_then_shows_and_replays(
    tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(tmp_path, "demo")
    assert result.code == 0, result
    out = result.stdout
    assert out.index("fail: command 'test' exited 1") < out.index("pass: expectation 'test'")
    assert "$ git correx replay" in out
    assert out.count("✓ pass test") == 2  # show, then replay
    assert "✗ fail test" in out


def test_demo_says_it_removes_its_repository_and_what_comes_next(
    tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(tmp_path, "demo")
    assert result.code == 0, result
    removed, after = result.stdout.strip().splitlines()[-2:]
    assert removed.startswith("removed the demo repository ") and "--keep" in removed
    assert not Path(removed.split()[4]).exists()
    assert after.startswith("next: in your own repository, `git correx init`")


def test_demo_keep_leaves_a_repository_to_explore(
    tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(tmp_path, "demo", "--keep")
    assert result.code == 0, result
    line = next(line for line in result.stdout.splitlines() if line.startswith("kept: "))
    kept = Path(line.split()[1])
    assert "removed the demo repository" not in result.stdout
    try:
        assert (kept / ".correx.toml").is_file() and (kept / ".git").is_dir()
    finally:
        shutil.rmtree(kept.parent, ignore_errors=True)
