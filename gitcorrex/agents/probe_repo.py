"""The throwaway repository doctor's probe calls are about, so proving the wiring writes
nothing a user would see: no event in the repository's ledger, no file in its work tree.

The installed command runs in the user's repository, exactly as the host runs it; the
payload's working directory (`cwd`, Cursor's `workspace_roots`) names this repository, and
every adapter judges the call where the payload says it happened. What the judgement
records (a BLOCK, a test-integrity scan) lands in this repository's ledger, deleted with it.
It holds a profile whose stage `correx-doctor` (selected) may write only `/allowed/**` and
wants a pass before the agent stops, and one uncommitted change that has none. Its check
always fails (a ref that never exists), so a Stop gate that runs the check itself, as the
ledger-first gate does when no pass is recorded, still has to block.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gitcorrex.git import commit_all, create_repository, discover, set_config_value

STAGE = "correx-doctor"
OUTSIDE = "outside/probe.txt"  # a write the stage's manifest refuses
PROFILE = f"""version = 1
[commands]
probe = "git rev-parse --quiet --verify refs/correx-doctor/never"
[expectations]
probe = ["probe"]
[defaults]
verify_before_stop = true
[stages.{STAGE}]
build_expectation = "probe"
writes = ["/allowed/**"]
"""


@contextmanager
def scratch_repository() -> Iterator[Path]:
    """A fresh repository in a temporary directory, removed afterwards."""
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "work"
        create_repository(root)
        (root / ".correx.toml").write_text(PROFILE, encoding="utf-8")
        (root / "README.md").write_text("doctor's probe repository\n", encoding="utf-8")
        commit_all(root, "doctor probe")
        set_config_value(discover(root), "correx.stage", STAGE)
        (root / "allowed").mkdir()
        (root / "allowed" / "change.txt").write_text("not verified\n", encoding="utf-8")
        yield root
