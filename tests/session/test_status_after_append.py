"""An append that extends a session's note stores that session's fold for the new note, so
the next `session status`, commit or agent hook reads it instead of folding 5,000 events.

The stored fold must be exactly what a reader computes from scratch (`light` after the
store is emptied), including the ledger's doubtful lines and their numbering."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.git.fold_store import load_fold
from gitcorrex.git.note_reads import note_blob_ids
from gitcorrex.git.repository import discover
from gitcorrex.model.note_lines import scan_notes
from gitcorrex.model.session_object import session_object_oid
from tests.conftest import git, run_correx
from tests.session.conftest import append

AFTER_APPEND = """
import sys
from gitcorrex.cli.boundary import CONCLUSION_CODES
from gitcorrex.cli.startup import run_startup
ended = run_startup(["session", "status", "--json"])
code = None if ended is None else int(CONCLUSION_CODES[ended])
# typing too: 3 ms of a ~50 ms command, for annotations only
heavy = sorted(m for m in ("click", "pydantic", "pygit2", "typing") if m in sys.modules)
print(code, heavy, file=sys.stderr)
"""


def stored(root: Path, session: str) -> object:
    subject = session_object_oid(session)
    blobs = note_blob_ids(root, "refs/notes/correx", subject)
    assert blobs
    return load_fold(discover(root).common_dir, subject, blobs)


def from_scratch(root: Path, session: str) -> dict:
    """What a reader folds when nothing is stored (it stores it again afterwards)."""
    shutil.rmtree(root / ".git" / "correx" / "folds", ignore_errors=True)
    result = run_correx(root, "session", "status", session, "--json")
    assert result.code in (0, 1), result
    return json.loads(result.stdout)["state"]


def test_an_append_stores_the_fold_a_reader_would_compute(locked) -> None:
    root, session = locked
    append(root, "session_paused", session, {"cause": "administrative", "reason": "lunch"})
    kept = stored(root, session)
    assert isinstance(kept, dict) and kept["pause"]["reason"] == "lunch"
    assert kept == from_scratch(root, session)


def test_the_status_right_after_an_append_loads_no_models(locked) -> None:
    root, session = locked
    append(root, "session_paused", session, {"cause": "administrative", "reason": "lunch"})
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run([sys.executable, "-c", AFTER_APPEND], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.stderr.strip().splitlines()[-1] == "0 []", proc.stderr


def test_doubtful_lines_keep_their_numbers_in_the_stored_fold(locked) -> None:
    """`git notes append` adds a blank line (a problem, row N); the next append scans only
    its own lines, continuing the note's numbering."""
    root, session = locked
    subject = session_object_oid(session)
    git(root, "notes", "--ref", "correx", "append", "-m", "not an event", subject)
    append(root, "session_paused", session, {"cause": "administrative", "reason": "lunch"})
    append(root, "session_resumed", session, {"reason": "back"})
    kept = stored(root, session)
    assert isinstance(kept, dict)
    assert [p["event"] for p in kept["problems"]] != []
    assert kept == from_scratch(root, session)


def test_the_continued_scan_equals_a_scan_of_the_whole_new_note(locked) -> None:
    """Rows the writer appends are numbered after the note's own (a doubtful one shows)."""
    root, session = locked
    repo = discover(root)
    subject = session_object_oid(session)
    git(root, "notes", "--ref", "correx", "append", "-m", "not an event", subject)
    view = ledger.LedgerView(repo, git(root, "rev-parse", "refs/notes/correx").strip())
    assert view.last_seq(session) > 0  # the view reads the note, as every append does
    appended = b"garbage appended\n"
    note = git(root, "notes", "--ref", "correx", "show", subject).encode()
    assert view.scanned_after(subject, appended) == scan_notes([(subject, note + appended)])
    assert view.scanned_after(subject, appended) is None  # once only


def test_a_view_that_never_read_a_note_continues_nothing(locked) -> None:
    root, session = locked
    view = ledger.LedgerView(discover(root), None)
    assert view.scanned_after(session_object_oid(session), b"x\n") is None



def test_the_ledger_loads_no_fold_until_a_session_note_is_written(locked) -> None:
    """A plain `verify` records no session event: the fold's modules stay unloaded."""
    root, _ = locked
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    code = ("import sys\nfrom gitcorrex import ledger\n"
            "print(sorted(m for m in sys.modules if m.startswith('gitcorrex.replay')),"
            " file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.stderr.strip().splitlines()[-1] == "[]", proc.stderr
