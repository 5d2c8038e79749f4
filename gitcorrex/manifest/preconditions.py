"""Early precondition signals: repeated `REFERENCE_EXISTS` blocks for a build-critical path.

An agent that keeps trying to read a file the build needs is not careless: the workspace
lacks a prerequisite. After `git correx assess read` records a block, each blocked path is
counted among the earlier blocks of the same scope — the correx session the block was
recorded in (never an agent payload's own `session_id`), else the same state key (blocks
outside any session) — and when the count reaches the stage's
`precondition_threshold` (default 3) and the path is needed by the build (a profile
command `requires` it, or a detected build manifest names it: `build_manifests.py`), one
`workspace_precondition_failed` is recorded. Never a second for the same path and scope:
the count and that check are re-done inside the compare-and-swap loop.

Blocks and signals are read as their payload classes (`AssessmentFields`,
`PreconditionFailed`), and only those two kinds are parsed. A line of either kind whose
fields do not fit is treated as absent: it is not counted as a block and does not stand for
a recorded signal (so the signal may be recorded again); the line stays in the ledger.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from functools import cache

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.manifest.build_manifests import named_paths
from gitcorrex.model.assessment import (
    AssessmentFields,
    Rule,
)
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry, typed_events
from gitcorrex.model.preconditions import (
    PreconditionFailed,
    PreconditionSource,
)
from gitcorrex.model.profile import Profile
from gitcorrex.model.record import Record
from gitcorrex.model.typed_facts import facts_of
from gitcorrex.profiles.load import PROFILE_NAME, load_profile
from gitcorrex.replay.active_step import active_step

DEFAULT_THRESHOLD = 3
MAX_BLOCKS = 100
Source = tuple[PreconditionSource, str]


class PreconditionSignal(Record):
    """A recorded `workspace_precondition_failed`, as `assess` reports it."""

    path: str
    attempts: int
    source: PreconditionSource
    named_by: str
    event: str


def record_precondition_signals(repo: Repository, block: RecordedEvent, *, stage: str | None,
                                clock: Callable[[], datetime], provenance: Provenance
                                ) -> list[PreconditionSignal]:
    """Record the signals `block` (a just-recorded assess-read BLOCK) completes; [] when
    none. An invalid `.correx.toml` raises ConfigError; a missing one has no `requires`.
    Signals of a session land on its active step (`replay/active_step.py`)."""
    read = payload_of(block)
    missing = blocked_paths(read) if isinstance(read, AssessmentFields) else []
    tree = block.state_key
    if not missing or tree is None:
        return []
    profile = _work_tree_profile(repo)
    policy = profile.stages.get(stage) if profile is not None and stage else None
    threshold = policy.precondition_threshold if policy is not None else DEFAULT_THRESHOLD
    needed = cache(lambda: build_critical(repo, profile, tree))

    def drafts(view: ledger.LedgerView) -> list[ledger.EventDraft]:
        typed = typed_events(_scope(view, block.session, tree),
                             (AssessmentFields, PreconditionFailed))
        assessed = facts_of(typed, AssessmentFields)
        signalled = {f.payload.path for f in facts_of(typed, PreconditionFailed)}
        found = []
        for path in missing:
            blocks = [f.id for f in assessed if path in blocked_paths(f.payload)]
            source = needed().get(path) if len(blocks) >= threshold else None
            if source is None or path in signalled:
                continue
            fields = PreconditionFailed(path=path, source=source[0], named_by=source[1],
                                        attempts=len(blocks), blocks=blocks[-MAX_BLOCKS:])
            found.append(ledger.EventDraft(
                fields, subjects=(tree,), session=block.session, stage=stage,
                step=active_step(block.session, view.session_entries(block.session))
                if block.session else None, state_key=tree))
        return found

    events = ledger.append_events(repo, drafts, now=clock(), provenance=provenance)
    return [_signal(e.id, p) for e in events if isinstance(p := payload_of(e), PreconditionFailed)]


def _signal(event: str, failed: PreconditionFailed) -> PreconditionSignal:
    return PreconditionSignal(event=event, path=failed.path, attempts=failed.attempts,
                              source=failed.source, named_by=failed.named_by)


def blocked_paths(assessed: AssessmentFields) -> list[str]:
    """The paths an `assess read` assessment blocked with REFERENCE_EXISTS, in order."""
    if assessed.origin != "assess" or assessed.action != "read":
        return []
    return list(dict.fromkeys(p.path for p in assessed.paths
                              if p.rule is Rule.REFERENCE_EXISTS))


def build_critical(repo: Repository, profile: Profile | None, tree: str) -> dict[str, Source]:
    """Path → why the build needs it: a command's `requires` first, then a manifest."""
    found: dict[str, Source] = {}
    for name, spec in sorted(profile.commands.items()) if profile is not None else []:
        for path in spec.requires:
            found.setdefault(path.rstrip("/"), (PreconditionSource.PROFILE_REQUIRES, name))
    for path, manifest in named_paths(repo, tree).items():
        found.setdefault(path, (PreconditionSource.BUILD_MANIFEST, manifest))
    return found


def _scope(view: ledger.LedgerView, session: str | None, tree: str) -> list[LedgerEntry]:
    """The session's entries by seq, or the state tree's entries outside any session."""
    if session is not None:
        return view.session_entries(session)
    return [entry for entry in view.scanned_on(tree).entries if entry.session is None]


def _work_tree_profile(repo: Repository) -> Profile | None:
    if not os.path.lexists(repo.root / PROFILE_NAME):
        return None
    return load_profile(repo.root).profile
