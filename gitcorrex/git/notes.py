"""The ledger's storage, one name per operation; which engine answers is decided here.

Two engines can read and write the notes ref: libgit2 in-process (`notes_libgit2.py`: no
process per operation, but ~100 ms CPU to import) and git's own plumbing
(`notes_plumbing.py`: a few processes of ~2 ms each). A process that has opened libgit2 on
the repository already keeps using it; one that has not (a plain `verify`, a hook, a status
query) is answered by git and never loads libgit2. Callers never choose: they name the
operation. Both engines write the same objects and the same commits (tests/git holds
that), so which one ran is invisible in the ledger. Only plain values cross: hex oids,
bytes, str.
"""

from __future__ import annotations

from gitcorrex.git import note_reads
from gitcorrex.git.note_reads import expand_notes_ref, read_blob_map
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from types import ModuleType

    from gitcorrex.git.identity import LedgerIdentity


def _in_process(repo: Repository) -> bool:
    """libgit2 when this process opened it on `repo` already, or when the repository's
    object format is not sha1 (libgit2 then says whether it can read it at all, exit 2);
    else git's plumbing."""
    return repo.has_libgit2() or repo.object_format != "sha1"


def _writer(repo: Repository) -> ModuleType:
    """The engine that writes (its module loads only when something is written)."""
    if _in_process(repo):
        from gitcorrex.git import notes_libgit2

        return notes_libgit2
    from gitcorrex.git import notes_plumbing

    return notes_plumbing


def _reader(repo: Repository) -> ModuleType:
    """The engine that reads: libgit2 in-process, else `note_reads` (no writer, no typing)."""
    if _in_process(repo):
        from gitcorrex.git import notes_libgit2

        return notes_libgit2
    return note_reads


def ensure_merge_strategy(repo: Repository, ref: str) -> None:
    """Set notes.<name>.mergeStrategy=cat_sort_uniq when unset: the one lossless merge."""
    from gitcorrex.git.notes_ref import ensure_merge_strategy as ensure

    ensure(repo, ref)


def ledger_ref(repo: Repository) -> str:
    """`git config correx.ref` expanded like `git notes --ref`; default refs/notes/correx.
    A name git would refuse is a ConfigError (exit 2), asked of `git check-ref-format` (git's
    own rule) only when one is set."""
    from gitcorrex.git.config import config_value

    value = config_value(repo, "correx.ref")
    ref = expand_notes_ref(value)
    if value and run_git(["check-ref-format", ref], cwd=repo.common_dir,
                         check=False).returncode != 0:
        from gitcorrex.git.notes_ref import invalid_ref_error

        raise invalid_ref_error(value)
    return ref


def ledger_tip(repo: Repository, ref: str) -> str | None:
    """The commit the notes ref points at, or None when nothing was recorded yet."""
    tip: str | None = _reader(repo).ledger_tip(repo, ref)
    return tip


def write_blob(repo: Repository, data: bytes) -> str:
    """Store `data` as a blob (no filters); its id. Idempotent."""
    oid: str = _writer(repo).write_blob(repo, data)
    return oid


def object_types(repo: Repository, oids: list[str]) -> list[str | None]:
    """Each object's type ("tree", "blob", "commit", "tag"); None where it is not stored."""
    types: list[str | None] = _writer(repo).object_types(repo, oids)
    return types


def read_note(repo: Repository, tip: str | None, subject: str) -> bytes | None:
    """The note on `subject` at notes commit `tip`; None when it has no note."""
    return read_notes_for(repo, tip, [subject]).get(subject)


def read_notes_for(repo: Repository, tip: str | None, subjects: list[str]) -> dict[str, bytes]:
    """subject → its note's bytes at `tip`; a subject without a note is absent (unverified).
    A note split over several fanouts reads as one, deeper fanouts first."""
    if _in_process(repo):
        from gitcorrex.git.notes_lookup import read_notes_for as read_in_process

        return read_in_process(repo, tip, subjects)
    return note_reads.read_notes_for(repo, tip, subjects)


def note_blob_ids(repo: Repository, tip: str, subject: str) -> list[str]:
    """The blobs holding the note on `subject` at `tip`, in read order; [] for no note.
    They identify the note's content: what is derived from it can be kept by them."""
    if _in_process(repo):
        from gitcorrex.git import notes_libgit2

        return notes_libgit2.note_blob_ids(repo, tip, subject)
    return note_reads.note_blob_map(repo, tip, [subject]).get(subject, [])


def note_blobs_at(repo: Repository, ref: str, subjects: list[str]) -> dict[str, list[str]]:
    """subject → the blobs of its note at `ref`'s tip, in read order (absent: no note; {}
    before the first append), for many subjects at once: one `git ls-tree` with plumbing.
    Blob ids identify a note's content, so a reader can key what it derives by them and
    read the blobs (`read_note_parts`) only when they changed."""
    if _in_process(repo):
        from gitcorrex.git import notes_libgit2

        tip = notes_libgit2.ledger_tip(repo, ref)
        if tip is None:
            return {}
        found = {s: notes_libgit2.note_blob_ids(repo, tip, s) for s in dict.fromkeys(subjects)}
        return {subject: blobs for subject, blobs in found.items() if blobs}
    return note_reads.note_blobs_at(repo, ref, subjects)


def read_note_parts(repo: Repository, oids: list[str]) -> dict[str, bytes]:
    """oid → a note blob's content, ending in a newline as a note part reads (one
    `cat-file`)."""
    return read_blob_map(repo.common_dir, oids)


def iter_all_notes(repo: Repository, tip: str | None) -> Iterator[tuple[str, bytes]]:
    """Every (subject, note bytes) at `tip`, one note in memory at a time (a whole-ledger
    read: git lists and inflates the notes in its own processes while the caller scans,
    whatever engine was open before: `all_notes.py`)."""
    from gitcorrex.git import all_notes

    return all_notes.iter_all_notes(repo, tip)


def write_notes_commit(repo: Repository, *, parent: str | None, appends: Mapping[str, bytes],
                       anchors: Mapping[str, str], message: str,
                       identity: LedgerIdentity) -> str:
    """Append bytes to notes and add anchors (oid → "tree"/"blob") in one commit on top of
    `parent` (None: the ledger's first), stored but not on the ref: `swap_ref` moves the
    ref to it only if it still points at `parent` (ledger/append.py retries otherwise), so
    a writer may make it while it waits for something else. A crash leaves the ref at the
    old or the new commit, never in between."""
    new: str = _writer(repo).write_notes_commit(
        repo, parent=parent, appends=appends, anchors=anchors, message=message,
        identity=identity)
    return new


def swap_ref(repo: Repository, ref: str, expected: str | None, new: str, message: str) -> bool:
    """Compare-and-swap `ref` from `expected` (None: must not exist yet) to `new`; False
    when another writer got there first or holds the lock."""
    moved: bool = _writer(repo).swap_ref(repo, ref, expected, new, message)
    return moved
