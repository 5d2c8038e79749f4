"""One clone of the concurrent sync tests, run as its own process:
`python -m tests.sync.clone_worker CLONE INDEX COUNT [in-process]` records COUNT
verifications, each on a state tree of its own, and after every one runs `git correx sync
--json` as a real process (or, with `in-process`, `sync_ledger` in this process: cheaper,
for tests that need many syncs but not their exit codes). Prints the rounds each sync
needed; exits 1 (with the sync's output on stderr) at the first sync that does not exit 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygit2

from gitcorrex.sync.ledger_sync import sync_ledger
from tests.conftest import in_process
from tests.ledger_facts import provenance, record, verification_draft


def state_tree(handle: pygit2.Repository, clone: int, number: int) -> str:
    builder = handle.TreeBuilder()
    blob = handle.create_blob(f"clone {clone} state {number}\n".encode())
    builder.insert("state.txt", blob, pygit2.enums.FileMode.BLOB)
    return str(builder.write())


def sync(path: Path) -> int:
    """`git correx sync --json` in `path`; the rounds it used."""
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", "sync", "--json"], cwd=path,
                          env=os.environ, capture_output=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(f"sync exited {proc.returncode}\n{proc.stdout.decode()}"
                         f"{proc.stderr.decode()}")
        raise SystemExit(1)
    rounds: int = json.loads(proc.stdout)["rounds"]
    return rounds


def main(path: Path, clone: int, count: int, by_function: bool) -> None:
    rounds = []
    for number in range(count):
        repo = in_process(path)
        tree = state_tree(repo.libgit2(), clone, number)
        record(path, verification_draft(repo, tree, "pass"), seconds=clone * 1000 + number,
               who=provenance(runtime=f"{clone}-0000000{clone}"))
        if by_function:
            rounds.append(sync_ledger(in_process(path), remote="origin").rounds)
        else:
            rounds.append(sync(path))
    print(" ".join(str(r) for r in rounds))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:] == ["in-process"])
