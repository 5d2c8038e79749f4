"""One clone of the concurrent sync test, run as its own process:
`python -m tests.sync.clone_worker CLONE INDEX COUNT` records COUNT verifications, each on
a state tree of its own, and syncs after every one. Prints the sync rounds it needed."""

from __future__ import annotations

import sys
from pathlib import Path

import pygit2

from gitcorrex.git.repository import discover_in_process
from gitcorrex.sync.usecase import sync_ledger
from tests.ledger_facts import provenance, record, verification_draft


def state_tree(handle: pygit2.Repository, clone: int, number: int) -> str:
    builder = handle.TreeBuilder()
    blob = handle.create_blob(f"clone {clone} state {number}\n".encode())
    builder.insert("state.txt", blob, pygit2.enums.FileMode.BLOB)
    return str(builder.write())


def main(path: Path, clone: int, count: int) -> None:
    rounds = []
    for number in range(count):
        repo = discover_in_process(path)
        tree = state_tree(repo.libgit2(), clone, number)
        record(path, verification_draft(repo, tree, "pass"), seconds=clone * 1000 + number,
               who=provenance(runtime=f"{clone}-0000000{clone}"))
        rounds.append(sync_ledger(discover_in_process(path), remote="origin").attempts)
    print(" ".join(str(r) for r in rounds))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
