"""`git correx report`: what the ledger says about each commit of a pull request.

Per commit (oldest first): its tree's verifications (its status decided under the tree's
own profile: a pass that ran another is shown as such, never as a pass), manifest
assessments, plan grounding verdicts, post-stage gate results, test weakenings found on it
and their acceptances (integrity/), and where every session
that recorded something on that tree stands — folded by the same function as `session
status`. Read in two batched passes (the trees, then the sessions they name) at one ledger
tip, and one `git cat-file` for the trees' profiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gitcorrex.git import LoggedCommit, Repository, list_commits
from gitcorrex.ledger.subjects import read_subjects
from gitcorrex.model.assessment import AssessmentFields
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent, session_object_oid
from gitcorrex.model.grounding import GroundingFields
from gitcorrex.model.note_lines import LedgerEntry, Problem
from gitcorrex.model.test_integrity import WeakeningFound, WeakeningsAccepted
from gitcorrex.model.verification import VerificationFields
from gitcorrex.profiles.profile_file import tree_profiles
from gitcorrex.replay.session_entries import fold_entries
from gitcorrex.review.gate_lines import GATE_KINDS
from gitcorrex.review.report_range import default_range
from gitcorrex.review.tree_status import TreeStatus, tree_status

INTEGRITY_KINDS = frozenset({WeakeningFound.KIND, WeakeningsAccepted.KIND})


@dataclass(frozen=True)
class SessionOutcome:
    """Where a session stands at the report's ledger tip, as `session status` folds it."""

    session: str
    status: str
    revision: int
    active_step: str | None
    pause_cause: str | None
    at: str
    awaiting_review: str | None = None  # the active step, settled, awaiting its review

    def as_dict(self) -> dict[str, object]:
        return {"session": self.session, "status": self.status, "revision": self.revision,
                "active_step": self.active_step, "awaiting_review": self.awaiting_review,
                "pause_cause": self.pause_cause, "at": self.at}


@dataclass(frozen=True)
class CommitFacts:
    """One commit and the facts on its tree, each list newest first; `profile` is the blob
    of the tree's `.correx.toml` (None: it has none), the only profile a pass of it ran."""

    commit: LoggedCommit
    status: TreeStatus
    verifications: list[RecordedEvent]
    assessments: list[RecordedEvent]
    groundings: list[RecordedEvent]
    gates: list[RecordedEvent]
    sessions: list[SessionOutcome]
    profile: str | None = None
    integrity: list[RecordedEvent] = field(default_factory=list)  # weakenings, acceptances


@dataclass(frozen=True)
class Report:
    """`chosen` says which range was taken when none was given (report_range.py)."""

    revisions: list[str]
    commits: list[CommitFacts]
    problems: list[Problem]
    chosen: str | None = None

    def count(self, result: str) -> int:
        return sum(1 for facts in self.commits if facts.status.result == result)


def build_report(repo: Repository, *, revisions: list[str]) -> Report:
    """Every commit of `revisions`, oldest first, with its recorded facts; with none, of
    the branch since it left its upstream or default branch (report_range.py)."""
    chosen = None if revisions else default_range(repo)
    if chosen is not None:
        revisions = chosen.revisions
    commits = list_commits(repo, revisions, oldest_first=True,
                           limit=None if chosen is None else chosen.limit)
    trees = read_subjects(repo, (commit.tree for commit in commits))
    names = sorted({e.session for c in commits for e in trees.on(c.tree) if e.session})
    sessions = read_subjects(repo, (session_object_oid(name) for name in names), at=trees)
    outcomes = {name: _outcome(name, sessions.on(session_object_oid(name))) for name in names}
    profiles = tree_profiles(repo, [commit.tree for commit in commits])
    facts = [_facts(commit, trees.on(commit.tree), outcomes, profiles[commit.tree])
             for commit in commits]
    return Report(revisions, facts, [*trees.problems, *sessions.problems],
                  None if chosen is None else chosen.said)


def _facts(commit: LoggedCommit, entries: Sequence[LedgerEntry],
           outcomes: dict[str, SessionOutcome | None], profile: str | None) -> CommitFacts:
    newest = sorted(entries, key=time_order, reverse=True)

    def of(kind: str) -> list[RecordedEvent]:
        return [entry.event() for entry in newest if entry.kind == kind]

    names = dict.fromkeys(entry.session for entry in newest if entry.session)
    found = [outcomes[name] for name in names if outcomes.get(name) is not None]
    return CommitFacts(commit, tree_status(commit.tree, entries, profile),
                       of(VerificationFields.KIND), of(AssessmentFields.KIND),
                       of(GroundingFields.KIND),
                       [entry.event() for entry in newest if entry.kind in GATE_KINDS],
                       [outcome for outcome in found if outcome is not None], profile,
                       [entry.event() for entry in newest if entry.kind in INTEGRITY_KINDS])


def _outcome(session: str, entries: Sequence[LedgerEntry]) -> SessionOutcome | None:
    mine = [entry for entry in entries if entry.session == session]
    if not mine:
        return None
    state = fold_entries(session, mine)
    pause = state.pause.cause if state.pause is not None else None
    return SessionOutcome(session, state.status.value, state.revision, state.active_step,
                          pause, max(entry.at for entry in mine), state.awaiting_review)
