"""A committed project with a stage manifest, and readers of what `assess` recorded.

Recorded events are read back through `git correx replay --json` (the ledger ref alone) and
checked against the state key as git itself defines it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.assessment import AssessmentFields
from gitcorrex.model.events import RecordedEvent
from tests.conftest import CliResult, git, run_correx, write
from tests.manifest.range_repos import gate_repo  # noqa: F401  (the range gate tests' fixture)

Correx = Callable[..., CliResult]
PROFILE = 'version = 1\n[stages.implement]\nwrites = ["/src/**", "/tests/**"]\n'


@pytest.fixture
def project(make_repo: Callable[..., Path]) -> Path:
    """src/, docs/ and a profile whose stage `implement` may write only /src and /tests."""
    return make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            "docs/guide.md": "guide\n", ".correx.toml": PROFILE})


def recorded(root: Path) -> list[RecordedEvent]:
    """Every event in the ledger, as `replay --json` prints it."""
    result = run_correx(root, "replay", "--json")
    assert result.code == 0, result
    return [RecordedEvent.model_validate(e) for e in json.loads(result.stdout)["events"]]


def assessment(event: RecordedEvent) -> AssessmentFields:
    """The kind fields, validated by the model the writer uses."""
    assert event.kind == "tool_call_assessed"
    return AssessmentFields.model_validate(event.model_extra)


def outside_dir(root: Path) -> Path:
    """A directory next to the work tree (outside it), with one file."""
    path = root.parent / "elsewhere"
    write(path, "secret.txt", "secret\n")
    return path


def commit_all(root: Path, message: str = "more") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
