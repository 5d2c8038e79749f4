"""Steps that make no build claim: no declared writes, or an expectation without commands."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write
from tests.session.conftest import THREE_STEPS, lock_ready, status, step

DOCS = step("D1", ["docs/**"], stage="docs")
NO_WRITES = step("N1", [])


def test_a_docs_step_completes_without_an_observation(project: Path, plans, cli) -> None:
    """Its checks (`notes = []`) run nothing: an activity-only step. Its state is settled,
    never verified: the next step asks for a `verify` first."""
    assert lock_ready(cli, project, plans("docs", [DOCS, THREE_STEPS[0]]),
                      "--session", "d").code == 0
    assert cli(project, "step", "start", "D1").code == 0
    write(project, "docs/guide.md", "# guide\n")
    result = cli(project, "verify")
    assert result.code == 0 and "completed without a build claim" in result.stdout, result
    document = status(cli, project, "d")
    state = document["state"]
    d1 = state["steps"][0]
    assert (d1["status"], d1["build_claim"], d1["verified_by"]) == ("verified", False, None)
    assert state["baseline"]["source"] == "lock"  # a step without a build claim leaves it
    assert document["workspace"]["verified"] is False
    replayed = json.loads(cli(project, "replay", "--session", "d", "--json").stdout)
    kinds = [event["kind"] for event in replayed["events"]]
    assert "workspace_verification_observed" not in kinds and "step_verified" in kinds
    refused = cli(project, "step", "start", "S1")
    assert refused.code == 1, refused
    assert "git correx verify --stage implement" in refused.stderr, refused
    assert cli(project, "verify", "--stage", "implement").code == 0  # its build claim
    assert cli(project, "step", "start", "S1").code == 0


def test_a_docs_step_may_not_change_paths_it_did_not_declare(project: Path, plans,
                                                             cli) -> None:
    assert lock_ready(cli, project, plans("docs", [DOCS]), "--session", "d").code == 0
    assert cli(project, "step", "start", "D1").code == 0
    write(project, "src/sneaky.py", "X = 1\n")
    result = cli(project, "verify")
    assert result.code == 1 and "src/sneaky.py" in result.stderr
    assert status(cli, project, "d")["state"]["steps"][0]["status"] == "active"


def test_a_step_without_writes_completes_only_on_the_baseline(project: Path, plans,
                                                              cli) -> None:
    assert lock_ready(cli, project, plans("none", [NO_WRITES]), "--session", "n").code == 0
    assert cli(project, "step", "start", "N1").code == 0
    result = cli(project, "verify")
    assert result.code == 0, result
    assert status(cli, project, "n")["state"]["status"] == "completed"
