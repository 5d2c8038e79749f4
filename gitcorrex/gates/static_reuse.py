"""Finding a clean static analysis already recorded for a state key, to cite instead of
running the same commands again (a step's settlement after `git correx gate`).

Reused only when everything that decided it is the same: the state tree (the envelope's
key, and the workspace did not move while it ran), the profile blob, the exact argv
list and the environment (an equal fingerprint digest, runner/environment.py; a result
recorded before fingerprints has none and is not reused). A failed result is never
reused: the settlement runs it again and feeds back fresh output.
"""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.gates import StaticAnalysisCompleted


def find_clean_static(repo: Repository, state_key: str, profile: str,
                      argvs: list[list[str]], environment: str) -> RecordedEvent | None:
    """The latest clean run of exactly `argvs` on `state_key` under `profile`, in the
    environment whose fingerprint digest is `environment`; None if none."""
    events = ledger.read_subject(repo, state_key).events
    found = [e for e in events
             if e.kind == StaticAnalysisCompleted.KIND and e.state_key == state_key
             and _is_clean_run(e, profile, argvs, state_key, environment)]
    return max(found, key=time_order, default=None)


def _is_clean_run(event: RecordedEvent, profile: str, argvs: list[list[str]],
                  state_key: str, environment: str) -> bool:
    run = payload_of(event)
    return (isinstance(run, StaticAnalysisCompleted) and run.clean and run.skipped is None
            and run.profile == profile and run.state_after == state_key
            and [command.argv for command in run.commands] == argvs
            and run.environment is not None and run.environment.digest == environment)
