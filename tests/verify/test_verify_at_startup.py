"""`git correx verify` is answered before click loads (cli/startup.py → cli/verify_run.py)
for every option it declares, and prints exactly what the click command prints; what the
start-up parser leaves to click (help, a typo, a missing value) still goes through click."""

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
from gitcorrex.cli.startup import run_startup
try:
    ended = run_startup(sys.argv[1:])
    code = ended if ended is None or isinstance(ended, int) else int(CONCLUSION_CODES[ended])
except Exception as exc:  # outside a session --artifact is a usage error, raised by verify
    code = type(exc).__name__
print(code, "click" in sys.modules, file=sys.stderr)
"""
BY_CLICK = """
import sys
from gitcorrex.cli.root import run
sys.exit(run(sys.argv[1:]))
"""


def python(root: Path, program: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-c", program, *args], cwd=root, env=env,
                          capture_output=True, text=True, check=False)


def at_startup(root: Path, *args: str) -> tuple[str, str]:
    """(the exit code, whether click was imported) of run_startup(["verify", *args])."""
    last = python(root, NO_CLICK, "verify", *args).stderr.strip().splitlines()[-1]
    code, clicked = last.split()
    return code, clicked


def test_every_verify_option_is_answered_without_click(project: Path) -> None:
    assert at_startup(project, "--quiet", "--expect", "test") == ("0", "False")
    assert at_startup(project, "-q", "--json", "--stage", "implement") == ("0", "False")
    assert at_startup(project, "--expect=test", "-q", "-q") == ("0", "False")
    assert at_startup(project, "-q", "--artifact", "report=a.txt",
                      "--artifact=other=b.txt") == ("UsageError", "False")


def test_what_the_parser_is_not_sure_of_is_left_to_click(project: Path) -> None:
    for args in (["--help"], ["-qh"], ["--expect"], ["--frobnicate"], ["--json=yes"],
                 ["--", "-q"]):
        assert at_startup(project, *args) == ("None", "False"), args


def test_the_start_up_and_click_paths_print_the_same(project: Path, correx: Correx) -> None:
    for args in (["--quiet", "--expect", "test"], ["--json", "--expect=test"]):
        early = correx(project, "verify", *args)
        late = python(project, BY_CLICK, "verify", *args)
        assert (early.code, late.returncode) == (0, 0), (early, late.stderr)
        if "--json" in args:
            documents = [json.loads(early.stdout), json.loads(late.stdout)]
            assert [d["result"] for d in documents] == ["pass", "pass"]
            assert documents[0]["summary"] == documents[1]["summary"]
            assert documents[0].keys() == documents[1].keys()
        else:
            assert early.stdout == late.stdout


def test_a_bad_expectation_is_a_usage_error_on_both_paths(project: Path,
                                                           correx: Correx) -> None:
    early = correx(project, "verify", "--expect", "nope")
    late = python(project, BY_CLICK, "verify", "--expect", "nope")
    assert early.code == late.returncode == 2
    assert early.stderr == late.stderr
