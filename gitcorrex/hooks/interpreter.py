"""Proving that the interpreter a hook pins can import git correx, by running it.

The probe imports every module the hook can need (the check, and the recording of a block
with pydantic and pygit2), so a missing dependency shows here, not on the first block.

This is the one place outside git/ that starts a process other than git: an interpreter
(possibly another virtualenv's) can only be asked what it imports by running it. It runs
with the current directory dropped from `sys.path`, exactly as the hook's launcher does.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache

PROBE = ("import sys\n"
         "if sys.path and sys.path[0] == '':\n"
         "    del sys.path[0]\n"
         "import gitcorrex\n"
         "import gitcorrex.cli.hook_run, gitcorrex.hooks.commit_check\n"
         "import gitcorrex.hooks.block_record\n"
         "print(gitcorrex.__version__)\n"
         "print(gitcorrex.__file__)\n")
TIMEOUT_SECONDS = 60


@dataclass(frozen=True)
class InterpreterProbe:
    """`ok` when `python` ran and imported gitcorrex; else `problem` says what failed."""

    python: str
    ok: bool
    version: str | None = None
    location: str | None = None
    problem: str | None = None


@lru_cache(maxsize=16)
def probe_interpreter(python: str) -> InterpreterProbe:
    """Run `python` once and report whether (and from where) it imports gitcorrex."""
    if not os.path.isfile(python) or not os.access(python, os.X_OK):
        return InterpreterProbe(python, False, problem="the interpreter does not exist "
                                "or is not executable")
    try:
        proc = subprocess.run([python, "-c", PROBE], capture_output=True, check=False,
                              timeout=TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return InterpreterProbe(python, False, problem=f"could not run it: {exc}")
    if proc.returncode != 0:
        last = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        return InterpreterProbe(python, False, problem=f"cannot import gitcorrex: {last[0]}")
    version, location = [*proc.stdout.decode("utf-8", "replace").splitlines(), "", ""][:2]
    return InterpreterProbe(python, True, version=version, location=location)
