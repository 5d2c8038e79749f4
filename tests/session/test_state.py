"""The one session-state question (`session/state.py`), as `session status` asks it: the
state a fold from nothing gives (and `replay --session` prints), refreshed by every append,
from the stored fold without click, pydantic or pygit2 until the note changes."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.cli.session_render import render_status
from gitcorrex.git import discover
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.model.verification import VerificationFields
from gitcorrex.replay.session import FOLDED_KINDS
from gitcorrex.session.status import session_status
from tests.conftest import in_process, nothing_stored, run_correx, write
from tests.session.conftest import append

LIGHT_IMPORTS = """
import sys
from gitcorrex.cli.boundary import CONCLUSION_CODES
from gitcorrex.cli.startup import run_startup
ended = run_startup(["session", "status", "--json"])
code = None if ended is None else int(CONCLUSION_CODES[ended])
# typing too: 3 ms of a ~50 ms command, for annotations only
heavy = sorted(m for m in ("click", "pydantic", "pygit2", "typing") if m in sys.modules)
print(code, heavy, file=sys.stderr)
"""

COLD_FOLD = """
import sys
from gitcorrex.cli.boundary import CONCLUSION_CODES
from gitcorrex.cli.startup import run_startup
from gitcorrex.replay.session import FOLDED_TYPES
ended = run_startup(["session", "status", "--json"])
code = None if ended is None else int(CONCLUSION_CODES[ended])
built = sorted(p.KIND for p in FOLDED_TYPES if p.__pydantic_complete__)
loaded = sorted(m for m in sys.modules if m.startswith("gitcorrex.model."))
print(code, built, loaded, file=sys.stderr)
"""
# The payload modules whose kinds a session's fold never matches on, and the module that
# imports every payload class: a cold fold loads none of them.
NOT_FOLDED = ("gitcorrex.model.assessment", "gitcorrex.model.gates",
              "gitcorrex.model.grounding", "gitcorrex.model.event_kinds")


def full_document(root: Path, session: str) -> dict:
    """The status with nothing stored: the note read in-process and folded anew (and the
    state equal to what `replay --session` folds from the whole ledger)."""
    repo = in_process(root)
    with nothing_stored(repo):
        document = session_status(repo, session).as_json()
    replayed = run_correx(root, "replay", "--session", session, "--json")
    assert json.loads(replayed.stdout)["state"] == document["state"], replayed
    return document


def light(root: Path, *args: str) -> dict:
    result = run_correx(root, "session", "status", *args, "--json")
    assert result.code == 0, result
    return json.loads(result.stdout)


def test_the_stored_state_is_the_state_folded_from_nothing(locked) -> None:
    root, session = locked
    write(root, "src/a.py", "VALUE = 1\n")
    assert light(root, session) == full_document(root, session)
    assert light(root) == full_document(root, session)  # the configured session
    text = run_correx(root, "session", "status", session)
    assert text.stdout == render_status(full_document(root, session))


def test_an_appended_event_is_seen_by_the_next_status(locked) -> None:
    root, session = locked
    assert light(root, session)["state"]["pause"] is None
    append(root, "session_paused", session, {"cause": "administrative", "reason": "lunch"})
    document = light(root, session)
    assert document["state"]["pause"]["reason"] == "lunch"
    assert document == full_document(root, session)


def test_a_damaged_cache_record_is_ignored(locked) -> None:
    root, session = locked
    expected = light(root, session)
    record = root / ".git" / "correx" / "folds" / f"{session_object_oid(session)}.json"
    assert record.exists()
    record.write_text('{"key": "something else", "value": {"forged": true}}')
    assert light(root, session) == expected
    record.write_text("not json")
    assert light(root, session) == expected


def test_a_well_formed_fold_kept_for_other_note_content_is_never_used(locked) -> None:
    """A stored fold counts only for the note blobs it was folded from: a state that reads
    well but was kept for another note (say, before the last append) is folded anew."""
    root, session = locked
    expected = light(root, session)
    record = root / ".git" / "correx" / "folds" / f"{session_object_oid(session)}.json"
    stored = json.loads(record.read_text())
    stored["value"]["status"] = "completed"
    stored["key"][-1] = ["0" * 40]  # the blob ids of some other note
    record.write_text(json.dumps(stored))
    assert light(root, session) == expected
    assert expected["state"]["status"] != "completed"


def test_an_unknown_session_is_named(locked) -> None:
    root, _ = locked
    result = run_correx(root, "session", "status", "nobody", "--json")
    assert result.code == 2 and "no session 'nobody'" in result.stderr, result


def test_a_cached_status_imports_neither_click_nor_pydantic_nor_pygit2(locked) -> None:
    root, session = locked
    light(root, session)  # the fold is stored
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run([sys.executable, "-c", LIGHT_IMPORTS], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.stderr.strip().splitlines()[-1] == "0 []", proc.stderr


def test_a_cold_fold_builds_only_the_validators_its_note_holds(locked) -> None:
    root, session = locked
    read = ledger.read_subject(discover(root), session_object_oid(session))
    held = {e.kind for e in read.entries if e.kind in FOLDED_KINDS}
    held.discard(VerificationFields.KIND)  # no passing observation to read in this note
    shutil.rmtree(root / ".git" / "correx" / "folds", ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run([sys.executable, "-c", COLD_FOLD], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    code, rest = proc.stderr.strip().splitlines()[-1].split(" ", 1)
    built, loaded = rest.split("] ", 1)
    assert (code, ast.literal_eval(built + "]")) == ("0", sorted(held)), proc.stderr
    assert not set(NOT_FOLDED) & set(ast.literal_eval(loaded)), loaded
