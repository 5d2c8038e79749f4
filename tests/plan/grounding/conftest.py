"""A real multi-language repository to ground plans against, and a way to ground them.

The fixture holds Python, JavaScript, TypeScript, Go, Rust, Java and Kotlin sources, a C
file (a language we ship no grammar for), a Python file with a syntax error, two files
named `client.py`, an embedded repository (a gitlink), and a profile whose commands need
pyproject.toml (present), go.mod (present), Cargo.toml and package.json (both missing).
Plans are written as JSON files outside the work tree, so they are not part of the state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from gitcorrex.git.repository import discover
from gitcorrex.git.state import compute_state
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.grounding import GroundingFinding
from gitcorrex.plan.grounding.ground import GroundingOutcome, ground_plan
from tests.conftest import git, write

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)

PROFILE = """\
version = 1
[commands]
test = { run = "python -m pytest -q", requires = ["pyproject.toml"] }
gotest = "go test ./..."
cargotest = "cargo test"
npmtest = "npm test"
lint = "python -m compileall -q src"
[expectations]
test = ["test"]
go = ["gotest"]
rust = ["cargotest"]
web = ["npmtest"]
docs = []
[stages.implement]
build_expectation = "test"
writes = ["/src/**", "/tests/**", "/web/**", "/crates/**", "/Cargo.toml", "/package.json"]
[stages.docs]
writes = ["/docs/**"]
[stages.open]
"""

SOURCES: dict[str, str] = {
    "pyproject.toml": '[project]\nname = "fixture"\n',
    "go.mod": "module example.com/fixture\n\ngo 1.21\n",
    "src/client.py": (
        "RETRY_LIMIT = 3\n\n\nclass Client:\n    def send(self, payload):\n"
        "        return payload\n\n    def close(self):\n        pass\n\n\n"
        "def connect(url):\n    return Client()\n"),
    "src/util/client.py": "def parse_url(text):\n    return text\n",
    "src/billing/invoice.py": "class Invoice:\n    def total(self):\n        return 0\n",
    "src/broken.py": "def legacy_hook(x:\n    return x\n",
    "web/app.js": ("export class App {\n  render() {}\n  send(message) {}\n}\n\n"
                   "export function boot() {}\n"),
    "web/types.ts": ("export interface Options {\n  retries: number;\n}\n\n"
                     "export class Api {\n  call(): void {}\n}\n"),
    "cmd/server/main.go": ("package main\n\ntype Server struct{}\n\n"
                           "func (s *Server) Serve() {}\n\nfunc main() {}\n"),
    "crates/core/Cargo.toml": '[package]\nname = "core"\n',
    "crates/core/src/lib.rs": (
        "pub struct Engine;\n\nimpl Engine {\n    pub fn run(&self) {}\n}\n\n"
        "pub trait Driver {\n    fn drive(&self);\n}\n"),
    "app/src/main/java/com/acme/Ledger.java": (
        "package com.acme;\n\npublic class Ledger {\n    public void append(String e) {}\n}\n"),
    "app/src/main/kotlin/com/acme/Audit.kt": (
        "package com.acme\n\nclass Audit {\n    fun record() {}\n}\n"),
    "native/codec.c": "int encode_frame(int x) {\n    return x;\n}\n",
    "docs/guide.md": "# Guide\n\nCall `Client.send`.\n",
}


@pytest.fixture
def fixture_repo(tmp_path: Path) -> Path:
    """The committed multi-language repository (see the module docstring)."""
    root = tmp_path / "fixture"
    root.mkdir()
    git(root, "init", "-q")
    for rel, text in {**SOURCES, ".correx.toml": PROFILE}.items():
        write(root, rel, text)
    vendor = root / "vendor" / "lib"
    vendor.mkdir(parents=True)
    git(vendor, "init", "-q")
    write(vendor, "lib.c", "int vendored(void) { return 1; }\n")
    git(vendor, "add", "-A")
    git(vendor, "commit", "-q", "-m", "vendored")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "fixture")
    return root


def step(step_id: str = "S1", **fields: Any) -> dict[str, Any]:
    """A well-formed step: one output proven by its first check; override any field."""
    base: dict[str, Any] = {"id": step_id, "stage": "implement", "writes": [],
                            "expected_outputs": [f"{step_id} works"], "checks": ["test"],
                            "verification_map": [{"output": 0, "evidence": [{"check": 0}]}]}
    return {**base, **fields}


def after(*steps: str) -> list[dict[str, Any]]:
    """`dependencies` on each step's first output."""
    return [{"step": s, "requires": [0]} for s in steps]


def write_plan(directory: Path, steps: Sequence[Mapping[str, Any]], plan_id: str = "p"
               ) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{plan_id}-{len(list(directory.iterdir()))}.json"
    path.write_text(json.dumps({"version": 1, "id": plan_id, "risk": "low",
                                "steps": list(steps)}))
    return path


Ground = Callable[..., GroundingOutcome]


@pytest.fixture
def ground(fixture_repo: Path, tmp_path: Path) -> Ground:
    """Ground a plan made of `steps` on the fixture's current state, in-process."""

    def run(*steps: Mapping[str, Any], root: Path = fixture_repo,
            workers: int | None = 1) -> GroundingOutcome:
        plan = write_plan(tmp_path / "plans", steps)
        repo = discover(root)
        return ground_plan(repo, plan, state_key=compute_state(repo).state_key, now=NOW,
                           provenance=current_provenance(repo), workers=workers)

    return run


def only(outcome: GroundingOutcome, check: str, subject: str) -> GroundingFinding:
    """The one finding of `check` about `subject`."""
    found = [f for f in outcome.fields.findings
             if f.check.value == check and f.subject == subject]
    assert len(found) == 1, outcome.fields.findings
    return found[0]
