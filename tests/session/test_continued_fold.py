"""An append to a session continues the fold the last writer kept (`ledger/session_folds.py`)
instead of folding the whole session again: the stored state must still be exactly what a
reader computes from the whole note, whatever was appended and however (a doubtful line, a
foreign `git notes append`, a step event that does not fit its class)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from gitcorrex.git import notes
from gitcorrex.git.fold_store import load_fold
from gitcorrex.git.note_reads import note_blob_ids
from gitcorrex.git.repository import discover
from gitcorrex.ledger.view import kept_fold_name
from gitcorrex.model.event_line import ENVELOPE_KEYS, event_line
from gitcorrex.model.note_lines import scan_notes
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.replay.session_entries import fold_entries
from tests.conftest import git
from tests.session.conftest import append, state_key


def stored(root: Path, session: str, name: str | None = None) -> Any:
    subject = session_object_oid(session)
    blobs = note_blob_ids(root, "refs/notes/correx", subject)
    assert blobs
    return load_fold(discover(root).common_dir, name or subject, blobs)


def whole(root: Path, session: str) -> dict[str, Any]:
    """The fold of the whole note, computed here (the store is left as it is)."""
    subject = session_object_oid(session)
    repo = discover(root)
    note = notes.read_note(repo, git(root, "rev-parse", "refs/notes/correx").strip(), subject)
    scanned = scan_notes([(subject, note or b"")])
    return fold_entries(session, scanned.entries, scanned.problems).as_json()


def kept_path(root: Path, session: str) -> Path:
    subject = session_object_oid(session)
    return discover(root).common_dir / "correx" / "folds" / f"{kept_fold_name(subject)}.json"


def test_the_next_append_continues_the_kept_fold(locked) -> None:
    """Proof that the writer continues the kept fold rather than reading the note: a kept
    record changed by hand shows through in the next stored state (and a record for another
    note is never used)."""
    root, session = locked
    append(root, "session_paused", session, {"cause": "administrative", "reason": "lunch"})
    record = json.loads(kept_path(root, session).read_text())
    assert record["value"]["numbered"] is True
    record["value"]["fold"]["plan_id"] = "marked"
    kept_path(root, session).write_text(json.dumps(record))
    append(root, "session_resumed", session, {"cause": "administrative", "reason": "back"})
    assert stored(root, session)["plan_id"] == "marked"
    assert whole(root, session)["plan_id"] != "marked"


def test_a_long_run_of_appends_stores_what_a_reader_folds(locked) -> None:
    """Random appends of every sort; after each, the stored fold equals the whole note's."""
    root, session = locked
    subject = session_object_oid(session)
    key = state_key(root)
    chooser = random.Random(20261204)
    paused = False
    seen: set[str] = set()
    for number in range(40):
        late = ["seqless"] if number >= 30 else []  # after it, no fold is ever continued
        move = chooser.choice(["pause", "observe", "start", "unfit", "foreign", *late])
        seen.add(move)
        if move == "pause":
            kind = "session_resumed" if paused else "session_paused"
            append(root, kind, session, {"cause": "administrative", "reason": f"r{number}"})
            paused = not paused
        elif move == "observe":
            append(root, "workspace_verification_observed", session,
                   observation(number % 3 == 0), state_key=key, subjects=(key,))
        elif move == "start":
            append(root, "step_started", session,
                   {"writes": ["src/a.py"], "expectation_docs": False, "baseline": key},
                   step="S1", state_key=key)
        elif move == "unfit":
            append(root, "step_failed", session, {"attempts": "many"}, step="S1")
        elif move == "foreign":
            git(root, "notes", "--ref", "correx", "append", "-m", f"note {number}", subject)
        else:
            seqless(root, session, number)
        if move not in ("foreign", "seqless"):  # git's own appends store nothing
            assert stored(root, session) == whole(root, session), (number, move)
    assert {"pause", "observe", "start", "unfit", "foreign", "seqless"} <= seen
    seqless(root, session, 59)
    for reason in ("first", "again"):  # the second would continue a fold kept past it
        append(root, "session_resumed", session, {"cause": "administrative", "reason": reason})
        assert stored(root, session) == whole(root, session)
        assert whole(root, session)["pause"]["reason"] == "seqless 59"


def seqless(root: Path, session: str, number: int) -> None:
    """A well-formed `session_paused` with no `seq` (an older or foreign writer's), appended
    by git itself: it sorts after every numbered event, so no fold may be continued past
    it (a later numbered resume comes before it in session order: the session stays
    paused)."""
    subject = session_object_oid(session)
    note = git(root, "notes", "--ref", "correx", "show", subject)
    body = json.loads(next(row for row in note.splitlines() if '"seq":1,' in row))
    envelope = {key: value for key, value in body.items() if key in ENVELOPE_KEYS}
    envelope.pop("id", None)
    envelope.update(kind="session_paused", seq=None, at=f"2026-12-04T00:00:{number:02d}.000000Z")
    fields = {"cause": "administrative", "reason": f"seqless {number}"}
    git(root, "notes", "--ref", "correx", "append", "-m", event_line(fields, envelope), subject)


def observation(passed: bool) -> dict[str, Any]:
    return {"expectation": "build", "result": "pass" if passed else "fail", "reason": None,
            "missing_path": None, "commands": [], "writes": [], "state_after": None,
            "head_tree": None, "changed_paths": [], "changed_paths_omitted": 0,
            "profile": None, "isolated": False, "reused_from": None}
