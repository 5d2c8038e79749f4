"""Where gates run: the stage policy, the profile it came from, and the envelope fields
(session, active step) every gate event carries; `Gates` is one run, which each gate
(static_gate.py and the others in run_gates.py) records through.

The profile is the work tree's `.correx.toml`, as for `verify`; a bare repository has no
work tree, so there it is HEAD's; a session's settlement hands down the profile the session
is locked under. The active step of a session is the one the session
fold says (`replay/active_step.py`, a pure query one layer down), so gate facts land on the
step `session status` shows without this package reading the session upward.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.errors import ConfigError, UsageError
from gitcorrex.git import Repository, head_tree, read_blob_at
from gitcorrex.model.events import Provenance, RecordedEvent, git_blob_oid
from gitcorrex.model.profile import Profile, StagePolicy
from gitcorrex.model.record import EventPayload
from gitcorrex.profiles.load import PROFILE_NAME, load_profile, parse_profile
from gitcorrex.profiles.stage import selected_stage
from gitcorrex.replay.active_step import active_step


@dataclass(frozen=True)
class StageContext:
    """The selected stage's policy and where its profile was read."""

    stage: str
    policy: StagePolicy
    profile: Profile
    profile_oid: str


def stage_context(repo: Repository, stage: str | None, *,
                  profile: tuple[Profile, str] | None = None) -> StageContext:
    """`--stage`, else `git config correx.stage`; none, or one the profile lacks, is exit 2.
    `profile` (with its blob id) is read instead of the work tree's when given."""
    chosen = selected_stage(repo, stage)
    if chosen is None:
        raise UsageError("no stage selected: the gates are a stage's policy",
                         hint="pass --stage NAME (or `git config correx.stage NAME`)")
    read, oid = profile or read_profile(repo)
    policy = read.stages.get(chosen)
    if policy is None:
        known = ", ".join(sorted(read.stages)) or "(none defined)"
        raise ConfigError(f"unknown stage {json.dumps(chosen)}",
                          hint=f"use one of: {known}; or add [stages.{chosen}] to "
                               f"{PROFILE_NAME}")
    return StageContext(chosen, policy, read, oid)


def read_profile(repo: Repository) -> tuple[Profile, str]:
    """The work tree's profile, or HEAD's in a bare repository, with its blob id."""
    if repo.work_tree is not None:
        loaded = load_profile(repo.root)
        return loaded.profile, loaded.blob_oid
    tree = head_tree(repo)
    raw = read_blob_at(repo, tree, PROFILE_NAME) if tree else None
    if raw is None:
        raise ConfigError(f"HEAD has no {PROFILE_NAME} in this bare repository",
                          hint=f"commit a {PROFILE_NAME} (a bare repository reads HEAD's)")
    return parse_profile(raw, source=f"{PROFILE_NAME} at HEAD"), git_blob_oid(raw)


def in_session(drafts: list[ledger.EventDraft]
               ) -> Callable[[ledger.LedgerView], list[ledger.EventDraft]]:
    """The drafts with the session's active step filled in, re-read on every CAS attempt."""
    def build(view: ledger.LedgerView) -> list[ledger.EventDraft]:
        return [replace(d, step=active_step(d.session, view.session_entries(d.session)))
                if d.session is not None else d for d in drafts]
    return build


@dataclass(frozen=True)
class Gates:
    """One gate run: where it records, and what it judges."""

    repo: Repository
    context: StageContext
    session: str | None
    state_key: str
    clock: Callable[[], datetime]
    provenance: Provenance

    def record(self, fields: EventPayload, anchors: Mapping[str, str]) -> RecordedEvent:
        draft = ledger.EventDraft(fields, subjects=(self.state_key,),
                                  session=self.session, stage=self.context.stage,
                                  state_key=self.state_key, anchors=dict(anchors))
        return ledger.append_events(self.repo, in_session([draft]), now=self.clock(),
                                    provenance=self.provenance)[0]
