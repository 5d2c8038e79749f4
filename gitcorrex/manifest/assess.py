"""`assess`: judge an agent's write or read before it happens, and record what was decided.

Each path is located symlink-safely (workspace_paths), then judged by the first rule that
objects: outside the work tree → PATH_OUTSIDE_WORKSPACE; git's own files (a `.git`
component, the git directory) or a path that cannot be judged → PATH_NOT_CANONICAL; a write
the manifest in force (HEAD's profile, selected stage) does not allow →
PATH_OUTSIDE_MANIFEST; a read of a path that does not exist → REFERENCE_EXISTS. BLOCKs are
always recorded as one `tool_call_assessed` event on the current state key; ALLOWs only
when asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import Field

from gitcorrex import ledger
from gitcorrex.git import Repository, compute_state, head_tree
from gitcorrex.manifest.assessment_record import record_assessment
from gitcorrex.manifest.preconditions import PreconditionSignal, record_precondition_signals
from gitcorrex.manifest.trusted import manifest_at
from gitcorrex.manifest.workspace_paths import Location, locate, relative_to
from gitcorrex.model.assessment import AgentCall, PathVerdict, Rule, Verdict
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import Provenance
from gitcorrex.model.record import Record
from gitcorrex.model.repo_paths import path_problem, printable_path
from gitcorrex.model.write_manifest import UNRESTRICTED, Manifest
from gitcorrex.profiles.stage import selected_stage

ACTIONS = ("write", "read")
OUTSIDE_FIX = "use a path inside the work tree (relative to it, or absolute below it)"
GIT_FIX = "never write or read git's own files directly: use git commands for those"
PLAIN_FIX = "name the file by a plain path inside the work tree (no '..' after a symlink)"
MANIFEST_FIX = ("write only paths the manifest allows, or ask the operator to declare this "
                "path in the stage's `writes` (inside a session: in the step's `writes`, "
                "by a re-plan)")
REFERENCE_FIX = ("check the path first (list its directory or search for the name); do not "
                 "rely on a file that is not there")
_Decision = tuple[Rule, str, str]
_ALLOWED: _Decision = (Rule.ALLOW, "", "")


@dataclass(frozen=True)
class AssessRequest:
    """`paths` as the caller named them, relative to `base` (a directory) or absolute."""

    action: str
    paths: tuple[str, ...]
    base: Path
    stage: str | None = None
    session: str | None = None
    record_all: bool = False
    agent: AgentCall | None = None


class AssessedPath(Record):
    """One path's verdict. Paths are printable (control and undecodable bytes escaped)."""

    given: str
    path: str
    verdict: Verdict
    rule: Rule
    detail: str
    fix: str


class AssessOutcome(Record):
    """The whole decision; `event` is the recorded event's id, None when nothing was;
    `preconditions` the early precondition signals this block completed."""

    action: str
    verdict: Verdict
    stage: str | None
    manifest_source: str
    manifest: list[str]
    paths: list[AssessedPath]
    event: str | None
    preconditions: list[PreconditionSignal] = Field(default_factory=list)

    @property
    def blocked(self) -> list[AssessedPath]:
        return [p for p in self.paths if p.verdict is Verdict.BLOCK]

    @property
    def conclusion(self) -> Conclusion:
        """Failed when any path is blocked: the command exits 1, an agent's call is denied."""
        return Conclusion.CHECK_FAILED if self.blocked else Conclusion.OK


def assess_paths(repo: Repository, request: AssessRequest, *, clock: Callable[[], datetime],
                 provenance: Callable[[], Provenance],
                 step_manifest: Callable[[], Manifest | None]
                 ) -> AssessOutcome:
    """Judge every path; record BLOCKs (and ALLOWs with `record_all`). Never raises on a
    path; raises ConfigError when a selected stage cannot be read from HEAD (fail closed).

    `step_manifest` (asked only for a write) is the active session step's manifest, None
    outside a step; it comes from session/, which this package never reads."""
    if request.action not in ACTIONS:
        raise ValueError(f"unknown action {request.action!r}")
    if request.session is not None:
        ledger.check_session_id(request.session)
    stage = selected_stage(repo, request.stage)
    manifest = UNRESTRICTED
    if request.action == "write":
        manifest = step_manifest() or \
            manifest_at(repo, base_tree=head_tree(repo), base_label="HEAD", stage=stage)
    judge = _Judge(repo, request.action, manifest)
    base = os.path.realpath(request.base)
    paths = [judge.assess(given, base) for given in request.paths]
    verdict = Verdict.BLOCK if any(p.verdict is Verdict.BLOCK for p in paths) else Verdict.ALLOW
    event, signals = None, []
    if verdict is Verdict.BLOCK or request.record_all:
        stamp = provenance()
        recorded = record_assessment(
            repo, tree=compute_state(repo).state_key, origin="assess", action=request.action,
            manifest=manifest, verdicts=[_recorded(p, request.action) for p in paths],
            session=request.session, stage=stage, commit=None, clock=clock,
            provenance=stamp, agent=request.agent)
        event = recorded.id
        signals = record_precondition_signals(repo, recorded, stage=stage, clock=clock,
                                              provenance=stamp)
    return AssessOutcome(action=request.action, verdict=verdict, stage=stage,
                         manifest_source=manifest.source, manifest=list(manifest.patterns),
                         paths=paths, event=event, preconditions=signals)


class _Judge:
    """The rules, in order, for one action under one manifest."""

    def __init__(self, repo: Repository, action: str, manifest: Manifest) -> None:
        self.action = action
        self.manifest = manifest
        self.root = os.path.realpath(repo.root)
        self.git_dirs = {os.path.realpath(repo.git_dir), os.path.realpath(repo.common_dir)}

    def assess(self, given: str, base: str) -> AssessedPath:
        where = locate(given, base=base, root=self.root)
        rule, detail, fix = self._decide(where)
        shown = where.relative if where.relative else given
        return AssessedPath(given=printable_path(given), path=printable_path(shown),
                            verdict=Verdict.ALLOW if rule is Rule.ALLOW else Verdict.BLOCK,
                            rule=rule, detail=printable_path(detail), fix=fix)

    def _decide(self, where: Location) -> _Decision:
        if where.problem is not None:
            if where.escapes:
                return Rule.PATH_OUTSIDE_WORKSPACE, where.problem, OUTSIDE_FIX
            return Rule.PATH_NOT_CANONICAL, where.problem, PLAIN_FIX
        if where.relative is None:
            return (Rule.PATH_OUTSIDE_WORKSPACE,
                    f"resolves to {where.absolute}, outside the work tree {self.root}",
                    OUTSIDE_FIX)
        if any(relative_to(where.absolute, d) is not None for d in self.git_dirs):
            return Rule.PATH_NOT_CANONICAL, "inside the git directory", GIT_FIX
        if where.relative == "":
            if self.action == "read":
                return _ALLOWED
            return Rule.PATH_NOT_CANONICAL, "the work tree's top level, not a file", PLAIN_FIX
        problem = path_problem(where.relative)
        if problem is not None:
            return Rule.PATH_NOT_CANONICAL, problem, GIT_FIX if ".git" in problem else PLAIN_FIX
        if self.action == "write":
            return self._write_decision(where.relative)
        return _read_decision(where.absolute)

    def _write_decision(self, relative: str) -> _Decision:
        if self.manifest.allows(relative):
            return _ALLOWED
        patterns = ", ".join(self.manifest.patterns)
        detail = f"outside the manifest of {self.manifest.source} [{patterns}]"
        return Rule.PATH_OUTSIDE_MANIFEST, detail, MANIFEST_FIX


def _read_decision(absolute: str) -> _Decision:
    """A read relies on the path existing; a dangling symlink does not count."""
    if os.path.exists(absolute):
        return _ALLOWED
    if os.path.lexists(absolute):
        return Rule.REFERENCE_EXISTS, "a symlink whose target does not exist", REFERENCE_FIX
    return Rule.REFERENCE_EXISTS, "does not exist", REFERENCE_FIX


def _recorded(path: AssessedPath, action: str) -> PathVerdict:
    """The ledger form: printable text only (a ledger line must be valid JSON text)."""
    return PathVerdict(path=path.path, change=action, rule=path.rule, detail=path.detail)
