"""`git correx agents history`: how often an agent said "done" on a tree that was not
verified — the false-done rate.

For every completion claim in the agents' transcripts (transcripts.py) run in this work
tree, the ledger is asked what the tree was at that moment. The ledger does not see every
keystroke; it sees a state key whenever something records one (a `verify`, a Stop gate's
run, an assessed hook call). So "the tree at that moment" is approximated by the newest
state key the ledger recorded at or before the claim, and a claim is:

- **verified**: that state carries a pass (under its own profile, model/observed_pass.py)
  recorded at or before the claim, and the transcript shows no file-tool edit by the agent
  after that pass;
- **stale**: not verified, but some verification was recorded between the conversation's
  first line and the claim (it ran on another tree, failed, or the agent edited after it);
- **never ran**: no verification was recorded in that window at all.

Edits the ledger and the transcript's file tools both miss (a shell's `sed -i` after the
last pass, with no hook installed) make "verified" an upper bound, never a lower one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path

from gitcorrex.agents.transcripts import Claim, claude_claims, codex_claims, parse_time
from gitcorrex.git import Repository

AGENTS = ("claude-code", "codex")


class Outcome(str, Enum):
    VERIFIED = "verified"
    STALE = "stale"
    NEVER_RAN = "never ran"


@dataclass(frozen=True)
class JudgedClaim:
    claim: Claim
    outcome: Outcome
    state_key: str | None


@dataclass
class AgentTally:
    """One agent's claims by outcome; `false_done` = stale + never ran."""

    agent: str
    counts: dict[Outcome, int] = field(default_factory=lambda: {o: 0 for o in Outcome})

    @property
    def claims(self) -> int:
        return sum(self.counts.values())

    @property
    def false_done(self) -> int:
        return self.counts[Outcome.STALE] + self.counts[Outcome.NEVER_RAN]


@dataclass(frozen=True)
class History:
    judged: list[JudgedClaim]
    tallies: list[AgentTally]
    total: AgentTally


@dataclass(frozen=True)
class _Observed:
    at: datetime
    state_key: str
    verification: bool
    passed: bool


def agents_history(repo: Repository, *, claude_projects: Path, codex_sessions: Path,
                   since: datetime | None, agents: Sequence[str] = AGENTS) -> History:
    """The claims made in this work tree (`agents` only, from `since` on), judged."""
    root = repo.root.resolve()
    claims: list[Claim] = []
    if "claude-code" in agents:
        claims += claude_claims(claude_projects, root)
    if "codex" in agents:
        claims += codex_claims(codex_sessions, root)
    return false_done_history(repo, [c for c in claims if since is None or c.at >= since])


def false_done_history(repo: Repository, claims: Iterable[Claim]) -> History:
    """Each claim judged against the ledger, tallied per agent and in total."""
    observed = _observations(repo)
    times = [item.at for item in observed]
    judged = [_judge(claim, observed, times)
              for claim in sorted(claims, key=lambda c: (c.at, c.agent, c.conversation))]
    tallies: dict[str, AgentTally] = {}
    total = AgentTally("total")
    for item in judged:
        for tally in (tallies.setdefault(item.claim.agent, AgentTally(item.claim.agent)), total):
            tally.counts[item.outcome] += 1
    return History(judged, [tallies[name] for name in sorted(tallies)], total)


def _judge(claim: Claim, observed: Sequence[_Observed], times: list[datetime]) -> JudgedClaim:
    before = observed[:bisect_right(times, claim.at)]
    if not before:
        return JudgedClaim(claim, Outcome.NEVER_RAN, None)
    state = before[-1].state_key
    passes = [item for item in before if item.passed and item.state_key == state]
    if passes and (claim.last_edit is None or claim.last_edit <= passes[-1].at):
        return JudgedClaim(claim, Outcome.VERIFIED, state)
    ran = any(item.verification and item.at >= claim.started for item in before)
    return JudgedClaim(claim, Outcome.STALE if ran else Outcome.NEVER_RAN, state)


def _observations(repo: Repository) -> list[_Observed]:
    """Every event that names a state key, oldest first; verifications and their passes
    (under the tree's own profile) marked."""
    from gitcorrex import ledger
    from gitcorrex.model.observed_pass import is_observed_pass
    from gitcorrex.model.verification import VerificationFields
    from gitcorrex.profiles.profile_file import tree_profiles

    entries = [entry for entry in ledger.read_all(repo).entries if entry.state_key]
    verified = sorted({e.state_key for e in entries if e.kind == VerificationFields.KIND
                       and e.state_key})
    profiles = tree_profiles(repo, verified) if verified else {}
    found = []
    for entry in entries:
        at = parse_time(entry.at)
        if at is None or entry.state_key is None:
            continue
        verification = entry.kind == VerificationFields.KIND
        passed = verification and is_observed_pass(entry, profiles.get(entry.state_key))
        found.append(_Observed(at, entry.state_key, verification, passed))
    return sorted(found, key=lambda item: item.at)
