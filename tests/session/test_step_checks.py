"""Every step runs its own plan checks, as real processes (seed 003 INV-2).

A docs step (its stage's expectation runs nothing) or a step without writes makes no build
claim, yet it is verified only when its own checks pass. Their results are recorded as
`step_checks_observed`, never as a pass of the tree (seed 000: a docs-only stage does not
manufacture a build claim), so the step after it asks for a `verify` first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, write
from tests.session.conftest import CHECK, PROFILE, lock_ready, status, step, steps_of

Correx = Callable[..., CliResult]

DOC_PROFILE = PROFILE.replace('test = "python3 check.py"\n',
                              'test = "python3 check.py"\ndoccheck = "python3 doccheck.py"\n')
DOCCHECK = """\
import pathlib
import sys

bad = [str(p) for p in sorted(pathlib.Path("docs").glob("*.md")) if "TODO" in p.read_text()]
for path in bad:
    print(f"doccheck: {path} still says TODO")
sys.exit(1 if bad else 0)
"""

DOCS_STEP = {**step("D1", ["docs/**"], stage="docs"), "checks": ["doccheck"]}
NO_WRITES = {**step("N1", []), "checks": ["doccheck"]}


@pytest.fixture
def documented(make_repo: Callable[..., Path]) -> Path:
    return make_repo("documented", files={".correx.toml": DOC_PROFILE, "check.py": CHECK,
                                          "doccheck.py": DOCCHECK, "src/__init__.py": ""})


def events(correx: Correx, root: Path, session: str) -> list[dict[str, Any]]:
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    return list(json.loads(replayed.stdout)["events"])


def test_a_docs_step_whose_check_fails_is_not_verified(
        documented: Path, plans: Callable[..., Path], correx: Correx) -> None:
    assert lock_ready(correx, documented, plans("docs", [DOCS_STEP], "docs"),
                      "--session", "d").code == 0
    assert correx(documented, "step", "start", "D1").code == 0
    write(documented, "docs/guide.md", "# guide\nTODO\n")
    failed = correx(documented, "verify")
    assert failed.code == 1, failed
    assert "doccheck: docs/guide.md still says TODO" in failed.stdout + failed.stderr
    document = status(correx, documented, "d")
    assert document["state"]["status"] == "active"  # not completed
    assert steps_of(document)["D1"] == ("failed", 1)
    failure = [e for e in events(correx, documented, "d") if e["kind"] == "step_failed"][-1]
    assert failure["part"] == "check:doccheck"


def test_a_docs_step_whose_checks_pass_records_them_as_its_checks(
        documented: Path, plans: Callable[..., Path], correx: Correx) -> None:
    assert lock_ready(correx, documented, plans("docs", [DOCS_STEP], "docs"),
                      "--session", "d").code == 0
    assert correx(documented, "step", "start", "D1").code == 0
    write(documented, "docs/guide.md", "# guide\n")
    passed = correx(documented, "verify")
    assert passed.code == 0 and "session completed" in passed.stdout, passed
    assert "no build claim" in passed.stdout, passed
    recorded = events(correx, documented, "d")
    checks = [e for e in recorded if e["kind"] == "step_checks_observed"]
    assert [c["name"] for c in checks[0]["commands"]] == ["doccheck"]
    assert (checks[0]["step"], checks[0]["result"]) == ("D1", "pass")
    verified = next(e for e in recorded if e["kind"] == "step_verified")
    assert (verified["build_claim"], verified["observation"]) == (False, checks[0]["id"])
    assert "workspace_verification_observed" not in [e["kind"] for e in recorded[2:]]
    shown = correx(documented, "show")  # shown as what it is, never as a pass of the tree
    assert shown.code == 0, shown
    assert "step checks, no build claim: pass (doccheck)" in shown.stdout, shown
    assert "✓" not in shown.stdout, shown
    document = status(correx, documented, "d")
    assert document["workspace"]["verified"] is False
    assert checks[0]["state_key"] not in document["state"]["verified"]


def test_the_step_after_a_docs_step_asks_for_a_verify_first(
        documented: Path, plans: Callable[..., Path], correx: Correx) -> None:
    build = step("S1", ["src/a.py"])
    assert lock_ready(correx, documented, plans("docs", [DOCS_STEP, build], "docs"),
                      "--session", "d").code == 0
    assert correx(documented, "step", "start", "D1").code == 0
    write(documented, "docs/guide.md", "# guide\n")
    assert correx(documented, "verify").code == 0
    refused = correx(documented, "step", "start", "S1")
    assert refused.code == 1, refused
    assert "carries no passing observation of a build expectation" in refused.stderr, refused
    assert "git correx verify --stage implement" in refused.stderr, refused
    assert correx(documented, "verify", "--stage", "implement").code == 0
    assert correx(documented, "step", "start", "S1").code == 0


def test_a_step_without_writes_runs_its_checks(
        documented: Path, plans: Callable[..., Path], correx: Correx) -> None:
    write(documented, "docs/guide.md", "TODO\n")
    assert lock_ready(correx, documented, plans("none", [NO_WRITES], "none"),
                      "--session", "n").code == 0
    assert correx(documented, "step", "start", "N1").code == 0
    failed = correx(documented, "verify")
    assert failed.code == 1 and "still says TODO" in failed.stdout + failed.stderr, failed
    assert status(correx, documented, "n")["state"]["status"] == "active"
