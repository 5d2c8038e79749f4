"""Ledger lines ↔ events, with no I/O: the canonical line format and its tolerant reader.

Writing is strict (no floats, no clash with envelope keys, canonical bytes). Reading never
fails on a bad line: malformed JSON, envelope violations and unknown versions become
`Problem`s next to the good events, so nothing is dropped silently. A blank line holds
nothing to drop: git puts one between the parts of every note it joins — `git notes append`
does, and so does any `git notes` write, on any object, that finds a note kept at several
fanouts (`git/note_levels.py`) and stores it as one blob — so it is skipped, not a problem
(which would make every long session invalid after someone's `git notes add`).

What is deferred, and why: the scan reads envelopes only. Whether a known kind's fields fit
its payload class is asked only when a scan is told to (`check_fields`, what `replay
--check-fields` uses): it reads every payload, which costs about as much as the scan
again when the lines fit and ~8 times as much when none does (docs/performance.md).
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
from collections.abc import Collection, Iterable
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from gitcorrex.model.event_line import ENVELOPE_KEYS as ENVELOPE_KEYS  # re-exported
from gitcorrex.model.event_line import check_json_ready as check_json_ready  # re-exported
from gitcorrex.model.event_line import event_line as event_line  # re-exported
from gitcorrex.model.events import SCHEMA_VERSION, ReadActor, RecordedEvent
from gitcorrex.model.kind_names import KNOWN_KINDS
from gitcorrex.model.ledger_problem import Problem as Problem  # re-exported
from gitcorrex.model.model_fields_reader import fields_reader
from gitcorrex.model.payload_lines import read_line, read_written
from gitcorrex.model.payload_problem import payload_problem, unfit_reason
from gitcorrex.model.printable import printable as printable  # re-exported
from gitcorrex.model.record import EventPayload

EXCERPT_LIMIT = 160


class EventEnvelope(RecordedEvent):
    """The envelope alone: kind fields are checked as JSON and skipped, not kept.

    Keeping them costs ~4 KB per event; a 100,000-event replay needs only the envelope
    to order and check, and the stored line to print. The scan reads lines through
    `_ENVELOPE_FIELDS`, this model's fields as a dict (no instances: 0.37 s instead of
    0.64 s per 100,000 lines); the model itself words why a line is no envelope.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")


_ENVELOPE_FIELDS: TypeAdapter[dict[str, Any]] | None = None  # built on first use (1 ms)


def _envelope_fields() -> TypeAdapter[dict[str, Any]]:
    """EventEnvelope's fields reader, built by the first line read: a process that imports
    this module and scans nothing (a hook answered from a stored fold) never pays for it."""
    global _ENVELOPE_FIELDS
    _ENVELOPE_FIELDS = fields_reader(EventEnvelope)
    return _ENVELOPE_FIELDS


class LineActor(BaseModel):
    """Only who recorded a line (the rest ignored): what a reader that already has the
    entry and its payload still needs to print it (~3 µs, half of the whole envelope)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    actor: ReadActor


class LedgerEntry(NamedTuple):
    """One accepted ledger line: what ordering needs, and the line itself, byte-exact."""

    at: str
    id: str
    session: str | None
    seq: int | None
    kind: str
    line: bytes
    step: str | None = None
    state_key: str | None = None

    def event(self) -> RecordedEvent:
        """The full event with its kind fields, parsed on demand."""
        return RecordedEvent.model_validate_json(self.line)


class ScannedNotes(NamedTuple):
    """Entries de-duplicated by id, in note order, and every doubtful line as a problem.

    `unfit` (filled only by a scan that checks fields) holds the kept lines of a known kind
    whose fields do not fit its class, apart from `problems`: a session's fold fails closed
    on a doubtful envelope but words an unfit line itself, so the two must not mix.
    A tuple, not a frozen dataclass: `log` scans one note per tree, a thousand per run."""

    entries: list[LedgerEntry]
    problems: list[Problem]
    unfit: list[Problem]


def scan_notes(notes: Iterable[tuple[str, bytes]], *,
               check_fields: bool = False) -> ScannedNotes:
    """(subject, note bytes) pairs → one entry per event, and a problem per doubtful line;
    with `check_fields`, also one per kept line whose fields do not fit its kind.

    A line already accepted from another note is skipped before parsing: one event sits in
    the note of every subject. The cyclic garbage collector is paused meanwhile: everything
    created here survives, and rescanning it again and again cost a third of the time.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _scan_notes(notes, check_fields)
    finally:
        if collecting:
            gc.enable()


def _scan_notes(notes: Iterable[tuple[str, bytes]], check_fields: bool) -> ScannedNotes:
    scan = NoteScan(check_fields=check_fields)
    for subject, data in notes:
        scan.add_paused(subject, data)  # the collector is paused by scan_notes already
    return scan.result()


class NoteScan:
    """`scan_notes` as it goes: a writer that scanned a note before appending to it adds
    the appended bytes (`first_row` continuing the note's numbering) and gets what a scan
    of the whole new note gives, without reading the note again."""

    def __init__(self, *, check_fields: bool = False) -> None:
        self._entries: dict[str, LedgerEntry] = {}
        self._problems: list[Problem] = []
        self._unfit: list[Problem] | None = [] if check_fields else None
        self._seen: set[bytes] = set()

    def add(self, subject: str, data: bytes, first_row: int = 1) -> int:
        """Scan `data` (part of `subject`'s note from row `first_row`); the next row."""
        collecting = gc.isenabled()
        gc.disable()  # as in scan_notes
        try:
            return self.add_paused(subject, data, first_row)
        finally:
            if collecting:
                gc.enable()

    def add_paused(self, subject: str, data: bytes, first_row: int = 1) -> int:
        """`add` while the caller keeps the collector paused (a scan of many notes)."""
        # the containers as locals: this loop runs once per line of a 100,000-event replay
        seen, entries, unfit = self._seen, self._entries, self._unfit
        rows = data.split(b"\n")
        if rows[-1] == b"":
            rows.pop()
        for number, raw in enumerate(rows, first_row):
            if raw in seen:
                continue
            entry, reason = check_line(raw)
            if reason is not None:
                self._problems.append(Problem(subject, number, reason, _excerpt(raw)))
            if entry is None:
                continue
            seen.add(raw)
            kept = entries.setdefault(entry.id, entry)
            if unfit is not None and kept is entry:
                _check_fields(unfit, subject, number, entry)
        return first_row + len(rows)

    def result(self) -> ScannedNotes:
        """Entries and problems so far (copies: later `add`s do not change them)."""
        return ScannedNotes(list(self._entries.values()), list(self._problems),
                            list(self._unfit or ()))


def _check_fields(unfit: list[Problem], subject: str, row: int, entry: LedgerEntry) -> None:
    """A kept line read into its kind's class, as every reader reads it (`entry_payload`):
    where its fields do not fit, a problem at the row it was kept from; an unknown kind
    (reported already) gives none."""
    _, problem = entry_payload(entry)
    if problem is not None:
        unfit.append(Problem(subject, row, unfit_reason(entry.kind, problem), _excerpt(entry.line)))


def check_line(raw: bytes) -> tuple[LedgerEntry | None, str | None]:
    """(entry or None, problem or None): an unknown kind is kept *and* reported."""
    if not raw.strip():
        return None, None  # git's separator of joined notes: nothing (module docstring)
    try:
        fields = (_ENVELOPE_FIELDS or _envelope_fields()).validate_json(raw)  # as a dict
    except ValidationError:
        return None, _invalid_reason(raw)
    get = fields.get  # a field left at its default (None) is absent from the dict
    if fields["v"] != SCHEMA_VERSION:
        return None, f"unknown schema version v={fields['v']} (written by a newer git correx?)"
    session, kind, event_id = get("session"), sys.intern(fields["kind"]), fields["id"]
    entry = LedgerEntry(
        fields["at"], event_id, None if session is None else sys.intern(session),
        get("seq"), kind, raw, get("step"), get("state_key"),
    )
    if not _id_matches(raw, event_id):
        return entry, "id does not match the line's content (edited, or not canonical)"
    if kind not in KNOWN_KINDS:
        return entry, f"unknown kind {kind!r} (written by a newer git correx?)"
    return entry, None


def _id_matches(raw: bytes, event_id: str) -> bool:
    """A canonical line minus its `,"id":"…"` member is exactly what the id hashes."""
    needle = b',"id":"' + event_id.encode("ascii", "replace") + b'"'
    return hashlib.sha256(raw.replace(needle, b"", 1)).hexdigest() == event_id


def _invalid_reason(raw: bytes) -> str:
    """Why `raw` is no envelope, in the model's own words (read again: only a doubtful
    line pays for the model)."""
    try:
        EventEnvelope.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
    else:  # the fields reader mirrors the model (model_fields_reader.py): never here
        return "invalid envelope"
    if first["type"] == "json_invalid":
        return f"malformed JSON: {first['msg']}"
    try:
        data = json.loads(raw)
    except ValueError:
        return "malformed JSON"
    if not isinstance(data, dict) or "v" not in data:
        return "not an event envelope (no `v`)"
    if data["v"] != SCHEMA_VERSION or isinstance(data["v"], bool):
        return f"unknown schema version v={data['v']!r} (written by a newer git correx?)"
    where = ".".join(str(part) for part in first["loc"])
    return f"invalid envelope: {where}: {first['msg']}"


def _excerpt(raw: bytes) -> str:
    text = raw[:EXCERPT_LIMIT].decode("utf-8", "replace")
    return text + "…" if len(raw) > EXCERPT_LIMIT else text


class TypedEvent(NamedTuple):
    """A ledger entry with its payload read into its kind's class; `payload` is None when
    the line's fields do not fit that class, and `problem` says where and why."""

    entry: LedgerEntry
    payload: EventPayload | None
    problem: str | None


def typed_events(entries: Iterable[LedgerEntry],
                 payloads: Collection[type[EventPayload]]) -> list[TypedEvent]:
    """The entries of the `payloads`' kinds (in the given order), each line read into its
    class; lines of other kinds are not parsed at all. The union is discriminated on the
    `kind` the ledger's scan read already, so each line meets its own class alone, and a
    reader pays only for the validators its lines need (`model/payload_lines.py`)."""
    by_kind = {payload.KIND: payload for payload in payloads}
    return [_typed(entry, by_kind[entry.kind]) for entry in entries if entry.kind in by_kind]


def _typed(entry: LedgerEntry, payload: type[EventPayload]) -> TypedEvent:
    """One entry read into `payload` (its kind's class), or the problem when it does not fit."""
    try:
        return TypedEvent(entry, read_line(entry.line, payload), None)
    except ValidationError as exc:
        return TypedEvent(entry, None, payload_problem(entry.kind, exc))


def entry_payload(entry: LedgerEntry) -> tuple[EventPayload | None, str | None]:
    """One entry as `typed_events` reads it, straight from its stored line: (payload, None);
    (None, "where: message") when a known kind's fields do not fit its class; (None, None)
    for a kind this version does not know."""
    if entry.kind not in KNOWN_KINDS:
        return None, None
    from gitcorrex.model.event_kinds import PAYLOAD_BY_KIND  # every model: only when asked

    typed = _typed(entry, PAYLOAD_BY_KIND[entry.kind])
    return typed.payload, typed.problem


def written_entry(entry: LedgerEntry) -> tuple[EventPayload | None, str | None, ReadActor]:
    """`entry_payload` and who wrote the line, for a reader that prints both: one parse
    of the line when its fields fit (the common case), two when they do not."""
    if entry.kind not in KNOWN_KINDS:
        return None, None, _writer(entry)
    from gitcorrex.model.event_kinds import PAYLOAD_BY_KIND  # every model: only when asked

    typed, writer = written_typed(entry, PAYLOAD_BY_KIND[entry.kind])
    return typed.payload, typed.problem, writer


def written_typed(entry: LedgerEntry, payload: type[EventPayload]) -> tuple[TypedEvent, ReadActor]:
    """`typed_events` of one entry of `payload`'s kind, and who wrote the line."""
    try:
        read, writer = read_written(entry.line, payload)
    except ValidationError as exc:
        return TypedEvent(entry, None, payload_problem(entry.kind, exc)), _writer(entry)
    return TypedEvent(entry, read, None), writer


def _writer(entry: LedgerEntry) -> ReadActor:
    """The writer alone (the ledger's scan checked the envelope, so it always fits)."""
    return LineActor.model_validate_json(entry.line).actor


_Peeked = TypeVar("_Peeked", bound=BaseModel)


def peek(entry: LedgerEntry, model: type[_Peeked]) -> _Peeked | None:
    """A few fields of the line through `model` (which ignores the rest): a cheap typed
    look that decides whether the whole payload is worth reading; None when they do not
    fit. ~3 µs on a 3.6 KB line, a quarter of reading its payload."""
    try:
        return model.model_validate_json(entry.line)
    except ValidationError:
        return None
