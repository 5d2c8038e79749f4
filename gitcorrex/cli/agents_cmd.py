"""`git correx agents history`: the false-done rate of the agents that worked here."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.errors import UsageError
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.agents.history import AgentTally, History

SHOWN = 50


@click.group()
def agents() -> None:
    """What coding agents did in this repository, read from their own transcripts."""


@agents.command()
@click.option("--since", metavar="DATE", help="Only claims at or after DATE (2026-12-01, or "
                                              "an ISO 8601 time; UTC unless it says).")
@click.option("--agent", "agent", type=click.Choice(["claude-code", "codex"]),
              help="Only this agent's transcripts.")
@click.option("--claude-dir", type=click.Path(path_type=Path), metavar="DIR",
              help="Claude Code's projects directory (default: $CLAUDE_CONFIG_DIR/projects, "
                   "else ~/.claude/projects).")
@click.option("--codex-dir", type=click.Path(path_type=Path), metavar="DIR",
              help="Codex's sessions directory (default: $CODEX_HOME/sessions, else "
                   "~/.codex/sessions).")
@json_option
def history(since: str | None, agent: str | None, claude_dir: Path | None,
            codex_dir: Path | None, as_json: bool) -> Conclusion:
    """Each time an agent ended a turn claiming it was done, was the tree verified?

    Reads the local transcripts of Claude Code and Codex for conversations run in this
    work tree, finds each turn whose final message claims completion (the Stop gate's
    reading), and asks the ledger whether the newest state it recorded by then carried a
    pass: verified, stale (checks ran, not on that tree, or edits followed) or never ran.
    Prints the counts per agent and the false-done rate (stale + never ran). Exit 0.
    """
    from gitcorrex.agents.history import AGENTS, agents_history
    from gitcorrex.git import discover

    result = agents_history(discover(start_dir()), claude_projects=_claude(claude_dir),
                            codex_sessions=_codex(codex_dir), since=_since(since),
                            agents=(agent,) if agent else AGENTS)
    if as_json:
        emit_json(_document(result))
    else:
        click.echo(_text(result), nl=False)
    return Conclusion.OK


def _claude(given: Path | None) -> Path:
    base = os.environ.get("CLAUDE_CONFIG_DIR")
    return given or (Path(base) if base else Path.home() / ".claude") / "projects"


def _codex(given: Path | None) -> Path:
    base = os.environ.get("CODEX_HOME")
    return given or (Path(base) if base else Path.home() / ".codex") / "sessions"


def _since(text: str | None) -> datetime | None:
    if text is None:
        return None
    from gitcorrex.agents.transcripts import parse_time

    parsed = parse_time(text)
    if parsed is None:
        raise UsageError(f"--since {text!r} is not a date or an ISO 8601 time",
                         hint="e.g. --since 2026-12-01 or --since 2026-12-01T09:30:00Z")
    return parsed


def _rate(tally: AgentTally) -> dict[str, object]:
    counts = {outcome.value.replace(" ", "_"): n for outcome, n in tally.counts.items()}
    rate = tally.false_done / tally.claims if tally.claims else None
    return {"agent": tally.agent, "claims": tally.claims, **counts,
            "false_done": tally.false_done, "false_done_rate": rate}


def _document(result: History) -> dict[str, object]:
    return {"agents": [_rate(t) for t in result.tallies], "total": _rate(result.total),
            "claims": [{"agent": j.claim.agent, "conversation": j.claim.conversation,
                        "at": j.claim.at.isoformat(), "outcome": j.outcome.value,
                        "state_key": j.state_key, "message": j.claim.message}
                       for j in result.judged]}


def _text(result: History) -> str:
    if not result.judged:
        return "no completion claims found in Claude Code or Codex transcripts of this " \
               "work tree\n"
    lines = [f"{'agent':<12} {'claims':>6} {'verified':>8} {'stale':>6} {'never ran':>9}  "
             "false-done"]
    for tally in [*result.tallies, result.total]:
        row = _rate(tally)
        share = f"{tally.false_done / tally.claims:.0%}" if tally.claims else "-"
        lines.append(f"{tally.agent:<12} {tally.claims:>6} {row['verified']:>8} "
                     f"{row['stale']:>6} {row['never_ran']:>9}  {share} ({tally.false_done} "
                     f"of {tally.claims})")
    shown = result.judged[-SHOWN:]
    if len(result.judged) > SHOWN:
        lines.append(f"... {len(result.judged) - SHOWN} earlier claim(s) (--json for all)")
    for item in shown:
        lines.append(printable(f"{item.claim.at:%Y-%m-%d %H:%M} {item.claim.agent:<11} "
                               f"{item.outcome.value:<9} {item.claim.message[:80]}"))
    return "".join(line + "\n" for line in lines)
