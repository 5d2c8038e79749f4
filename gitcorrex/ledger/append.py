"""The one ledger writer: drafts of plain values → canonical lines → one notes commit, moved
by compare-and-swap.

Every fact git correx records goes through `append_lines`: a plain `verify` hands it the
observation's values, typed callers their payload's `line_fields()` (`ledger/drafts.py`).
One append is one notes commit, whatever the number of events and subjects, so a reader
never sees half of a fact. The envelope, the subject and anchor checks, the session `seq`s
(taken from the ledger as it is on each attempt), the retries and the packing count are
decided here once. No pydantic and no libgit2 are needed: the storage (`git/notes.py`)
uses libgit2 only if this process opened it already, and the ledger is read (`LedgerView`,
which scans with the envelope model) only when a draft names a session or a caller asks
for preconditions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from gitcorrex import git
from gitcorrex.git import Repository, anchors_states, contention_error, ledger_identity
from gitcorrex.ledger.own_commits import remember_own_commit
from gitcorrex.model.canonical import format_instant
from gitcorrex.model.event_line import SCHEMA_VERSION, event_line
from gitcorrex.model.kind_names import KNOWN_KINDS
from gitcorrex.model.provenance import Provenance
from gitcorrex.model.session_object import (
    check_session_id,
    git_blob_oid,
    session_object_bytes,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.ledger.view import LedgerView

_HEX = frozenset("0123456789abcdef")


class Draft(NamedTuple):
    """A fact to record, as plain values: its kind, its fields (JSON values, no envelope
    keys), what it is about, and the envelope's session, stage, step and state key.
    `anchors` names extra objects (oid → "tree"/"blob") the ledger must keep alive (an
    output blob); every subject is anchored anyway."""

    kind: str
    fields: Mapping[str, Any]
    subjects: tuple[str, ...]
    session: str | None = None
    stage: str | None = None
    step: str | None = None
    state_key: str | None = None
    anchors: Mapping[str, str] = {}


Drafts = Sequence[Draft] | Callable[["LedgerView"], Sequence[Draft]]


def append_lines(repo: Repository, drafts: Drafts, *, now: datetime, provenance: Provenance,
                 max_attempts: int = 60) -> list[str]:
    """Record `drafts` in one notes commit, retrying on contention; the lines written.

    A callable is asked for the drafts again on every attempt, against the ledger as it is
    then, so a precondition (and each session's next `seq`) is never checked on a stale
    view. git correx writers take turns (`git/writer_queue.py`), so the retries are left
    to foreign writers. Exhausted retries raise LedgerContentionError (exit 3) with
    nothing written.
    """
    return PreparedAppend(repo, drafts, now=now, provenance=provenance).publish(max_attempts)


def prepare_append(repo: Repository, drafts: Drafts, *, now: datetime,
                   provenance: Provenance) -> PreparedAppend:
    """`append_lines`'s first attempt made now and left off the ledger: the lines, objects
    and notes commit written against the tip as it is, the ref not moved until `publish`.

    For a writer with time to spare before it knows it will record (verify, while git
    rescans the work tree): a `publish` while the tip has not moved is one compare-and-swap.
    An append never published leaves only unreachable objects, which `git gc` removes.
    """
    prepared = PreparedAppend(repo, drafts, now=now, provenance=provenance)
    prepared.prepare()
    return prepared


class _Attempt(NamedTuple):
    """One attempt's work: the tip it extends, what it read and wrote, its commit."""

    tip: str | None
    view: LedgerView | None
    batch: Sequence[Draft]
    lines: list[str]
    appends: dict[str, bytes]
    new: str
    message: str


class PreparedAppend:
    """An append through the one writer: attempts made against the tip, each moved onto the
    ref by compare-and-swap, the first perhaps made ahead of time (`prepare_append`)."""

    def __init__(self, repo: Repository, drafts: Drafts, *, now: datetime,
                 provenance: Provenance) -> None:
        self._repo = repo
        self._drafts = drafts
        self._ref = git.ledger_ref(repo)
        git.ensure_merge_strategy(repo, self._ref)
        self._stamp = {"at": format_instant(now), **provenance.stamp()}
        self._identity = ledger_identity(repo)
        self._pack_every = git.pack_interval(repo)  # a bad value stops us before writing
        self._ready: _Attempt | None = None
        self._written: list[str] | None = None  # once published: never appended twice

    def prepare(self) -> None:
        """Make the first attempt now, against the tip as it is; nothing moves the ref."""
        self._ready = self._attempt()

    def publish(self, max_attempts: int = 60) -> list[str]:
        """Move the ref onto the prepared attempt, or onto new ones while other writers
        move it first; the lines written ([] when the drafts were none). Published once:
        a second call returns the same lines and writes nothing."""
        if self._written is not None:
            return self._written
        repo = self._repo
        with git.writers_turn(repo):  # our writers queue; compare-and-swap guards the rest
            for attempt in range(max_attempts):
                made, self._ready = self._ready or self._attempt(), None
                if not made.batch:
                    return []
                if git.swap_ref(repo, self._ref, made.tip, made.new, made.message):
                    break
                import random  # only when another writer moved the ref first

                time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
            else:
                raise contention_error(repo, self._ref, max_attempts)
        remember_own_commit(repo, made.new)  # what "own" means for reuse (ledger/own_commits.py)
        git.note_appended(repo, made.new, len(made.lines), every=self._pack_every)
        _store_folds(repo, made.view, made.new, made.appends, made.batch)
        self._written = made.lines
        return made.lines

    def _attempt(self) -> _Attempt:
        """The drafts against the tip now: their lines, and the notes commit that records
        them on top of it (stored, not yet on the ref)."""
        repo = self._repo
        tip = git.ledger_tip(repo, self._ref)
        view, batch = _drafts_at(repo, tip, self._drafts)
        if not batch:
            return _Attempt(tip, view, batch, [], {}, "", "")
        lines, appends, anchors = _plan(repo, view, batch, self._stamp)
        heavy = _drop_heavy_trees(repo, tip, anchors)
        message = _message(len(lines), heavy)
        new = git.write_notes_commit(repo, parent=tip, appends=appends, anchors=anchors,
                                     identity=self._identity, message=message)
        return _Attempt(tip, view, batch, lines, appends, new, message)


def _drop_heavy_trees(repo: Repository, tip: str | None,
                      anchors: dict[str, str]) -> dict[str, git.TreeWeight]:
    """Leave unanchored the trees over `correx.anchorMaxBytes` (git/anchor_policy.py): one
    un-ignored virtualenv must not travel to every clone. Their weight, for the message."""
    heavy = git.heavy_trees(repo, tip, [oid for oid, kind in anchors.items() if kind == "tree"])
    for tree in heavy:
        del anchors[tree]
    return heavy


def _message(count: int, heavy: Mapping[str, git.TreeWeight]) -> str:
    """The ledger commit's message: what it records, and every tree left unanchored."""
    left = "".join(f"\nnot anchored: tree {tree} adds {weight.files} file(s), "
                   f"{weight.size} bytes beyond HEAD (over correx.anchorMaxBytes)"
                   for tree, weight in heavy.items())
    return f"git correx: record {count} event(s)" + (f"\n{left}" if left else "")


def _drafts_at(repo: Repository, tip: str | None,
               drafts: Drafts) -> tuple[LedgerView | None, Sequence[Draft]]:
    """The drafts against the ledger at `tip`, and the view they were asked on: drafts that
    read the ledger (a callable, a session's seq) get one; plain drafts about trees and
    blobs alone (a `verify` outside a session) none, so nothing is read for them."""
    from gitcorrex.ledger.view import LedgerView  # reads nothing until asked

    if callable(drafts):
        view = LedgerView(repo, tip)
        return view, drafts(view)
    if all(draft.session is None for draft in drafts):
        return None, drafts
    return LedgerView(repo, tip), drafts


_Plan = tuple[list[str], dict[str, bytes], dict[str, str]]


def _plan(repo: Repository, view: LedgerView | None, batch: Sequence[Draft],
          stamp: Mapping[str, Any]) -> _Plan:
    """Lines per subject, anchors and the lines, with session seqs taken from `view`."""
    next_seq: dict[str, int] = {}
    appends: dict[str, dict[str, None]] = {}
    anchors: dict[str, str] = {}
    lines: list[str] = []
    for draft in batch:
        subjects = _subjects(repo, draft, anchors)
        seq = None
        if draft.session is not None and view is not None:  # a session's drafts have a view
            seq = next_seq.get(draft.session) or view.last_seq(draft.session) + 1
            next_seq[draft.session] = seq + 1
        envelope = {"v": SCHEMA_VERSION, "kind": draft.kind, "subjects": subjects,
                    "session": draft.session, "seq": seq, "stage": draft.stage,
                    "step": draft.step, "state_key": draft.state_key, **stamp}
        line = event_line(draft.fields, envelope)
        for subject in subjects:
            appends.setdefault(subject, {})[line] = None
        lines.append(line)
    data = {s: "".join(f"{line}\n" for line in ls).encode("ascii") for s, ls in appends.items()}
    return lines, data, anchors


def _subjects(repo: Repository, draft: Draft, anchors: dict[str, str]) -> list[str]:
    """The draft's subjects plus its session object, all stored trees or blobs; every blob
    subject anchored, tree subjects too unless `correx.anchorStates` is false; the draft's
    own anchors must be what they claim. Asked of the object store in one lookup."""
    if draft.kind not in KNOWN_KINDS:
        raise ValueError(f"unknown event kind {draft.kind!r}: add its payload class to "
                         "model/event_kinds.PAYLOAD_TYPES first")
    subjects = list(dict.fromkeys(draft.subjects))
    session_blob = None
    if draft.session is not None:
        check_session_id(draft.session)
        session_blob = _session_object(repo, draft.session)
        subjects = list(dict.fromkeys([*subjects, session_blob]))
    if not subjects:
        raise ValueError(f"a {draft.kind} event needs at least one subject or a session")
    asked = [*subjects, *draft.anchors]
    for oid in asked:
        if len(oid) not in (40, 64) or not _HEX.issuperset(oid):
            raise ValueError(f"{oid!r} is not a lowercase hex object id")
    found = git.object_types(repo, asked)
    keep_trees = anchors_states(repo)  # correx.anchorStates false: trees do not travel
    for oid, kind in zip(subjects, found[:len(subjects)], strict=True):
        if kind is None and oid == session_blob and draft.session is not None:
            kind = _stored_session_object(repo, draft.session)  # the session's first event
        if kind not in ("tree", "blob"):
            raise ValueError(f"subject {oid} must be a stored tree or blob, not {kind}")
        if kind == "blob" or keep_trees:
            anchors[oid] = kind
    for (oid, wanted), kind in zip(draft.anchors.items(), found[len(subjects):], strict=True):
        if kind != wanted:
            raise ValueError(f"anchor {oid} is not a {wanted} in this repository")
        anchors[oid] = wanted
    return subjects


def _session_object(repo: Repository, session: str) -> str:
    """The id of the session's blob: computed in a sha1 repository (stored on its first
    event, `_stored_session_object`), stored now in any other."""
    data = session_object_bytes(session)
    if repo.object_format == "sha1":
        return git_blob_oid(data)
    return git.write_blob(repo, data)


def _stored_session_object(repo: Repository, session: str) -> str:
    git.write_blob(repo, session_object_bytes(session))
    return "blob"


def _store_folds(repo: Repository, view: LedgerView | None, tip: str,
                 appends: Mapping[str, bytes], batch: Sequence[Draft]) -> None:
    """Keep the fold of every session note this append extended, for the next reader."""
    sessions = {draft.session for draft in batch if draft.session is not None}
    if sessions and view is not None:
        from gitcorrex.ledger.session_folds import store_session_folds

        store_session_folds(repo, view, tip, appends, sessions)
