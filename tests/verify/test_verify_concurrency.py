"""8 processes x 25 verifications in one repository: nothing lost, session seqs dense.

Each worker verifies in its own linked worktree of one repository, so the workers race on
one shared notes ref from different git dirs, over three distinct trees. 200 whole
`git correx verify` processes took ~110 s on the 2-core reference machine (each pays
~0.5 s of interpreter and import start-up), over the time budget of this proof. So each
of 8 worker processes imports once and calls the verify use-case 25 times: the same code
path as the CLI below argument parsing, with real commands, real state keys and real
compare-and-swap appends racing on one notes ref.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from gitcorrex import ledger
from gitcorrex.git.repository import discover
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import VerificationFields
from tests.conftest import REPO_ROOT, CliResult, git, run_correx, write
from tests.git.state_helpers import reference_key
from tests.ledger_facts import raw_draft
from tests.verify.conftest import fields_of, py, write_profile

WORKERS = 8
VERIFIES = 25
SESSIONS = 4  # workers i and i+4 share session s<i % 4>

WORKER = """
import os, sys
from datetime import datetime, timezone
from pathlib import Path
from gitcorrex.git.repository import discover
from gitcorrex.model.verification import Result
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.verify.outcome import SilentProgress
from gitcorrex.session.verify_entry import verify_workspace
from gitcorrex.verify.request import VerifyContext
from gitcorrex.verify.request import VerifyRequest

repo = discover(Path(sys.argv[1]))
context = VerifyContext(dict(os.environ), lambda: datetime.now(timezone.utc),
                        current_provenance(repo), SilentProgress())
for _ in range(int(sys.argv[3])):
    outcome = verify_workspace(repo, VerifyRequest(session=sys.argv[2]), context)
    assert outcome.result is Result.PASS, outcome.summary
"""


def add_worktrees(root: Path) -> list[Path]:
    """One worktree per worker; content i % 3, so some trees differ and some are identical."""
    trees = []
    for index in range(WORKERS):
        path = root.parent / f"worker-{index}"
        git(root, "worktree", "add", "-q", "--detach", str(path))
        write(path, "content.txt", f"variant {index % 3}\n")
        trees.append(path)
    return trees


def run_workers(worktrees: list[Path]) -> None:
    env = {**os.environ, "PYTHONPATH": f"{REPO_ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(path), f"s{index % SESSIONS}",
                               str(VERIFIES)], env=env, stderr=subprocess.PIPE)
             for index, path in enumerate(worktrees)]
    failures = [proc.communicate(timeout=240)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * WORKERS, failures


def replayed(root: Path) -> list[RecordedEvent]:
    result: CliResult = run_correx(root, "replay", "--json")
    assert result.code == 0, result
    document = json.loads(result.stdout)
    assert document["problems"] == []
    return [RecordedEvent.model_validate(event) for event in document["events"]]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_concurrent_verifications_lose_nothing_and_keep_seqs_dense(repo: Path) -> None:
    write_profile(repo, {"nop": py("pass")}, {"nop": ["nop"]}, default="nop")
    worktrees = add_worktrees(repo)
    keys = {reference_key(path) for path in worktrees}
    assert len(keys) == 3
    assert run_correx(repo, "verify").code == 0  # the ledger exists: see the test below
    run_workers(worktrees)
    events = [e for e in replayed(repo) if e.kind == VerificationFields.KIND and e.session]
    assert len(events) == len({e.id for e in events}) == WORKERS * VERIFIES
    assert {e.state_key for e in events} == keys
    assert all(fields_of(e).result.value == "pass" for e in events)
    seqs = collections.defaultdict(list)
    for event in events:
        seqs[event.session].append(event.seq)
    assert sorted(seqs) == [f"s{i}" for i in range(SESSIONS)]
    for session, numbers in seqs.items():
        per_session = WORKERS // SESSIONS * VERIFIES
        assert sorted(numbers) == list(range(1, per_session + 1)), session


def test_a_first_record_from_a_worktree_keeps_a_concurrent_first_record(
        repo: Path, tmp_path: Path) -> None:
    """Deterministic form of the empty-ledger race: a worktree reads "no ledger yet", then
    a real `git correx verify` in the main work tree records first; nothing may be lost."""
    write_profile(repo, {"nop": py("pass")}, {"nop": ["nop"]}, default="nop")
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "--detach", str(other))
    worktree = discover(other)
    key = reference_key(other)

    def drafts(view: ledger.LedgerView) -> list[ledger.EventDraft]:
        if view.tip is None:
            assert run_correx(repo, "verify", "--quiet").code == 0
        return [raw_draft(kind=VerificationFields.KIND, subjects=(key,), fields={},
                                  state_key=key)]

    ledger.append_events(worktree, drafts, now=datetime.now(timezone.utc),
                         provenance=current_provenance(worktree))
    assert len(replayed(repo)) == 2
