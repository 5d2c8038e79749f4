"""What one `git correx log` line holds, as plain values: a commit, its tree's status and
(with `--verify-signatures`) who signed the ledger commit. No models here: statuses kept
by note content (`tree_statuses.py`) become these without loading pydantic."""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git import LoggedCommit

TYPE_CHECKING = False  # no `typing` at run time: the stored-status `log` never needs it (3 ms)
if TYPE_CHECKING:
    from gitcorrex.ledger.signers import Signer
    from gitcorrex.model.ledger_problem import Problem

MARKS = {"pass": "✓", "fail": "✗", "unavailable": "?", "none": "-", "other_profile": "≠"}


@dataclass(frozen=True)
class TreeStatus:
    """`result` is pass, fail, unavailable or none; the rest is None when it is none.
    `problem` is set (and `expectation`, `reason` are None) when the latest verification's
    fields do not fit its kind: its result is then `unavailable`. `profile` is set when no
    verification ran the trusted profile and the status shows one that ran another (that
    blob): its pass is `other_profile`, never `pass` (model/observed_pass.py)."""

    tree: str
    result: str
    expectation: str | None = None
    reason: str | None = None
    by: str | None = None
    at: str | None = None
    event: str | None = None
    problem: str | None = None
    profile: str | None = None
    flaky: str | None = None  # the runs both failed and passed (review/observation_runs.py)

    @property
    def mark(self) -> str:
        return MARKS.get(self.result, "?")

    def as_dict(self) -> dict[str, str | None]:
        """The JSON form; `problem`, `profile` and `flaky` only when set (documents stay as they
        were)."""
        document = {"tree": self.tree, "result": self.result, "expectation": self.expectation,
                    "reason": self.reason, "by": self.by, "at": self.at, "event": self.event}
        if self.problem is not None:
            document["problem"] = self.problem
        if self.profile is not None:
            document["profile"] = self.profile
        if self.flaky is not None:
            document["flaky"] = self.flaky
        return document


@dataclass(frozen=True)
class LogLine:
    """One commit; `signer` is set only when signatures were asked for and it has a status."""

    commit: LoggedCommit
    status: TreeStatus
    signer: Signer | None = None

    def as_dict(self) -> dict[str, object]:
        return {"commit": self.commit.sha, "tree": self.commit.tree,
                "subject": self.commit.subject, "status": self.status.as_dict(),
                "signer": None if self.signer is None else self.signer.as_dict()}


@dataclass(frozen=True)
class LogResult:
    lines: list[LogLine]
    problems: list[Problem]
