"""`session status` as text, from the plain document its one body produces
(`print_session_status` in cli/startup.py, which the click command calls too)."""

from __future__ import annotations

import json

TYPE_CHECKING = False  # no `typing` at run time: the stored-status path never needs it (3 ms)
if TYPE_CHECKING:
    from typing import Any


def status_json(document: dict[str, Any]) -> str:
    """Exactly what `emit_json` prints for the report model."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_status(document: dict[str, Any]) -> str:
    """A few lines for a terminal; `--json` has everything."""
    state, here = document["state"], document["workspace"]
    lines = [f"session {state['session']}: {state['status']}, revision {state['revision']}, "
             f"plan {state['plan_id']} ({str(state['plan'])[:12]})"]
    for step in state["steps"]:
        budget = f"/{step['max_attempts']}" if step["max_attempts"] else ""
        lines.append(f"  {step['id']:<12} {step['status']:<9} "
                     f"attempts {step['attempts']}{budget}")
    baseline = state["baseline"]
    if baseline is not None:
        valid = "valid here" if here["baseline_valid"] else \
            f"NOT valid here (workspace is {here['state_key'][:12]}): re-verify"
        lines.append(f"  baseline {baseline['state_key'][:12]} ({baseline['source']}), {valid}")
        if baseline.get("reason") is not None:
            lines.append(f"  baseline unverified at lock: {baseline['reason']}")
    if state["pause"] is not None:
        lines.append(f"  paused: {state['pause']['cause']}: {state['pause']['reason']}")
    lines += [f"  open precondition: {p['path']} (step {p['step']}, {p['attempts']} attempts)"
              for p in state["preconditions"]]
    lines += [f"  problem: event {p['event'][:12]} ({p['kind']}): {p['reason']}"
              for p in state["problems"]]
    return "\n".join(lines) + "\n"
