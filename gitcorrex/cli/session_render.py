"""`session status` after its options are parsed: the one use case and its output, text
or the `--json` document. Click-free: the start-up path (no click) and the click command
both call `print_session_status`, so the two print the same bytes."""

from __future__ import annotations

import json
import os
import sys

from gitcorrex.model.conclusion import Conclusion

TYPE_CHECKING = False  # no `typing` at run time: the stored-status path never needs it (3 ms)
if TYPE_CHECKING:
    from typing import Any


def status_json(document: dict[str, Any]) -> str:
    """Exactly what `emit_json` prints for the report model."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def render_status(document: dict[str, Any]) -> str:
    """A few lines for a terminal; `--json` has everything."""
    state, here = document["state"], document["workspace"]
    lines = [f"session {state['session']}: {state['status']}, revision {state['revision']}, "
             f"plan {state['plan_id']} ({str(state['plan'])[:12]})"]
    for step in state["steps"]:
        budget = f"/{step['max_attempts']}" if step["max_attempts"] else ""
        lines.append(f"  {step['id']:<12} {step['status']:<15} "
                     f"attempts {step['attempts']}{budget}")
    baseline = state["baseline"]
    if baseline is not None:
        valid = "valid here" if here["baseline_valid"] else \
            f"NOT valid here (workspace is {here['state_key'][:12]}): re-verify"
        lines.append(f"  baseline {baseline['state_key'][:12]} ({baseline['source']}), {valid}")
        if baseline.get("reason") is not None:
            lines.append(f"  baseline unverified at lock: {baseline['reason']}")
    if state["active_step"] is None and not here.get("verified", True):
        lines.append(f"  workspace {here['state_key'][:12]} is not verified under the "
                     "session's profile: `git correx verify` before the next step starts")
    if state.get("profile") and not here.get("profile_bound", True):
        lines.append(f"  .correx.toml is not the locked profile ({state['profile'][:12]}): "
                     "restore it, or re-plan (`plan lock --replaces`)")
    if state["pause"] is not None:
        lines.append(f"  paused: {state['pause']['cause']}: {state['pause']['reason']}")
    lines += [f"  open precondition: {p['path']} (step {p['step']}, {p['attempts']} attempts)"
              for p in state["preconditions"]]
    lines += [f"  problem: event {p['event'][:12]} ({p['kind']}): {p['reason']}"
              for p in state["problems"]]
    lines += [f"  not counted: {text}" for text in document.get("uncounted_decisions", [])]
    return "\n".join(lines) + "\n"


def print_session_status(*, session_id: str | None, as_json: bool) -> Conclusion:
    """Print the status of the session named (else CORREX_SESSION, else the workspace's
    configured one); failed when it is invalid (nothing may advance)."""
    from pathlib import Path

    from gitcorrex.git import discover
    from gitcorrex.session.selection import chosen_session
    from gitcorrex.session.status import session_status

    repo = discover(Path.cwd())
    chosen = chosen_session(repo, session_id or os.environ.get("CORREX_SESSION") or None)
    report = session_status(repo, chosen)
    document = report.as_json()
    sys.stdout.write(status_json(document) if as_json else render_status(document))
    return Conclusion.CHECK_FAILED if report.invalid else Conclusion.OK
