"""Each verification observation of a tree as an in-toto Statement v1.

The subject is the tree itself (digest `gitTree`: anyone can check it with
`git rev-parse REV^{tree}`); the predicate is the test-result predicate v0.1 with the
profile blob as its configuration (digest `gitBlob`: `git hash-object .correx.toml`).
Only `pass` is PASSED: `fail` and `unavailable` are FAILED, since nothing unproven passes.
The statements are unsigned; sign them with the tool your verifier expects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gitcorrex import ledger
from gitcorrex.errors import ExitCode
from gitcorrex.git.repository import Repository
from gitcorrex.git.trees import resolve_tree
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import VerificationFields

STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
TEST_RESULT = "https://in-toto.io/attestation/test-result/v0.1"
PROFILE_NAME = ".correx.toml"
_RESULTS = {"pass": "PASSED", "fail": "FAILED", "unavailable": "FAILED"}


@dataclass(frozen=True)
class Attestations:
    """`statements` oldest first; empty when the tree has no verification (unverified)."""

    rev: str
    tree: str
    statements: list[dict[str, Any]]

    @property
    def exit_code(self) -> int:
        """1 when there is nothing to attest (the tree is unverified), else 0."""
        return ExitCode.OK if self.statements else ExitCode.CHECK_FAILED


def attest_tree(repo: Repository, *, rev: str) -> Attestations:
    """One Statement per verification recorded on REV's tree."""
    tree = resolve_tree(repo, rev)
    read = ledger.read_subject(repo, tree)
    observed = sorted((e for e in read.events if e.kind == VerificationFields.KIND),
                      key=lambda event: (event.at, event.id))
    return Attestations(rev, tree, [statement(rev, tree, event) for event in observed])


def statement(name: str, tree: str, event: RecordedEvent) -> dict[str, Any]:
    """The Statement for one observation (field names as the in-toto specs spell them)."""
    passed, failed = _tests(event)
    return {
        "_type": STATEMENT_TYPE,
        "subject": [{"name": name, "digest": {"gitTree": tree}}],
        "predicateType": TEST_RESULT,
        "predicate": {
            "result": _RESULTS.get(str(event.field("result")), "FAILED"),
            "configuration": [{
                "name": PROFILE_NAME,
                "digest": {"gitBlob": str(event.field("profile"))},
                "annotations": {"expectation": str(event.field("expectation")),
                                "correxEvent": event.id, "observedAt": event.at},
            }],
            "passedTests": passed,
            "warnedTests": [],
            "failedTests": failed,
        },
    }


def _tests(event: RecordedEvent) -> tuple[list[str], list[str]]:
    """Command names that passed, and those that did not (a skipped one never passed)."""
    commands = event.field("commands")
    passed: list[str] = []
    failed: list[str] = []
    for command in commands if isinstance(commands, list) else []:
        if not isinstance(command, dict):
            continue
        ok = command.get("stop_reason") == "exit" and command.get("exit_code") == 0
        (passed if ok else failed).append(str(command.get("name")))
    if event.field("result") != "pass" and not failed:
        failed.append(str(event.field("reason") or event.field("expectation")))
    return passed, failed
