"""`check --require-test-integrity`: the range's head must not weaken the tests of BASE, or a
person must have accepted it on the head's tree.

The head's tree is scanned against the merge base of BASE and HEAD (what the branch started
from: a base that moved on since has tests the branch never saw, and they are not the
branch's to remove). An acceptance counts when it was recorded on exactly the head's tree
and names the finding. With signatures required (`--require-signed`,
`correx.requireSigned`) only acceptances added by a ledger commit git verifies as signed by
a trusted key count: an unsigned line anyone can push neither accepts nor blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gitcorrex.git import Repository, config_flag, tree_of
from gitcorrex.integrity.gate import Integrity
from gitcorrex.integrity.record import accepted_keys, record_findings
from gitcorrex.integrity.scan import scan_trees
from gitcorrex.ledger.signers import event_signers
from gitcorrex.ledger.subjects import read_subjects
from gitcorrex.model.events import Provenance
from gitcorrex.model.test_integrity import WeakeningsAccepted

REQUIRE_CONFIG = "correx.requireTestIntegrity"


def is_test_integrity_required(repo: Repository) -> bool:
    """`git config correx.requireTestIntegrity` (a boolean; a typo is exit 2)."""
    return config_flag(repo, REQUIRE_CONFIG)


@dataclass(frozen=True)
class RequiredIntegrity:
    """The head tree's open weakenings against the range's base (a `HeadCheck`)."""

    integrity: Integrity
    signed: bool = False

    @property
    def ok(self) -> bool:
        return self.integrity.ok

    def as_dict(self) -> dict[str, object]:
        scan = self.integrity.scan
        return {"tree": scan.state, "baseline": scan.baseline, "signed": self.signed,
                "open": [f.as_dict() for f in self.integrity.open],
                "accepted": [f.as_dict() for f in scan.findings
                             if f.key() in self.integrity.accepted]}

    def describe(self) -> str:
        scan = self.integrity.scan
        if self.ok:
            accepted = len(scan.findings)
            tail = f" ({accepted} weakening(s) accepted)" if accepted else ""
            return f"head tree {scan.state[:12]}: tests hold against {scan.baseline[:12]}{tail}"
        advice = ("Restore the tests, or have a person review them and run `git correx "
                  f"accept-tests --base {scan.baseline[:12]} --reason TEXT` in a checkout of "
                  "the head, then publish the ledger (`git correx sync`).")
        return self.integrity.describe(advice).rstrip("\n")


def required_integrity(repo: Repository, *, base: str, head: str, signed: bool,
                       record: Provenance | None = None,
                       now: datetime | None = None) -> RequiredIntegrity:
    """The open weakenings of commit `head`'s tree against commit (or tree) `base`; with
    `record` and `now`, each finding is recorded on the head's tree (`check --record`)."""
    baseline, state = tree_of(repo, base), tree_of(repo, head)
    scan = scan_trees(repo, baseline=baseline, state=state)
    if scan.findings and record is not None and now is not None:
        record_findings(repo, baseline=baseline, state=state, findings=scan.findings, now=now,
                        provenance=record)
    if not scan.findings:
        return RequiredIntegrity(Integrity(scan, frozenset()), signed)
    found = read_subjects(repo, [state])
    entries = found.on(state)
    if signed:
        acceptances = [e for e in entries if e.kind == WeakeningsAccepted.KIND]
        signers = event_signers(repo, found.tip, state, [e.id for e in acceptances])
        entries = [e for e in acceptances if signers[e.id].state == "verified"]
    return RequiredIntegrity(Integrity(scan, frozenset(accepted_keys(entries))), signed)

