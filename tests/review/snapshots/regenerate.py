"""Regenerate report_hostile.md, by hand, after an intended change to `git correx report`:

    . .venv/bin/activate && python -m tests.review.snapshots.regenerate

then read the diff before committing it. The snapshot test only compares (a test that
rewrites what it checks passes whatever the report prints); this script builds the same
history in a throwaway repository, with the test suite's isolated git, and writes the
report over the snapshot.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from tests.conftest import LEAKING_GIT_ENV, git, isolated_environment, libgit2_config_at, write
from tests.ledger_facts import PROFILE
from tests.review.hostile_history import SNAPSHOT, hostile_report


def regenerate(scratch: Path) -> str:
    """The report over the hostile history, built in a new repository under `scratch`."""
    home, no_system, repo = scratch / "home", scratch / "no-system", scratch / "repo"
    for directory in (home, no_system, repo):
        directory.mkdir()
    for name in LEAKING_GIT_ENV:
        os.environ.pop(name, None)
    os.environ.update(isolated_environment(home))
    with libgit2_config_at(home, no_system):
        git(repo, "init", "-q")
        write(repo, "README.md", "hello\n")  # what tests/review's `repo` fixture commits
        write(repo, ".correx.toml", PROFILE)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "initial")
        return hostile_report(repo)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="correx-snapshot-") as scratch:
        rendered = regenerate(Path(scratch))
    before = SNAPSHOT.read_text(encoding="utf-8") if SNAPSHOT.exists() else ""
    SNAPSHOT.write_text(rendered, encoding="utf-8")
    print(f"{SNAPSHOT}: {'unchanged' if rendered == before else 'rewritten: review the diff'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
