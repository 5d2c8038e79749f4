"""`git correx ARGS` exactly as a user runs it: git finds the installed console script
(`git-correx`, beside the test interpreter) on PATH and runs it as a subcommand."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CliResult

SCRIPT = Path(sys.executable).parent / "git-correx"


def git_correx(root: Path, *args: str, env: dict[str, str] | None = None) -> CliResult:
    """Run `git correx ARGS` in `root` with `env` added; skip where nothing is installed."""
    if not SCRIPT.exists():  # pragma: no cover - the test venv installs the package
        pytest.skip(f"no console script at {SCRIPT}")
    full = {**os.environ, **(env or {}),
            "PATH": f"{SCRIPT.parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["git", "correx", *args], cwd=root, env=full, capture_output=True,
                          text=True, check=False, timeout=120)
    return CliResult(proc.returncode, proc.stdout, proc.stderr)
