"""Many subjects' notes by their blob ids: the read of `log`, of a session's state and of
the hooks, which keep what they derive from a note keyed by those ids
(`git/fold_store.py`) and read a note's bytes only when it changed.

Notes only grow by new blobs, so the ids alone say whether anything derived from a note is
still current: one `git ls-tree` answers that for a thousand trees; the bytes of the notes
that changed cost one `git cat-file --batch`. No model and no libgit2 load here.
"""

from __future__ import annotations

from gitcorrex import git
from gitcorrex.git import Repository


class NoteBlobs:
    """The blobs of each subject's note at the ledger's tip (a subject without a note is
    absent: unverified), and a way to read the notes' bytes."""

    __slots__ = ("blobs", "repo")

    def __init__(self, repo: Repository, blobs: dict[str, list[str]]) -> None:
        self.repo = repo
        self.blobs = blobs

    def key(self, subject: str) -> str | None:
        """What identifies `subject`'s note content (its blob ids); None for no note."""
        found = self.blobs.get(subject)
        return ",".join(found) if found else None

    def read(self, subjects: list[str]) -> dict[str, bytes]:
        """subject → its note's bytes (its blobs in order), for subjects that have one."""
        wanted = [s for s in subjects if s in self.blobs]
        contents = git.read_note_parts(self.repo, [oid for s in wanted for oid in self.blobs[s]])
        return {s: b"".join(contents[oid] for oid in self.blobs[s]) for s in wanted}


def note_blobs(repo: Repository, subjects: list[str]) -> NoteBlobs:
    """The blobs of every subject's note at the ledger's tip ({} before the first append);
    a ledger ref that is not a notes commit is an error (exit 3), never "no note"."""
    wanted = list(dict.fromkeys(subjects))
    found = git.note_blobs_at(repo, git.ledger_ref(repo), wanted) if wanted else {}
    return NoteBlobs(repo, found)
