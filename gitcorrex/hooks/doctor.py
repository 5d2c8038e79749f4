"""`git correx doctor`: prove that git will run our hooks, in every worktree.

git silently skips a hook that is missing or not executable, and runs none at all when
`core.hooksPath` points at `/dev/null` or an empty directory; a hook whose pinned
interpreter is gone fails every commit; in a repository whose object format the installed
libgit2 cannot read (sha256), the check cannot run at all: it reads the profile at HEAD
through libgit2, so every commit of a selected stage is stopped. Each finding names what
is wrong and the fix.
"""

from __future__ import annotations

import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from gitcorrex.confinement import command_confinement, confinement, first_difference
from gitcorrex.git import (
    Repository,
    libgit2_version_cached,
    list_worktrees,
    unreadable_object_format,
    untracked_environment_dirs,
    watch_status,
)
from gitcorrex.hooks import STAGE_CONFIG
from gitcorrex.hooks.interpreter import probe_interpreter
from gitcorrex.hooks.location import HOOKS_PATH_CONFIG
from gitcorrex.hooks.script_templates import COMMIT_HOOKS
from gitcorrex.hooks.status import HookFile, HooksStatus, hooks_status
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.resident_address import OFF, running_resident

INSTALL = "git correx hooks install"
FAIL, WARN, INFO, OK = "fail", "warn", "info", "ok"


@dataclass(frozen=True)
class Finding:
    """`level`: fail (git would not run the check), warn, info or ok."""

    level: str
    worktree: str
    subject: str
    message: str
    fix: str | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class DoctorReport:
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return not any(finding.level == FAIL for finding in self.findings)

    @property
    def conclusion(self) -> Conclusion:
        """Failed when some hook would not run (or would fail every commit)."""
        return Conclusion.OK if self.ok else Conclusion.CHECK_FAILED

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "findings": [finding.as_dict() for finding in self.findings]}


def diagnose(repo: Repository) -> DoctorReport:
    """Findings for every worktree of the repository (the main one first)."""
    findings: list[Finding] = []
    found = unreadable_object_format(repo)
    unreadable = None if found is None else (found, libgit2_version_cached(repo.common_dir))
    for worktree in list_worktrees(repo):
        if worktree.bare:
            continue
        if not worktree.path.is_dir():
            findings.append(Finding(WARN, str(worktree.path), "worktree", "missing on disk",
                                    "git worktree prune"))
            continue
        findings += _worktree_findings(str(worktree.path), hooks_status(repo, cwd=worktree.path),
                                       unreadable)
    findings.append(_watch_finding(repo))
    findings.append(_resident_finding(repo))
    return DoctorReport(findings + _environment_findings(repo))


def _environment_findings(repo: Repository) -> list[Finding]:
    """One warning per environment directory this workspace's state key holds
    (docs/state-key.md#environment-directories)."""
    return [Finding(WARN, str(repo.root), f"{found.path}/",
                    f"{found.what}, untracked and not ignored: it enters every state key "
                    "(verify lands on a key no commit holds)", found.fix)
            for found in untracked_environment_dirs(repo)]


def _watch_finding(repo: Repository) -> Finding:
    """Whether state keys here refresh from watchman (`git correx watch`), and if it is
    configured but cannot answer, that every key scans the whole work tree."""
    status = watch_status(repo)
    said = status.describe().removeprefix("watcher: ")
    if status.on and not status.reachable:
        return Finding(WARN, str(repo.root), "watcher", said,
                       "start watchman, then `git correx watch start`")
    return Finding(OK if status.on else INFO, str(repo.root), "watcher", said)


def _resident_finding(repo: Repository) -> Finding:
    """Whether agent hook calls from this interpreter and environment are handed to a
    resident process (docs/agents/README.md, "The resident process")."""
    where = str(repo.root)
    if os.environ.get(OFF) == "off":
        return Finding(INFO, where, "resident process", f"off ({OFF}=off): every agent hook "
                       "call runs in its own process")
    if not sys.platform.startswith("linux"):
        return Finding(INFO, where, "resident process", "not on this platform: every agent "
                       "hook call runs in its own process")
    pid = running_resident(dict(os.environ))
    if pid is None:
        return Finding(INFO, where, "resident process", "none for this interpreter and "
                       "environment: the next agent hook call starts one")
    differs = first_difference(confinement(os.getpid()), confinement(pid))
    if differs is not None:  # gitcorrex/confinement.py: a sandboxed shell's calls stay inside
        return Finding(INFO, where, "resident process", f"pid {pid} runs, but this shell is "
                       f"confined otherwise than it ({differs}): agent hook calls from here "
                       "run in their own process")
    return Finding(OK, where, "resident process", f"pid {pid} takes the agent hook calls of "
                   f"this interpreter and environment{_verify_calls(pid)} (`kill {pid}` ends "
                   "it once its calls ended; it also ends when idle or when the installed "
                   "code changes)")


def _verify_calls(pid: int) -> str:
    """Whether it takes this shell's verify calls too, which run the profile's commands
    (confinement.py asks more of them)."""
    theirs = command_confinement(pid)
    if theirs is None:
        return ", not its verify calls (it runs under no_new_privs)"
    differs = first_difference(confinement(os.getpid(), runs_commands=True), theirs)
    if differs is not None:
        return f", not its verify calls (this shell's {differs} differs)"
    return " and its verify calls"



def _worktree_findings(where: str, status: HooksStatus,
                       unreadable: tuple[str, str] | None) -> list[Finding]:
    if status.hooks_path is not None and Path(status.hooks_dir) == Path("/dev/null"):
        return [Finding(FAIL, where, HOOKS_PATH_CONFIG, "is /dev/null: git runs no hooks here",
                        f"git config --unset {HOOKS_PATH_CONFIG} && {INSTALL}")]
    findings = [Finding(INFO, where, "hooks", f"git runs hooks from {status.hooks_dir}"
                        + (f" ({HOOKS_PATH_CONFIG}={status.hooks_path})"
                           if status.hooks_path else ""))]
    for hook in status.hooks:
        findings += _hook_findings(where, hook, inside=status.inside)
    findings.append(_stage_finding(where, status.stage, unreadable))
    return findings


def _stage_finding(where: str, stage: str | None,
                   unreadable: tuple[str, str] | None) -> Finding:
    """Whether the selected stage is enforced: never where libgit2 cannot read the objects
    (`unreadable`: their format and libgit2's version)."""
    if unreadable is not None:
        object_format, version = unreadable
        stopped = (f"every commit of stage {stage!r} is stopped" if stage
                   else "once a stage is selected, every commit is stopped")
        return Finding(FAIL, where, "object format",
                       "the check reads the profile at HEAD through libgit2, and this "
                       f"installation's libgit2 ({version}) cannot read the {object_format} "
                       f"object format: {stopped}, even one the manifest allows",
                       "use git correx in a sha1 repository (`git init "
                       "--object-format=sha1`), or install a pygit2 built with a libgit2 "
                       f"that supports {object_format}")
    if stage is None:
        return Finding(INFO, where, STAGE_CONFIG, "no stage selected: the hooks allow every "
                       "commit", f"git config {STAGE_CONFIG} STAGE")
    return Finding(OK, where, STAGE_CONFIG, f"stage {stage!r} is enforced")


def _hook_findings(where: str, hook: HookFile, *, inside: bool) -> list[Finding]:
    required = hook.name in COMMIT_HOOKS
    missing_level = FAIL if required else INFO
    if hook.state == "absent":
        fix = INSTALL if required else f"{INSTALL} --pre-push"
        return [Finding(missing_level, where, hook.name, f"no hook at {hook.path}", fix)]
    if hook.state == "not-a-file":
        return [Finding(missing_level, where, hook.name, f"{hook.path} is not a regular file",
                        f"move it away, then {INSTALL}")]
    if hook.state == "foreign":
        return [_foreign_finding(where, hook, inside=inside, level=missing_level)]
    return _installed_findings(where, hook)


def _foreign_finding(where: str, hook: HookFile, *, inside: bool, level: str) -> Finding:
    if hook.calls_correx:
        level = FAIL if not hook.executable else OK
        return Finding(level, where, hook.name, f"{hook.path} runs git correx from a line added "
                       "by hand" + ("" if hook.executable else ", but is not executable"),
                       None if hook.executable else f"chmod +x {hook.path}")
    fix = (f"{INSTALL} (it keeps this hook and runs it first)" if inside
           else f"add the line `{INSTALL}` prints to this hook")
    return Finding(level, where, hook.name,
                   f"{hook.path} is not git correx's hook (no marker line)", fix)


def _installed_findings(where: str, hook: HookFile) -> list[Finding]:
    findings = []
    if not hook.executable:
        findings.append(Finding(FAIL, where, hook.name, f"{hook.path} is not executable: "
                                "git skips it", f"chmod +x {hook.path} (or {INSTALL})"))
    if hook.state == "outdated":
        findings.append(Finding(WARN, where, hook.name, f"hook version {hook.version} is "
                                "older than this git correx's", INSTALL))
    if hook.chained is not None and not hook.chained_present:
        findings.append(Finding(FAIL, where, hook.name, f"the chained hook {hook.chained} is "
                                "missing: every run fails", f"restore it, or {INSTALL}"))
    findings.append(_interpreter_finding(where, hook))
    return findings


def _interpreter_finding(where: str, hook: HookFile) -> Finding:
    if hook.python is None:
        return Finding(FAIL, where, hook.name, "the hook names no interpreter", INSTALL)
    probe = probe_interpreter(hook.python)
    if not probe.ok:
        return Finding(FAIL, where, hook.name, f"interpreter {hook.python}: {probe.problem}",
                       f"run `{INSTALL}` with the Python that has git correx")
    chained = f", runs {hook.chained} first" if hook.chained else ""
    return Finding(OK, where, hook.name, f"installed v{hook.version} at {hook.path}{chained}; "
                   f"{hook.python} imports gitcorrex {probe.version} from {probe.location}")
