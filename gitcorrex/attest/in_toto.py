"""Each verification observation of a tree as an in-toto Statement v1.

The subject is the tree itself (digest `gitTree`: anyone can check it with
`git rev-parse REV^{tree}`); the predicate is the test-result predicate v0.1 with the
profile blob as its configuration (digest `gitBlob`: `git hash-object .correx.toml`).
Only `pass` is PASSED: `fail` and `unavailable` are FAILED, since nothing unproven passes;
an observation whose fields do not fit its class is FAILED too, its problem the failure.
The statements are unsigned; sign them with the tool your verifier expects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gitcorrex import ledger
from gitcorrex.git import Repository, resolve_tree
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.event_kinds import payload_or_problem
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.payload_problem import unfit_text
from gitcorrex.model.verification import Result, StopReason, VerificationFields

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
    def conclusion(self) -> Conclusion:
        """Failed when there is nothing to attest (the tree is unverified)."""
        return Conclusion.OK if self.statements else Conclusion.CHECK_FAILED


def attest_tree(repo: Repository, *, rev: str) -> Attestations:
    """One Statement per verification recorded on REV's tree."""
    tree = resolve_tree(repo, rev)
    read = ledger.read_subject(repo, tree)
    observed = sorted((e for e in read.events if e.kind == VerificationFields.KIND),
                      key=time_order)
    return Attestations(rev, tree, [statement(rev, tree, event) for event in observed])


def statement(name: str, tree: str, event: RecordedEvent) -> dict[str, Any]:
    """The Statement for one observation (field names as the in-toto specs spell them).
    An observation whose fields do not fit its class is FAILED, with its problem as the
    failure and no configuration (no profile digest is read from it)."""
    fields, problem = payload_or_problem(event)
    if not isinstance(fields, VerificationFields):
        return _statement(name, tree, "FAILED", [], ([], [unfit_text(event.kind, str(problem))]))
    configuration = [{
        "name": PROFILE_NAME,
        "digest": {"gitBlob": fields.profile},
        "annotations": {"expectation": fields.expectation,
                        "correxEvent": event.id, "observedAt": event.at},
    }]
    return _statement(name, tree, _RESULTS[fields.result.value], configuration, _tests(fields))


def _statement(name: str, tree: str, result: str, configuration: list[dict[str, Any]],
               tests: tuple[list[str], list[str]]) -> dict[str, Any]:
    return {
        "_type": STATEMENT_TYPE,
        "subject": [{"name": name, "digest": {"gitTree": tree}}],
        "predicateType": TEST_RESULT,
        "predicate": {
            "result": result,
            "configuration": configuration,
            "passedTests": tests[0],
            "warnedTests": [],
            "failedTests": tests[1],
        },
    }


def _tests(fields: VerificationFields) -> tuple[list[str], list[str]]:
    """Command names that passed, and those that did not (a skipped one never passed)."""
    passed: list[str] = []
    failed: list[str] = []
    for command in fields.commands:
        ok = command.stop_reason is StopReason.EXIT and command.exit_code == 0
        (passed if ok else failed).append(command.name)
    if fields.result is not Result.PASS and not failed:
        failed.append(fields.reason.value if fields.reason else fields.expectation)
    return passed, failed
