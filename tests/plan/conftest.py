"""A repository with a profile for plans, fixture plan files, and ledger helpers.

Plans are passed by absolute path from `fixtures/`, outside the repository, so the plan
file itself never changes the workspace state key.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from gitcorrex import ledger
from gitcorrex.git.repository import discover
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.events import RecordedEvent
from gitcorrex.plan.load import load_plan
from tests.conftest import CliResult, git
from tests.ledger_facts import raw_draft

FIXTURES = Path(__file__).resolve().parent / "fixtures"

PROFILE = """\
version = 1

[commands]
test = "python3 check_impl.py"
lint = "python3 -c pass"
migration-check = "python3 -c pass"

[expectations]
full = ["lint", "test"]

[stages.implement]
build_expectation = "full"
writes = ["src/**", "tests/**", "impl.txt"]

[stages.schema]
build_expectation = "full"
writes = ["migrations/**"]
"""

CHECK_IMPL = """\
import pathlib
import sys

sys.exit(pathlib.Path("impl.txt").read_text() != "good\\n")
"""


def verified(cli: Callable[..., CliResult], root: Path) -> None:
    """A passing observation of the current state: the baseline `plan lock` needs."""
    result = cli(root, "verify", "--expect", "full", "--quiet")
    assert result.code == 0, result


def fixture(name: str) -> Path:
    """The path of a plan under tests/plan/fixtures/."""
    path = FIXTURES / name
    assert path.is_file(), path
    return path


@pytest.fixture
def plan_repo(make_repo: Callable[..., Path]) -> Path:
    """A committed repository with the plan profile and a passing implementation."""
    return make_repo("plans", files={".correx.toml": PROFILE, "impl.txt": "good\n",
                                     "check_impl.py": CHECK_IMPL,
                                     "src/app.py": "def run():\n    return 1\n"})


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """`git correx ARGS` through the real CLI entry (`cli.root.run`), in this process.

    Same parsing, commands and exit codes as the `correx` fixture's subprocess, without
    ~0.5 s of interpreter start-up per call; flows that need a separate process use `correx`.
    (The root conftest points libgit2's config search path at the isolated HOME.)
    """
    from gitcorrex.cli.root import run

    def invoke(cwd: Path, *args: str) -> CliResult:
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        code = run(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


def parse(result: CliResult) -> dict:
    """The --json document of a run, failing with the whole output when it is not JSON."""
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError as exc:  # pragma: no cover - shown on failure only
        raise AssertionError(str(result)) from exc


def codes(document: dict) -> set[tuple[str | None, str]]:
    """(step, code) of every finding in a validation document."""
    return {(f["step"], f["code"]) for f in document["findings"]}


def record(root: Path, kind: str, plan: Path, *, state_key: str | None = None,
           at: datetime | None = None, extra_subjects: tuple[str, ...] = (),
           **fields: object) -> RecordedEvent:
    """Write one event about `plan` straight into the ledger (facts other commands record)."""
    repo = discover(root)
    loaded = load_plan(plan)
    from gitcorrex.git import notes

    subject = notes.write_blob(repo, loaded.canonical_bytes)
    subjects = (subject, *extra_subjects) + ((state_key,) if state_key else ())
    draft = raw_draft(kind=kind, subjects=subjects, state_key=state_key,
                              fields={"plan": loaded.identity, "plan_id": loaded.plan.id,
                                      **fields})
    [event] = ledger.append_events(repo, [draft], now=at or datetime.now(timezone.utc),
                                   provenance=current_provenance(repo))
    return event


def ground(root: Path, plan: Path, verdict: str = "pass",
           state_key: str | None = None) -> RecordedEvent:
    """A `plan_grounding_evaluated` fact as `plan ground` records it (default: current key):
    every field of `GroundingFields`, or the lock would not count it as a grounding."""
    key = state_key or git(root, "rev-parse", "HEAD^{tree}").strip()
    profile = git(root, "hash-object", ".correx.toml").strip()
    return record(root, "plan_grounding_evaluated", plan, state_key=key, verdict=verdict,
                  findings=[], profile=profile, index=None, extractors={})


def plan_events(root: Path, plan: Path) -> list[RecordedEvent]:
    """Every event on the plan's blob, in note order."""
    repo = discover(root)
    return ledger.read_subject(repo, load_plan(plan).identity).events
