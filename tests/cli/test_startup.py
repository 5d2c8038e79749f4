"""The commands cli/startup.py answers run as real processes without importing click,
whichever of their declared options are given; help and typos still reach click; and the
start-up modules themselves import neither click nor `typing`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.agents.conftest import claude
from tests.conftest import REPO_ROOT, git
from tests.ledger_facts import verify_tree

ENV = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "CORREX_RESIDENT": "off"}
BY_CLICK = "import sys\nfrom gitcorrex.cli.root import run\nsys.exit(run(sys.argv[1:]))\n"
STARTUP_MODULES = {"gitcorrex.cli.startup", "gitcorrex.cli.option_table",
                   "gitcorrex.cli.option_parser"}


def run_importing(root: Path, *args: str, stdin: bytes = b"") -> tuple[int, set[str], str]:
    """`git correx ARGS` as a real process: its exit code, every module it imported
    (`-X importtime`) and the rest of its stderr."""
    argv = [sys.executable, "-X", "importtime", "-m", "gitcorrex", *args]
    proc = subprocess.run(argv, cwd=root, env=ENV, input=stdin, capture_output=True,
                          check=False, timeout=120)
    lines = proc.stderr.decode().splitlines()
    imported = {line.split("|")[-1].strip() for line in lines if line.startswith("import time:")}
    rest = "\n".join(line for line in lines if not line.startswith("import time:"))
    return proc.returncode, imported, rest


def test_the_start_up_modules_import_neither_click_nor_typing(repo: Path) -> None:
    code, imported, err = run_importing(repo, "state", "--json", "--json")
    assert code == 0, err
    assert imported >= STARTUP_MODULES
    assert not {"click", "typing"} & imported


def test_log_with_every_option_is_answered_without_click(repo: Path) -> None:
    """Signatures asked: the full path runs, without click, and prints what click's does."""
    verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip(), "pass")
    args = ["log", "-n1", "--max-count=2", "--json", "--verify-signatures", "HEAD"]
    code, imported, err = run_importing(repo, *args)
    assert code == 0, err
    assert "click" not in imported
    early = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=repo, env=ENV,
                           capture_output=True, text=True, check=True)
    late = subprocess.run([sys.executable, "-c", BY_CLICK, *args], cwd=repo, env=ENV,
                          capture_output=True, text=True, check=True)
    assert early.stdout == late.stdout
    assert json.loads(early.stdout)["commits"][0]["signer"] is not None


def test_session_status_is_answered_without_click_even_when_it_fails(repo: Path) -> None:
    code, imported, err = run_importing(repo, "session", "status", "no-such-session", "--json")
    assert code == 2, err
    assert "no-such-session" in err or "no session" in err, err
    assert "click" not in imported


def test_an_agent_hook_with_every_option_is_answered_without_click(
        make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "hello\n"})
    payload = claude("PreToolUse", root, "Write", file_path=str(root / "x.md"), content="x\n")
    code, imported, err = run_importing(root, "assess", "--record-all", "--hook=claude-code",
                                        "--session", "s-1", "--stage=implement", stdin=payload)
    assert code in (0, 2), err
    assert "gitcorrex.cli.agent_hook" in imported
    assert "click" not in imported


def test_help_and_typos_still_reach_click(repo: Path) -> None:
    for args in (["verify", "--help"], ["log", "--frobnicate"], ["state", "--json=yes"]):
        code, imported, err = run_importing(repo, *args)
        assert "click" in imported, args
        assert code == (0 if "--help" in args else 2), (args, err)


def test_a_hook_run_passes_git_s_arguments_untouched(repo: Path) -> None:
    """pre-push gets the remote's name and URL; unknown options are arguments to it."""
    git(repo, "remote", "add", "origin", str(repo))
    code, imported, err = run_importing(repo, "hook", "run", "pre-push", "origin", str(repo))
    assert code == 0, err
    assert "click" not in imported
