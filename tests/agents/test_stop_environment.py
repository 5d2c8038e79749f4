"""The Stop gate's ledger-first allow asks the same reuse rule as `verify --reuse`: a pass
recorded under another interpreter does not let the turn end, and the reason names it."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path

from tests.agents.conftest import claude, json_answer
from tests.conftest import git, run_correx, write

PROFILE = """version = 1
[commands]
check = {run}
[expectations]
check = ["check"]
[defaults]
expectation = "check"
verify_before_stop = true
"""


def test_a_pass_under_a_stub_interpreter_does_not_let_the_turn_end(
        make_repo: Callable[..., Path], tmp_path: Path) -> None:
    """The check fails under the real interpreter; a stub `python3` first on PATH passes it.
    The stub's pass is not taken from the ledger: the Stop gate runs the check itself, in
    the hook's environment, blocks on its failure and names the environment that differed.
    Under the stub's own environment the same stop takes the stub's pass."""
    run = shlex.join(["python3", "-c", "import sys; sys.exit(1)"])
    root = make_repo(files={"README.md": "x\n", ".correx.toml": PROFILE.format(run=repr(run))})
    stub = tmp_path / "stub-bin"
    stub.mkdir()
    write(stub, "python3", "#!/bin/sh\nexit 0\n").chmod(0o755)
    stubbed = {"PATH": f"{stub}{os.pathsep}{os.environ['PATH']}"}
    write(root, "README.md", "changed\n")
    assert run_correx(root, "verify", "-q", env=stubbed).code == 0
    stop = claude("Stop", root)
    answer = json_answer(run_correx(root, "assess", "--hook", "claude-code", input=stop))
    assert answer["decision"] == "block", answer
    assert f"another environment: python3: {stub / 'python3'} → " in answer["reason"], answer
    assert "the Stop gate ran it" in answer["reason"], answer
    stubbed_stop = run_correx(root, "assess", "--hook", "claude-code", input=stop, env=stubbed)
    assert (stubbed_stop.code, stubbed_stop.stdout) == (0, ""), stubbed_stop
    assert git(root, "status", "--short").strip() == "M README.md"
