"""Events ↔ note lines ↔ git/: append with compare-and-swap, read back with problems.

One append is one notes commit, whatever the number of events and subjects, so a reader
never sees half of a fact. The line format and its tolerant reader live in
`model/note_lines.py`; this module adds the repository: refs, anchors, retries.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Literal, cast

from gitcorrex.git import ledger_pack, notes
from gitcorrex.git.anchor_policy import anchors_states
from gitcorrex.git.identity import ledger_identity
from gitcorrex.git.notes_ref import contention_error
from gitcorrex.git.repository import Repository
from gitcorrex.model.canonical import format_instant
from gitcorrex.model.event_kinds import KNOWN_KINDS
from gitcorrex.model.event_order import session_order
from gitcorrex.model.events import (
    SCHEMA_VERSION,
    Provenance,
    RecordedEvent,
    session_object_bytes,
    session_object_oid,
)
from gitcorrex.model.note_lines import (
    LedgerEntry,
    NoteScan,
    Problem,
    ScannedNotes,
    event_line,
    printable,
    scan_notes,
)
from gitcorrex.model.record import EventPayload
from gitcorrex.model.session_object import check_session_id as check_light_session_id

__all__ = [
    "EventDraft",
    "LedgerEntry",
    "LedgerRead",
    "LedgerView",
    "Problem",
    "append_events",
    "check_session_id",
    "printable",
    "read_all",
    "read_subject",
]

AnchorKind = Literal["tree", "blob"]
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class EventDraft:
    """A fact to record: its typed payload (which names the kind), what it is about, and
    the envelope's session, stage, step and state key.

    `anchors` names extra objects (oid → "tree"/"blob", e.g. a command-output blob) the
    ledger must keep alive; every subject is anchored anyway.
    """

    payload: EventPayload
    subjects: tuple[str, ...]
    session: str | None = None
    stage: str | None = None
    step: str | None = None
    state_key: str | None = None
    anchors: Mapping[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.payload.KIND


@dataclass(frozen=True)
class LedgerRead:
    """What a read found; `tip` is None when nothing was recorded yet.

    `entries` (envelope + stored line) is what ordering and printing need; `events`
    parses the kind fields too, on first use (~12 µs and 4 KB per event). `unfit`: the
    lines whose fields do not fit their kind, found only by a read that checks fields.
    """

    ref: str
    tip: str | None
    entries: list[LedgerEntry]
    problems: list[Problem]
    unfit: list[Problem] = field(default_factory=list)

    @cached_property
    def events(self) -> list[RecordedEvent]:
        """Every event in full, in the order of `entries`."""
        return [entry.event() for entry in self.entries]


class LedgerView:
    """The ledger at one tip, for preconditions re-checked on every append attempt."""

    def __init__(self, repo: Repository, tip: str | None) -> None:
        self._repo = repo
        self.tip = tip
        self._cache: dict[str, ScannedNotes] = {}
        self._scans: dict[str, tuple[NoteScan, int]] = {}

    @classmethod
    def at_tip(cls, repo: Repository) -> LedgerView:
        """The ledger as it is now (its tip read once; None before the first append)."""
        return cls(repo, notes.ledger_tip(repo, notes.ledger_ref(repo)))

    def events_on(self, subject: str) -> list[RecordedEvent]:
        """Events in the note on `subject`, in note order; [] when it has none."""
        return [entry.event() for entry in self._entries_on(subject)]

    def session_events(self, session: str) -> list[RecordedEvent]:
        """The session's events ordered by seq; [] for a session never recorded."""
        return [entry.event() for entry in self._session_entries(session)]

    def last_seq(self, session: str) -> int:
        """The session's highest seq so far (its revision); 0 before its first event."""
        return max((entry.seq or 0 for entry in self._session_entries(session)), default=0)

    def session_entries(self, session: str) -> list[LedgerEntry]:
        """The session's entries ordered by seq (kind fields unparsed); [] when none."""
        return self._session_entries(session)

    def _session_entries(self, session: str) -> list[LedgerEntry]:
        found = self._entries_on(session_object_oid(session))
        mine = [entry for entry in found if entry.session == session]
        return sorted(mine, key=session_order)

    def scanned_after(self, subject: str, appended: bytes) -> ScannedNotes | None:
        """What a scan of `subject`'s note gives once `appended` is added to it (call it
        once, after the append); None when this view never read that note."""
        if subject not in self._scans:
            return None
        scan, next_row = self._scans.pop(subject)
        scan.add(subject, appended, next_row)
        return scan.result()

    def scanned_on(self, subject: str) -> ScannedNotes:
        """The note on `subject` at this tip: its entries and its doubtful lines."""
        if subject not in self._cache:
            note = notes.read_note(self._repo, self.tip, subject)
            scan = NoteScan()
            self._scans[subject] = (scan, 1 if note is None else scan.add(subject, note))
            self._cache[subject] = scan.result()
        return self._cache[subject]

    def _entries_on(self, subject: str) -> list[LedgerEntry]:
        return self.scanned_on(subject).entries


def read_subject(repo: Repository, oid: str, *, check_fields: bool = False) -> LedgerRead:
    """The events attached to one object; no events when it has no note (unverified).
    `check_fields` also reads every payload to find the lines that do not fit (slow)."""
    ref = notes.ledger_ref(repo)
    tip = notes.ledger_tip(repo, ref)
    note = notes.read_note(repo, tip, oid)
    scanned = scan_notes([] if note is None else [(oid, note)], check_fields=check_fields)
    return LedgerRead(ref, tip, scanned.entries, scanned.problems, scanned.unfit)


def read_all(repo: Repository, *, check_fields: bool = False) -> LedgerRead:
    """Every event in the ledger, each once, with every doubtful line as a problem;
    `check_fields` also reads every payload to find the lines that do not fit (slow)."""
    ref = notes.ledger_ref(repo)
    tip = notes.ledger_tip(repo, ref)
    scanned = scan_notes(notes.iter_all_notes(repo, tip), check_fields=check_fields)
    return LedgerRead(ref, tip, scanned.entries, scanned.problems, scanned.unfit)


def append_events(
    repo: Repository,
    drafts: Sequence[EventDraft] | Callable[[LedgerView], Sequence[EventDraft]],
    *,
    now: datetime,
    provenance: Provenance,
    max_attempts: int = 60,
) -> list[RecordedEvent]:
    """Record `drafts` in one notes commit, retrying on contention; returns the events.

    A callable is asked for the drafts again on every attempt, against the ledger as it is
    then, so a precondition (and each session's next `seq`) is never checked on a stale
    view. Exhausted retries raise LedgerContentionError (exit 3) with nothing written.
    """
    ref = notes.ledger_ref(repo)
    notes.ensure_merge_strategy(repo, ref)
    stamp = {
        "at": format_instant(now),
        "actor": provenance.actor.model_dump(mode="json"),
        "tool": provenance.tool.model_dump(mode="json"),
    }
    identity = ledger_identity(repo)
    pack_every = ledger_pack.pack_interval(repo)  # a bad value stops us before writing
    for attempt in range(max_attempts):
        tip = notes.ledger_tip(repo, ref)
        view = LedgerView(repo, tip)
        batch = drafts(view) if callable(drafts) else drafts
        if not batch:
            return []
        events, appends, anchors = _plan(repo, view, batch, stamp)
        message = f"git correx: record {len(events)} event(s)"
        new_tip = notes.commit_notes(
            repo,
            ref,
            expected_tip=tip,
            appends=appends,
            anchors=anchors,
            message=message,
            identity=identity,
        )
        if new_tip is not None:
            ledger_pack.note_appended(repo, new_tip, len(events), every=pack_every)
            if any(event.session for event in events):  # the fold's models load only here
                from gitcorrex.ledger.session_folds import store_session_folds

                store_session_folds(repo, view.scanned_after, new_tip, appends, events)
            return events
        time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
    raise contention_error(repo, ref, max_attempts)


_Plan = tuple[list[RecordedEvent], dict[str, bytes], dict[str, AnchorKind]]


def _plan(
    repo: Repository, view: LedgerView, batch: Sequence[EventDraft], stamp: Mapping[str, Any]
) -> _Plan:
    """Lines per subject, anchors and the events, with session seqs taken from `view`."""
    next_seq: dict[str, int] = {}
    appends: dict[str, dict[str, None]] = {}
    anchors: dict[str, AnchorKind] = {}
    events: list[RecordedEvent] = []
    for draft in batch:
        subjects = _subjects(repo, draft, anchors)
        seq = None
        if draft.session is not None:
            seq = next_seq.get(draft.session) or _next_seq(view, draft.session)
            next_seq[draft.session] = seq + 1
        envelope = {
            "v": SCHEMA_VERSION,
            "kind": draft.kind,
            "subjects": subjects,
            "session": draft.session,
            "seq": seq,
            "stage": draft.stage,
            "step": draft.step,
            "state_key": draft.state_key,
            **stamp,
        }
        line = event_line(draft.payload.line_fields(), envelope)
        for subject in subjects:
            appends.setdefault(subject, {})[line] = None
        events.append(RecordedEvent.model_validate_json(line))
    data = {s: "".join(f"{line}\n" for line in ls).encode("ascii") for s, ls in appends.items()}
    return events, data, anchors


def _subjects(repo: Repository, draft: EventDraft, anchors: dict[str, AnchorKind]) -> list[str]:
    """The draft's subjects plus its session object, every one of them anchored."""
    if draft.kind not in KNOWN_KINDS:
        raise ValueError(f"unknown event kind {draft.kind!r}: add its payload class to "
                         "model/event_kinds.PAYLOAD_TYPES first")
    subjects = list(dict.fromkeys(draft.subjects))
    if draft.session is not None:
        check_session_id(draft.session)
        subjects.append(notes.write_blob(repo, session_object_bytes(draft.session)))
    if not subjects:
        raise ValueError(f"a {draft.kind} event needs at least one subject or a session")
    keep_trees = anchors_states(repo)  # correx.anchorStates false: trees do not travel
    for oid in subjects:
        subject_kind = _object_kind(repo, oid)
        if subject_kind == "blob" or keep_trees:
            anchors[oid] = subject_kind
    for oid, kind in draft.anchors.items():
        if _object_kind(repo, oid) != kind:
            raise ValueError(f"anchor {oid} is not a {kind} in this repository")
        anchors[oid] = cast(AnchorKind, kind)
    return list(dict.fromkeys(subjects))


def _object_kind(repo: Repository, oid: str) -> AnchorKind:
    """Subjects and anchors must be stored trees or blobs: only those an anchor keeps."""
    if len(oid) not in (40, 64) or not _HEX.issuperset(oid):
        raise ValueError(f"{oid!r} is not a lowercase hex object id")
    kind = notes.object_type(repo, oid)
    if kind not in ("tree", "blob"):
        raise ValueError(f"subject {oid} must be a stored tree or blob, not {kind}")
    return cast(AnchorKind, kind)


def check_session_id(session: str) -> None:
    """Refuse a session id that could not name a session object (exit 2)."""
    check_light_session_id(session)


def _next_seq(view: LedgerView, session: str) -> int:
    return view.last_seq(session) + 1
