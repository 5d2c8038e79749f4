"""The plan a session executes, read back from the blob the ledger anchors: a session never
depends on the plan file still being where it was locked from."""

from __future__ import annotations

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, read_blob_if_present
from gitcorrex.model.plan import Plan
from gitcorrex.plan.load import parse_plan


def session_plan(repo: Repository, plan_identity: str | None) -> Plan:
    """The locked plan, read from its stored blob (the ledger anchors it)."""
    raw = read_blob_if_present(repo, plan_identity) if plan_identity else None
    if raw is None:
        raise ConfigError(f"the session's plan blob {plan_identity} is not in this repository",
                          hint="fetch the ledger ref (it anchors the plan), or lock again")
    return parse_plan(raw, source=f"plan {plan_identity}").plan
