"""Hostile profiles end in exit 2 within a second or so, naming the key and the fix.

Each profile below once ended in a traceback (exit 4) or ran for half a minute: TOML nested
a thousand deep (RecursionError in the TOML reader), a `run` over the kernel's 128 KiB
per-argument limit (E2BIG at exec), a NUL in a command (no program can receive one), a 1 MB
`run` (shlex.split is quadratic), a byte order mark (unnamed). Every reader of profile
bytes is driven as a user drives it: `verify` (the work tree's profile), `check --stage`
(the profile at BASE) and the pre-commit hook on a real `git commit` (the profile at HEAD).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.profile_values import RUN_MAX_BYTES
from tests.conftest import CliResult, git, write
from tests.hooks.conftest import commit, install, run_git
from tests.manifest.test_check_scale import children_cpu_s

Correx = Callable[..., CliResult]
STAGE = "implement"
WALL_LIMIT_S = 5.0  # generous: the machine is shared; alone each case takes well under 1 s
CPU_LIMIT_S = 2.5  # interpreter start-up included


def profile(extra_commands: str = "", stages: str = "") -> bytes:
    """A valid profile with `extra_commands` added under [commands]."""
    return (f'version = 1\n[commands]\ntest = "true"\n{extra_commands}\n'
            f'[expectations]\nfull = ["test"]\n[defaults]\nexpectation = "full"\n'
            f'[stages.{STAGE}]\nwrites = ["/src/**"]\n{stages}').encode()


def nested(depth: int, opening: str, closing: str, inner: str = "") -> str:
    return opening * depth + inner + closing * depth


HOSTILE: dict[str, tuple[bytes, tuple[str, ...]]] = {
    "arrays-1000-deep": (
        profile(f'deep = {{ run = "true", x = {nested(1000, "[", "]")} }}'),
        ("commands.deep.x", "nested")),
    "inline-tables-1000-deep": (
        profile(f'deep = {{ run = "true", x = {nested(1000, "{a = ", "}", "1")} }}'),
        ("commands.deep.x", "nested")),
    "arrays-100-deep": (  # the TOML reader copes; the depth limit still refuses it
        profile(f'deep = {{ run = "true", x = {nested(100, "[", "]")} }}'),
        ("commands.deep.x", "nested more than")),
    "run-200-KiB": (
        profile('long = { run = "echo ' + "a" * 200_000 + '" }'),
        ("commands.long.run", "200,005 bytes", "16 KiB")),
    "run-1-MB": (  # refused by the profile's own size, before anything parses it
        profile('long = { run = "echo ' + "a" * 1_000_000 + '" }'),
        ("256 KiB", "line 4, holds 1,000,024")),
    "run-with-NUL": (
        profile('nul = { run = "echo a\\u0000b" }'), ("commands.nul.run", "NUL")),
    "shorthand-run-with-NUL": (
        profile('nul = "echo a\\u0000b"'), ("commands.nul:", "NUL")),
    "static-analysis-with-NUL": (
        profile(stages='static_analysis = ["lint\\u0000 --fix"]\n'),
        (f"stages.{STAGE}.static_analysis[0]", "NUL")),
    "byte-order-mark": (
        b"\xef\xbb\xbf" + profile(), ("byte order mark", "without a BOM")),
    "profile-over-256-KiB": (
        profile() + b"# " + b"x" * 300_000 + b"\n", ("256 KiB", "line 11, holds 300,002")),
}


def timed(run: Callable[[], CliResult]) -> tuple[CliResult, float, float]:
    started, before = time.monotonic(), children_cpu_s()
    result = run()
    return result, time.monotonic() - started, children_cpu_s() - before


def assert_refused(result: CliResult, wall: float, cpu: float, needles: tuple[str, ...],
                   code: int = 2) -> None:
    assert result.code == code, result
    assert "Traceback" not in result.stderr, result
    for needle in needles:
        assert needle in result.stderr, result
    assert "hint:" in result.stderr, result
    assert wall < WALL_LIMIT_S, f"refused after {wall:.2f} s"
    assert cpu < CPU_LIMIT_S, f"refused after {cpu:.2f} s of CPU"


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_verify_refuses_a_hostile_profile_with_exit_2(
        case: str, make_repo: Callable[..., Path], correx: Correx) -> None:
    raw, needles = HOSTILE[case]
    repo = make_repo(files={"README.md": "hello\n"})
    write(repo, ".correx.toml", raw)
    result, wall, cpu = timed(lambda: correx(repo, "verify"))
    assert_refused(result, wall, cpu, needles)
    assert git(repo, "for-each-ref", "refs/notes").strip() == ""  # nothing recorded


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_check_stage_refuses_a_hostile_profile_at_base_with_exit_2(
        case: str, make_repo: Callable[..., Path], correx: Correx) -> None:
    raw, needles = HOSTILE[case]
    repo = make_repo(files={".correx.toml": raw, "src/app.py": "print(1)\n"})
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "src/app.py", "print(2)\n")
    git(repo, "commit", "-qam", "change")
    result, wall, cpu = timed(lambda: correx(repo, "check", f"{base}..HEAD", "--stage", STAGE))
    assert_refused(result, wall, cpu, needles)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_pre_commit_hook_refuses_a_hostile_profile_at_head(
        case: str, make_repo: Callable[..., Path]) -> None:
    raw, needles = HOSTILE[case]
    repo = make_repo(files={".correx.toml": raw, "src/app.py": "print(1)\n"})
    install(repo)
    git(repo, "config", "correx.stage", STAGE)
    write(repo, "src/app.py", "print(2)\n")
    git(repo, "add", "src/app.py")
    started, before = time.monotonic(), children_cpu_s()
    result = commit(repo)
    wall, cpu = time.monotonic() - started, children_cpu_s() - before
    as_cli = CliResult(result.code, result.stdout, result.stderr)
    assert_refused(as_cli, wall, cpu, needles, code=1)  # git reports the hook's failure as 1
    assert "git correx: error:" in result.stderr, result
    assert run_git(repo, "rev-parse", "HEAD~1").code != 0  # the commit was not made


def test_a_profile_run_at_the_cap_runs(make_repo: Callable[..., Path],
                                       correx: Callable[..., CliResult]) -> None:
    run = "true " + "a" * (RUN_MAX_BYTES - len("true "))
    repo = make_repo(files={"README.md": "hello\n"})
    write(repo, ".correx.toml", f'version = 1\n[commands]\ntest = "{run}"\n[expectations]\n'
                                'full = ["test"]\n[defaults]\nexpectation = "full"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "profile")
    result = correx(repo, "verify", "--quiet")
    assert result.code == 0, result
    write(repo, ".correx.toml", f'version = 1\n[commands]\ntest = "{run}a"\n[expectations]\n'
                                'full = ["test"]\n[defaults]\nexpectation = "full"\n')
    result = correx(repo, "verify", "--quiet")
    assert result.code == 2, result
    assert "commands.test: the command line is 16,385 bytes, over the 16 KiB" in result.stderr
