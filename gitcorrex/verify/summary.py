"""The one-line verdict a person reads (`verdict.py`), and the baseline `changed_paths` is
measured from."""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.git.repository import Repository
from gitcorrex.model.event_order import session_order
from gitcorrex.model.events import session_object_oid
from gitcorrex.model.observed_pass import is_observed_pass
from gitcorrex.model.verification import VerificationFields
from gitcorrex.verify.verdict import verdict_summary


def baseline_tree(repo: Repository, session: str | None, head_tree: str | None) -> str | None:
    """Inside a session: the latest passing state (in session order); otherwise (or before
    any pass) HEAD."""
    if session is None:
        return head_tree
    entries = ledger.read_subject(repo, session_object_oid(session)).entries
    passes = [entry for entry in entries if entry.session == session and is_observed_pass(entry)]
    if not passes:
        return head_tree
    latest = max(passes, key=session_order)
    return latest.state_key


def summarize(repo: Repository, fields: VerificationFields, state_key: str) -> str:
    """`pass: …`, `fail: …` or `unavailable: …` naming the command, path or cause."""
    return verdict_summary(repo, fields.line_fields(), state_key)
