"""Two verifications of one workspace at the same time: one keeps the persistent state
index, the other keys on a scratch copy; both record the definition's state key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import fields_of, notes_on, py, write_profile

SLOW = py("import time; time.sleep(1.5)")


def test_two_concurrent_verifies_both_record_the_true_state(project: Path) -> None:
    write_profile(project, {"slow": SLOW}, {"slow": ["slow"]}, default="slow")
    write(project, "src/app.py", "VALUE = 2\n")
    write(project, "untracked.txt", "new\n")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    runs = [subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify"], cwd=project,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]
    outputs = [proc.communicate(timeout=120) for proc in runs]
    assert [proc.returncode for proc in runs] == [0, 0], outputs
    key = reference_key(project)
    events = notes_on(project, key)
    assert len(events) == 2
    assert all(fields_of(e).state_after == key and e.state_key == key for e in events)
    assert not list((project / ".git").glob("correx-index-*"))
    assert (project / ".git" / "correx" / "state-index.json").exists()
