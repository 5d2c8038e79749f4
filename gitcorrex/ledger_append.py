"""One session-less event appended with the git binary: the ledger writer of the plain
`verify` path, which loads neither pydantic (~60 ms CPU with the event models ~170 ms) nor
pygit2 (~100 ms CPU).

Beside `ledger/` rather than in it, as `ledger_blobs.py`: importing the package loads both.
It does what `ledger.append_events` does for one draft without a session — the same
envelope, the same canonical line (`model/event_line.py`), the same subject and anchor
checks, the same notes commit (`git/notes_write.py` makes libgit2's commit with git's
plumbing), compare-and-swap with the same retries and contention error, the same packing
count — so a line it writes is byte-for-byte the line the model path writes for the same
observation (tests/verify/test_verify_plain.py compares them). Anything else (a session,
several events, reads of earlier events) is `ledger.append_events`'s.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from gitcorrex import __version__
from gitcorrex.git import ledger_pack
from gitcorrex.git.anchor_policy import anchors_states
from gitcorrex.git.identity import ledger_identity
from gitcorrex.git.libgit2_version import libgit2_version_cached
from gitcorrex.git.notes_ref import contention_error, ensure_merge_strategy, notes_ref_with_git
from gitcorrex.git.notes_write import append_notes_with_git
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.process import git_version
from gitcorrex.git.repository import Repository
from gitcorrex.model.canonical import format_instant
from gitcorrex.model.event_line import SCHEMA_VERSION, event_line
from gitcorrex.model.kind_names import KNOWN_KINDS
from gitcorrex.model.runtime import host_name, runtime_id

_HEX = frozenset("0123456789abcdef")


def provenance_stamp(repo: Repository) -> dict[str, Any]:
    """`actor` and `tool` as `ledger.provenance.current_provenance` gives them, as JSON
    values; an identity git refuses is a ConfigError (exit 2), before anything runs."""
    author = ledger_identity(repo).author
    return {
        "actor": {"name": author.name, "email": author.email, "host": host_name(),
                  "runtime": runtime_id()},
        "tool": {"correx": __version__, "git": git_version(),
                 "libgit2": libgit2_version_cached(repo.common_dir)},
    }


def append_event_with_git(repo: Repository, *, kind: str, fields: Mapping[str, Any],
                          subjects: list[str], anchors: Mapping[str, str], stage: str | None,
                          state_key: str | None, now: datetime, provenance: Mapping[str, Any],
                          max_attempts: int = 60) -> str:
    """Record one event on `subjects` (no session) in one notes commit, retrying on
    contention; the line written. Exhausted retries raise LedgerContentionError (exit 3)."""
    ref = notes_ref_with_git(repo)
    ensure_merge_strategy(repo, ref)
    identity = ledger_identity(repo)
    pack_every = ledger_pack.pack_interval(repo)  # a bad value stops us before writing
    subjects, anchored = _subjects_and_anchors(repo, kind, subjects, anchors)
    envelope = {"v": SCHEMA_VERSION, "kind": kind, "subjects": subjects, "session": None,
                "seq": None, "stage": stage, "step": None, "state_key": state_key,
                "at": format_instant(now), "actor": provenance["actor"],
                "tool": provenance["tool"]}
    line = event_line(fields, envelope)
    appends = {subject: f"{line}\n".encode("ascii") for subject in subjects}
    message = "git correx: record 1 event(s)"
    for attempt in range(max_attempts):
        new_tip = append_notes_with_git(repo, ref, appends=appends, anchors=anchored,
                                        message=message, identity=identity)
        if new_tip is not None:
            ledger_pack.note_appended(repo, new_tip, 1, every=pack_every)
            return line
        time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
    raise contention_error(repo, ref, max_attempts)


def _subjects_and_anchors(repo: Repository, kind: str, subjects: list[str],
                          anchors: Mapping[str, str]) -> tuple[list[str], dict[str, str]]:
    """As `ledger._subjects`: stored trees or blobs only, every blob subject anchored, tree
    subjects too unless `correx.anchorStates` is false; asked of one `cat-file`."""
    if kind not in KNOWN_KINDS:
        raise ValueError(f"unknown event kind {kind!r}: add its payload class to "
                         "model/event_kinds.PAYLOAD_TYPES first")
    subjects = list(dict.fromkeys(subjects))
    if not subjects:
        raise ValueError(f"a {kind} event needs at least one subject or a session")
    asked = [*subjects, *anchors]
    for oid in asked:
        if len(oid) not in (40, 64) or not _HEX.issuperset(oid):
            raise ValueError(f"{oid!r} is not a lowercase hex object id")
    kinds = [None if found is None else found.kind for found in lookup_objects(repo, asked)]
    keep_trees = anchors_states(repo)  # correx.anchorStates false: trees do not travel
    anchored: dict[str, str] = {}
    for oid, found in zip(subjects, kinds[:len(subjects)], strict=True):
        if found not in ("tree", "blob"):
            raise ValueError(f"subject {oid} must be a stored tree or blob, not {found}")
        if found == "blob" or keep_trees:
            anchored[oid] = found
    for (oid, wanted), found in zip(anchors.items(), kinds[len(subjects):], strict=True):
        if found != wanted:
            raise ValueError(f"anchor {oid} is not a {wanted} in this repository")
        anchored[oid] = wanted
    return subjects, anchored
