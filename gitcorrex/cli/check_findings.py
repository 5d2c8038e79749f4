"""What `git correx check` found, as findings a code-scanning reader places on the diff: one
per manifest violation (a path and rule, whichever commits and the net diff it appears in),
one for a missing or failing required pass, one per open test weakening. The SARIF
(`check_sarif.py`) and GitHub annotation (`check_annotations.py`) outputs both render this
one list, so they never disagree about what was found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcorrex.model.repo_paths import printable_path

if TYPE_CHECKING:
    from gitcorrex.manifest.range_gate import RangeGate

PROFILE_FILE = ".correx.toml"


@dataclass(frozen=True)
class Rule:
    """A rule a finding breaks: its id (as `--json` and the ledger name it), a short
    description, the help a reviewer reads and the page of docs/ that says more."""

    id: str
    name: str
    short: str
    help: str
    doc: str


RULES = {rule.id: rule for rule in (
    Rule("PATH_OUTSIDE_MANIFEST", "PathOutsideManifest",
         "A commit changes a path outside the stage's write manifest.",
         "The pull request changes a path that the manifest of the selected stage (read from "
         "the base's .correx.toml) does not declare. Declare the path in the stage's "
         "`writes` on the base branch, or revert the change.", "ci.md"),
    Rule("PATH_NOT_CANONICAL", "PathNotCanonical",
         "A commit holds a path that is not canonical.",
         "A path with a `..`, `.`, `.git` or empty component can escape or confuse the "
         "work tree; it is refused whatever the manifest says. Remove the path.", "ci.md"),
    Rule("REQUIRED_PASS_MISSING", "RequiredPassMissing",
         "The head's tree has no recorded pass under the base's profile.",
         "`check --require-pass` counts only a recorded pass of exactly the head's tree, run "
         "under the profile the base holds (and, with --require-signed, added by a trusted "
         "signer). Run `git correx verify` on the head (with `--profile-from BASE` when the "
         "branch changes the profile) and publish the ledger with `git correx sync`.",
         "ci.md#the-head-must-have-passed-under-the-bases-profile"),
    Rule("TEST_WEAKENED", "TestWeakened",
         "The head's tests are weaker than the merge base's.",
         "A test was removed, renamed away, lost assertions, gained a trivially true one or a "
         "skip marker, or a check was told to pass. Restore it, or have a person review it "
         "and run `git correx accept-tests`.", "agents/test-integrity.md"),
)}


@dataclass(frozen=True)
class Finding:
    """One thing to show a reviewer: the rule, the file and line it is about, the message."""

    rule: str
    path: str  # as printed (escaped), repository-relative
    line: int
    message: str
    path_bytes: bytes  # the exact name, for a URI


def check_findings(gate: RangeGate) -> list[Finding]:
    """Every finding of the gate, in the order `check` prints them."""
    return [*_violations(gate), *_required(gate), *_weakenings(gate)]


def _violations(gate: RangeGate) -> list[Finding]:
    """One finding per (rule, path): the commits (and net diff) it appears in, named."""
    from gitcorrex.git import encode_path

    where: dict[tuple[str, str], list[str]] = {}
    first: dict[tuple[str, str], str] = {}
    report = gate.report
    found = [(f"commit {c.sha[:12]}", v) for c in report.commits for v in c.violations]
    found += [("the net diff", v) for v in report.net]
    for place, violation in found:
        key = (violation.rule, violation.path)
        where.setdefault(key, []).append(place)
        first.setdefault(key, violation.describe())
    return [Finding(rule, printable_path(path), 1,
                    f"{first[(rule, path)]} (in {', '.join(where[(rule, path)])})",
                    encode_path(path))
            for rule, path in where]


def _required(gate: RangeGate) -> list[Finding]:
    if gate.required is None or gate.required.ok:
        return []
    return [Finding("REQUIRED_PASS_MISSING", PROFILE_FILE, 1, gate.required.describe(),
                    PROFILE_FILE.encode())]


def _weakenings(gate: RangeGate) -> list[Finding]:
    if gate.integrity is None or gate.integrity.ok:
        return []
    found = gate.integrity.as_dict().get("open", [])
    findings = []
    for item in found if isinstance(found, list) else []:
        path, line = str(item["path"]), item.get("line")
        where = f"{path}:{line}" if line else path
        findings.append(Finding("TEST_WEAKENED", printable_path(path),
                                line if isinstance(line, int) and line > 0 else 1,
                                f"{where} {item['test']}: {item['rule']} ({item['detail']})",
                                path.encode("utf-8", "surrogateescape")))
    return findings
