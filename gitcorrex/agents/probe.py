"""`git correx doctor --agent NAME`: prove through the installed command that the host's
hooks block, and name a repository wired to run them twice.

For each probe — a shell call running an operator decision, an ordinary shell call, a write
outside the manifest, a stop on an unverified change — every command the host's own settings
files run for that event and tool (its matcher applied) is run with `sh -c` in the
repository, the payload on stdin, as the host runs it; the host's own reading of the answer
(probe_calls.py) says whether it blocks. The calls are about a throwaway repository
(probe_repo.py), so nothing is written to this one. A probe that should block and does not is
a failure (exit 1: a command replaced by hand, a matcher narrowed); an ordinary call blocked,
a command that times out, no hooks installed or a settings file that does not parse is a
broken install or environment (exit 3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from fnmatch import fnmatch
from pathlib import Path

from gitcorrex.agents.hosts import HOSTS, Host
from gitcorrex.agents.probe_calls import blocked_reason, payload
from gitcorrex.agents.probe_repo import OUTSIDE, scratch_repository
from gitcorrex.agents.registration import (
    HookEntry,
    hooks_turned_off,
    loaded_entries,
    own_files,
    wired_files,
)
from gitcorrex.agents.request import Action, Event
from gitcorrex.errors import ConfigError
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.runner.piped import run_piped

OK, INFO, WARN, FAIL, BROKEN = "ok", "info", "warn", "fail", "broken"
MODULE_LAUNCH = re.compile(r"\s-m\s+gitcorrex(\s|$)")
TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Probe:
    """One synthetic call: `blocks` what a working install answers."""

    subject: str
    kind: str
    action: str | None
    command: str | None = None
    path: str | None = None
    blocks: bool = True


PROBES = (Probe("operator decision in a shell call", Event.PRE_TOOL, Action.SHELL,
                command="git correx plan authorize plan.toml"),
          Probe("ordinary shell call", Event.PRE_TOOL, Action.SHELL, command="git status",
                blocks=False),
          Probe("write outside the manifest", Event.PRE_TOOL, Action.WRITE, path=OUTSIDE),
          Probe("stop on an unverified change", Event.STOP, None))


@dataclass(frozen=True)
class ProbeFinding:
    """`level`: ok, info, warn, fail (the hook does not block) or broken (install or
    environment)."""

    level: str
    subject: str
    message: str
    fix: str | None = None


@dataclass(frozen=True)
class AgentReport:
    agent: str
    findings: list[ProbeFinding]

    @property
    def conclusion(self) -> Conclusion:
        levels = {finding.level for finding in self.findings}
        return Conclusion.UNAVAILABLE if BROKEN in levels else \
            Conclusion.CHECK_FAILED if FAIL in levels else Conclusion.OK

    def as_dict(self) -> dict[str, object]:
        return {"agent": self.agent, "conclusion": self.conclusion.value,
                "findings": [asdict(finding) for finding in self.findings]}


def probe_agent(root: Path, agent: str, *, env: Mapping[str, str]) -> AgentReport:
    """The findings for `agent`'s hooks in the repository at `root`; runs the installed
    commands against a throwaway repository, writes nothing here."""
    host = HOSTS[agent]
    install = f"git correx hooks install --agent {agent}"
    try:
        findings = double_registration(root, host) + [
            ProbeFinding(FAIL, "hooks turned off", f"{file} sets disableAllHooks: "
                         f"{host.label} runs no hook at all", f"remove the key from {file}")
            for file in hooks_turned_off(root, host)]
        entries = loaded_entries(root, own_files(host))
    except ConfigError as exc:
        return AgentReport(agent, [ProbeFinding(BROKEN, "settings", str(exc), exc.hint)])
    if not entries:
        where = ", ".join(own_files(host))
        return AgentReport(agent, [*findings, ProbeFinding(
            BROKEN, "settings", f"no hooks for {host.label} in {where}", install)])
    findings += _module_launches(entries, install)
    with scratch_repository() as scratch:
        for probe in PROBES:
            findings.append(_run_probe(root, host, probe, entries, scratch, env))
    return AgentReport(agent, findings)


def _module_launches(entries: list[HookEntry], install: str) -> list[ProbeFinding]:
    """A warning for each file whose git correx command runs `python -m gitcorrex` (what
    install wrote before): `-m` puts the project directory first on `sys.path`, so a
    module an agent writes there (`json.py`) runs inside the hook. Still judged the same,
    it is worth replacing."""
    files = sorted({entry.file for entry in entries
                    if entry.agent is not None and MODULE_LAUNCH.search(entry.command)})
    return [ProbeFinding(WARN, "hook command", f"{file} runs `python -m gitcorrex`, which "
                         "imports from the project directory first: a module an agent writes "
                         "there (json.py) would run inside the hook", install)
            for file in files]


def double_registration(root: Path, host: Host) -> list[ProbeFinding]:
    """A warning when `host` runs git correx from more than one file: every call is judged
    twice (and a block recorded twice); the fix keeps one."""
    wired = wired_files(root, host)
    if len(wired) < 2:
        return []
    named = "; ".join(f"{file} (--hook {', '.join(sorted(agents))})"
                      for file, agents in wired.items())
    own = own_files(host)
    extra = [file for file in wired if not any(fnmatch(file, pattern) for pattern in own)] \
        or list(wired)[1:]
    fix = (f"keep one: remove git correx's entries from {', '.join(extra)} if nobody here "
           f"uses the agent it was installed for" + (f", or {host.foreign_switch}"
                                                     if host.foreign_switch else ""))
    return [ProbeFinding(WARN, "double registration",
                         f"{host.label} runs git correx from {len(wired)} files: {named}; "
                         "a call they all select is judged twice (a block recorded twice)",
                         fix)]


def _run_probe(root: Path, host: Host, probe: Probe, entries: list[HookEntry],
               scratch: Path, env: Mapping[str, str]) -> ProbeFinding:
    event = host.event(probe.kind, probe.action)
    if event is None:
        return ProbeFinding(INFO, probe.subject, f"{host.label} has no hook that runs before "
                            "this call: not probed")
    tools = {Action.SHELL: host.shell_tools, Action.WRITE: host.write_tools}.get(
        probe.action or "", frozenset())
    tool = min(tools) if tools else None
    ran = [entry for entry in entries if entry.event == event.name and entry.selects(tool)]
    if not ran:
        called = f" for {tool}" if tool else ""
        return ProbeFinding(FAIL, probe.subject, f"no {event.name} hook{called} in "
                            f"{', '.join(own_files(host))}: not judged",
                            f"git correx hooks install --agent {host.name}")
    sent = payload(host, event, cwd=str(scratch), tool=tool, path=probe.path,
                   command=probe.command)
    return _judged(host, probe, event.name, ran, sent, root, env)


def _judged(host: Host, probe: Probe, event: str, ran: list[HookEntry], sent: bytes,
            root: Path, env: Mapping[str, str]) -> ProbeFinding:
    """Run every selected command; the host blocks when any answer blocks."""
    reasons = []
    for entry in ran:
        outcome = run_piped(["sh", "-c", entry.command], stdin=sent,
                            cwd=root / entry.cwd if entry.cwd else root,
                            timeout_s=TIMEOUT_S, env={**env, **dict(entry.env)})
        if outcome.timed_out:
            return ProbeFinding(BROKEN, probe.subject, f"{entry.file} {event}: "
                                f"`{entry.command}` did not answer in {TIMEOUT_S:.0f} s "
                                "(the host lets the call run)", "run it by hand to see why")
        reason = blocked_reason(host, probe.kind, outcome.exit_code, outcome.stdout,
                                outcome.stderr)
        if reason is not None:
            reasons.append((entry, reason))
    where = f"{', '.join(sorted({entry.file for entry in ran}))} {event}"
    if probe.blocks and reasons:
        return ProbeFinding(OK, probe.subject, f"blocked by {where}: "
                            f"{_first_line(reasons[0][1])}")
    if probe.blocks:
        commands = "; ".join(f"`{entry.command}`" for entry in ran)
        return ProbeFinding(FAIL, probe.subject, f"NOT blocked: {where} runs {commands}, "
                            f"and {host.label} lets the call run on its answer",
                            f"git correx hooks install --agent {host.name}")
    if reasons:
        return ProbeFinding(BROKEN, probe.subject, f"blocked by {where} although nothing "
                            f"forbids it: {_first_line(reasons[0][1])}",
                            f"run `{reasons[0][0].command}` by hand to see why")
    return ProbeFinding(OK, probe.subject, f"allowed by {where}")


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0][:200] if lines else "(no reason given)"
