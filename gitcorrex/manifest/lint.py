"""`manifest lint`: the stages' `writes` patterns, checked one by one before they are used.

The profile loader refuses the whole file at the first bad pattern; lint reads the TOML
itself so it can report every pattern of every stage, each with its key path and a fix.
Errors are patterns that cannot mean what they say (`..`, `.git`, backslashes, absolute
filesystem paths). Warnings are patterns that may: unanchored ones match at any depth, and
one that matches nothing in HEAD's tree may be a typo (or a path the stage will create).
"""

from __future__ import annotations

from typing import Any, Literal

import pathspec

from gitcorrex.errors import ConfigError, UsageError
from gitcorrex.git import Repository, head_tree, tree_changes
from gitcorrex.manifest.pattern_rules import pattern_findings
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.profile_values import show
from gitcorrex.model.record import Record
from gitcorrex.profiles.limits import check_profile_size
from gitcorrex.profiles.load import PROFILE_NAME, parse_profile, parse_toml, read_profile_bytes


class Finding(Record):
    """One problem: where (`stages.x.writes[2]`), how bad, what, and the fix."""

    severity: Literal["error", "warning"]
    code: str
    stage: str | None
    index: int | None
    pattern: str | None
    where: str
    message: str
    hint: str


class LintReport(Record):
    """Every finding, in file order; `stages` are the stages that were linted."""

    profile: str
    stages: list[str]
    patterns: int
    findings: list[Finding]

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity == "warning" for f in self.findings)

    @property
    def conclusion(self) -> Conclusion:
        """Failed on errors; warnings alone pass."""
        return Conclusion.CHECK_FAILED if self.errors else Conclusion.OK

    @property
    def summary(self) -> str:
        counted = f"{len(self.stages)} stage(s), {self.patterns} pattern(s)"
        if not self.findings:
            return f"ok: {counted}, nothing to report"
        return f"{self.errors} error(s), {self.warnings} warning(s) in {counted}"


def lint_manifests(repo: Repository, *, stage: str | None) -> LintReport:
    """Lint the work tree's profile; a missing or unparseable file raises ConfigError (2),
    an unknown `stage` UsageError (2)."""
    raw = read_profile_bytes(repo.root)
    check_profile_size(raw, PROFILE_NAME)
    stages = _stage_tables(parse_toml(raw, PROFILE_NAME), stage)
    root = str(repo.root)
    findings: list[Finding] = []
    count = 0
    matcher = _HeadMatcher(repo)
    for name, table in stages.items():
        writes, problem = _writes_of(name, table)
        findings += problem
        count += len(writes)
        for index, value in enumerate(writes):
            findings += _lint_entry(name, index, value, root, matcher)
    if not any(f.severity == "error" for f in findings):
        findings += _load_problems(raw)
    return LintReport(profile=PROFILE_NAME, stages=list(stages), patterns=count,
                      findings=findings)


def _stage_tables(data: dict[str, Any], stage: str | None) -> dict[str, Any]:
    stages = data.get("stages", {})
    if not isinstance(stages, dict):
        raise ConfigError(f"{PROFILE_NAME}: stages: expected a table",
                          hint="write each stage as [stages.<name>] with its `writes`")
    if stage is None:
        return stages
    if stage not in stages:
        known = ", ".join(sorted(stages)) or "none"
        raise UsageError(f"{PROFILE_NAME} has no stage {stage!r} (stages: {known})",
                         hint="name a stage of the profile, or omit --stage to lint them all")
    return {stage: stages[stage]}


def _writes_of(name: str, table: Any) -> tuple[list[Any], list[Finding]]:
    """A stage's `writes` entries (absent: none), or a finding when it is not a list."""
    writes = table.get("writes", []) if isinstance(table, dict) else None
    if isinstance(writes, list):
        return writes, []
    return [], [_finding("error", "not_a_list", name, None, None, f"stages.{name}.writes",
                         "`writes` is not a list",
                         'write a list of globs, e.g. writes = ["/src/**"]')]


def _lint_entry(name: str, index: int, pattern: Any, root: str,
                matcher: _HeadMatcher) -> list[Finding]:
    where = f"stages.{name}.writes[{index}]"
    if not isinstance(pattern, str):
        return [_finding("error", "not_a_string", name, index, None, where,
                         f"{show(pattern)} is not a string",
                         'write the pattern as a string, e.g. "/src/**"')]
    found = [_finding(severity, code, name, index, pattern, where, message, hint)
             for severity, code, message, hint in pattern_findings(pattern, root=root)]
    if not any(f.severity == "error" for f in found) and not pattern.startswith("!") \
            and matcher.matches_nothing(pattern):
        found.append(_finding("warning", "matches_nothing", name, index, pattern, where,
                              f"{show(pattern)} matches nothing in HEAD's tree",
                              "check the spelling; ignore this if the stage is meant to "
                              "create these paths"))
    return found


def _load_problems(raw: bytes) -> list[Finding]:
    """What the loader itself refuses (so hooks and verify would exit 2), if anything."""
    try:
        parse_profile(raw, source=PROFILE_NAME)
    except ConfigError as exc:
        message = exc.message.removeprefix(f"{PROFILE_NAME}: ")
        return [_finding("error", "profile_invalid", None, None, None, PROFILE_NAME,
                         f"the profile does not load: {message}", exc.hint or "fix it")]
    return []


def _finding(severity: Literal["error", "warning"], code: str, stage: str | None,
             index: int | None, pattern: str | None, where: str, message: str,
             hint: str) -> Finding:
    return Finding(severity=severity, code=code, stage=stage, index=index, pattern=pattern,
                   where=where, message=message, hint=hint)


class _HeadMatcher:
    """HEAD's paths, listed once on first use; an unborn HEAD matches nothing, silently."""

    def __init__(self, repo: Repository) -> None:
        self._repo = repo
        self._paths: list[str] | None = None

    def matches_nothing(self, pattern: str) -> bool:
        paths = self._head_paths()
        if not paths:
            return False
        spec = pathspec.GitIgnoreSpec.from_lines([pattern])
        return not any(True for _ in spec.match_files(paths))

    def _head_paths(self) -> list[str]:
        if self._paths is None:
            tree = head_tree(self._repo)
            self._paths = [] if tree is None else \
                [c.path for c in tree_changes(self._repo, None, tree)]
        return self._paths

