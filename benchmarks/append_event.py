"""Append one event to a session through the ledger API, as another process would (a
failing observation: the session's state stays as it was, its note changes). Used by the
benchmarks, untimed, before timing "the first read after an append". Usage:

    python benchmarks/append_event.py SESSION     (in the repository)
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

from raw_events import raw_draft

from gitcorrex.git.repository import discover
from gitcorrex.git.state import head_tree_oid
from gitcorrex.ledger import append_events
from gitcorrex.ledger.provenance import current_provenance


def observation(tree: str) -> dict[str, object]:
    """A failed `test` run (no pass: the fold skips it, every reader still counts it)."""
    command = {"name": "test", "argv": ["python3", "-m", "pytest", "-q"], "digest": "d" * 64,
               "exit_code": 1, "signal": None, "stop_reason": "exit", "duration_ms": 812,
               "output": {"size": 4096, "sha256": "s" * 64, "tail": "F" * 1024, "blob": None,
                          "truncated": False}}
    return {"expectation": "test", "result": "fail", "reason": None, "missing_path": None,
            "commands": [command, {**command, "name": "lint"}], "writes": ["src/**"],
            "state_after": tree, "head_tree": tree, "changed_paths": ["src/app.py"],
            "changed_paths_omitted": 0, "profile": tree, "isolated": False,
            "reused_from": None}


def main(session: str) -> None:
    repo = discover(Path.cwd())
    tree = head_tree_oid(repo.root) or ""
    draft = raw_draft("workspace_verification_observed", (tree,), observation(tree),
                      session=session, stage="implement", state_key=tree)
    append_events(repo, [draft], now=datetime.now(timezone.utc),
                  provenance=current_provenance(repo))


if __name__ == "__main__":
    main(sys.argv[1])
