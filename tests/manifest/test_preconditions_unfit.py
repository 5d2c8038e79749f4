"""Precondition signals read blocks and earlier signals as payload classes: a line of either
kind whose fields do not fit is treated as absent (manifest/preconditions.py); the line
itself stays in the ledger. Real processes; the lines are rewritten through `git notes`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import git
from tests.gates.conftest import Correx, state_key
from tests.unfit_lines import unfit

PROFILE = 'version = 1\n[commands]\ntest = { run = "pytest", requires = ["pyproject.toml"] }\n'
SIGNAL = "workspace_precondition_failed"


def kinds_on(root: Path, subject: str) -> list[str]:
    lines = git(root, "notes", "--ref=correx", "show", subject).splitlines()
    return [json.loads(line)["kind"] for line in lines]


def blocked_read(root: Path, correx: Correx) -> str:
    result = correx(root, "assess", "read", "pyproject.toml")
    assert result.code == 1, result
    return result.stderr


def test_a_signal_line_that_does_not_fit_does_not_stand_for_the_signal(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    for _ in range(3):
        blocked_read(root, correx)
    tree = state_key(root)
    assert kinds_on(root, tree).count(SIGNAL) == 1
    unfit(root, tree, SIGNAL, attempts=0)  # attempts are at least 1
    assert SIGNAL in blocked_read(root, correx)  # recorded again: the unfit one is absent
    assert kinds_on(root, tree).count(SIGNAL) == 2  # the unfit line stays in the ledger


def test_a_block_line_that_does_not_fit_is_not_counted(make_repo: Callable[..., Path],
                                                       correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    blocked_read(root, correx)
    blocked_read(root, correx)
    unfit(root, state_key(root), "tool_call_assessed", paths_omitted="none")  # an int field
    assert SIGNAL not in blocked_read(root, correx)  # two readable blocks, threshold 3
    assert SIGNAL not in kinds_on(root, state_key(root))
    assert SIGNAL in blocked_read(root, correx)  # the third readable block
