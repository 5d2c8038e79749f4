"""What exec would refuse is refused before exec: a NUL, one argument over MAX_ARG_STRLEN,
arguments and environment together over ARG_MAX. Never a traceback, nothing started."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError, ExitCode, UnavailableError
from gitcorrex.runner.command import run_command
from gitcorrex.runner.exec_limits import MAX_ARG_STRLEN, exec_refusal
from tests.conftest import CliResult, git
from tests.manifest.test_check_scale import children_cpu_s

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="MAX_ARG_STRLEN is Linux's")


def test_a_nul_in_an_argument_is_a_config_error_before_anything_starts(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    with pytest.raises(ConfigError) as caught:
        run_command(["touch", str(marker), "a\0b"], cwd=tmp_path, timeout_s=10)
    assert caught.value.message == "cannot run 'touch': argument 2 holds a NUL character"
    assert not marker.exists()


@linux_only
def test_one_argument_over_max_arg_strlen_is_refused_and_one_at_it_runs(
        tmp_path: Path) -> None:
    longest = "a" * (MAX_ARG_STRLEN - 1)
    assert exec_refusal(["true", longest], {}) is None
    assert run_command(["true", longest], cwd=tmp_path, timeout_s=30).exit_code == 0
    refusal = exec_refusal(["true", longest + "a"], {})
    assert isinstance(refusal, ConfigError), refusal
    assert "argument 1 is 131,072 bytes, over the 131,071" in refusal.message


@linux_only
def test_an_environment_string_over_max_arg_strlen_names_the_variable() -> None:
    refusal = exec_refusal(["true"], {"SMALL": "x", "HUGE": "x" * MAX_ARG_STRLEN})
    assert isinstance(refusal, UnavailableError), refusal
    assert "the environment variable HUGE" in refusal.message
    assert refusal.hint == "unset or shorten HUGE"


def test_arguments_and_environment_over_arg_max_are_refused() -> None:
    limit = os.sysconf("SC_ARG_MAX")
    env = {f"V{i}": "x" * 100_000 for i in range(limit // 100_000 + 1)}
    refusal = exec_refusal(["true"], env)
    assert isinstance(refusal, UnavailableError), refusal
    assert f"exceed the system's limit of {limit:,} (ARG_MAX)" in refusal.message
    assert exec_refusal(["true"], dict(list(env.items())[:2])) is None


def environment_size(env: dict[str, str]) -> int:
    return sum(len(os.fsencode(k)) + len(os.fsencode(v)) + 2 + 8 for k, v in env.items())


@linux_only
def test_verify_near_arg_max_exits_3_before_running_and_records_nothing(
        make_repo: Callable[..., Path], correx: Callable[..., CliResult]) -> None:
    """git correx itself starts (its own argv is short) but the command's 8,000 arguments
    no longer fit beside the environment: E2BIG once ended in a traceback (exit 4)."""
    run = "true" + " a" * 8000
    repo = make_repo(files={".correx.toml": f'version = 1\n[commands]\ntest = "{run}"\n'
                            '[expectations]\nfull = ["test"]\n[defaults]\nexpectation = "full"\n'})
    room = os.sysconf("SC_ARG_MAX") - environment_size(dict(os.environ)) - 40_000
    filler = {f"CORREX_FILLER_{i}": "x" * min(100_000, room - i * 100_000)
              for i in range(room // 100_000 + 1) if room - i * 100_000 > 0}
    started, before = time.monotonic(), children_cpu_s()
    result = correx(repo, "verify", env=filler)
    wall, cpu = time.monotonic() - started, children_cpu_s() - before
    assert result.code == ExitCode.UNAVAILABLE, result
    assert "cannot run 'true': its arguments (" in result.stderr, result
    assert "exceed the system's limit" in result.stderr and "Traceback" not in result.stderr
    assert git(repo, "for-each-ref", "refs/notes").strip() == ""
    assert wall < 5 and cpu < 2.5, (wall, cpu)

