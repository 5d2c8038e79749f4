"""The plain forms of `git correx verify` run without click (cli/fast.py → cli/verify_run.py)
and answer exactly as click's path does; every other form still goes through click."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.conftest import REPO_ROOT, CliResult

Correx = Callable[..., CliResult]

NO_CLICK = """
import sys
from gitcorrex.cli.boundary import CONCLUSION_CODES
from gitcorrex.cli.fast import run_fast
ended = run_fast(sys.argv[1:])
code = None if ended is None else int(CONCLUSION_CODES[ended])
print(code, "click" in sys.modules, file=sys.stderr)
"""


def fast(root: Path, *args: str) -> tuple[str, str]:
    """(the exit code, whether click was imported) of run_fast(["verify", *args])."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run([sys.executable, "-c", NO_CLICK, "verify", *args], cwd=root,
                          env=env, capture_output=True, text=True, check=False)
    code, clicked = proc.stderr.strip().splitlines()[-1].split()
    return code, clicked


def test_a_plain_verify_imports_no_click(project: Path) -> None:
    assert fast(project, "--quiet", "--expect", "test") == ("0", "False")
    assert fast(project, "-q", "--json", "--stage", "implement") == ("0", "False")


def test_other_forms_are_left_to_click(project: Path) -> None:
    for args in (["--expect=test"], ["--artifact", "a=b"], ["--help"], ["-q", "-q"],
                 ["--expect"], ["--frobnicate"]):
        assert fast(project, *args) == ("None", "False"), args


def test_fast_and_click_paths_print_the_same(project: Path, correx: Correx) -> None:
    by_fast = correx(project, "verify", "--quiet", "--expect", "test")
    by_click = correx(project, "verify", "--quiet", "--expect=test")
    assert (by_fast.code, by_fast.stdout) == (by_click.code, by_click.stdout) == (
        0, by_click.stdout)
    documents = [json.loads(correx(project, "verify", "--json", *form).stdout)
                 for form in (["--expect", "test"], ["--expect=test"])]
    assert documents[0].keys() == documents[1].keys()
    assert [d["result"] for d in documents] == ["pass", "pass"]
    assert documents[0]["summary"] == documents[1]["summary"]


def test_a_bad_expectation_is_a_usage_error_on_both_paths(project: Path,
                                                           correx: Correx) -> None:
    by_fast = correx(project, "verify", "--expect", "nope")
    by_click = correx(project, "verify", "--expect=nope")
    assert by_fast.code == by_click.code == 2
    assert by_fast.stderr == by_click.stderr
