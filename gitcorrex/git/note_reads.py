"""The ledger's notes read with git's plumbing (the reads of `notes.py`'s plumbing engine):
for processes that have not loaded libgit2 (pygit2 costs ~70 ms to import, more than the
whole read). Nothing here imports the writer or `typing`: a status read loads only this.

Two processes at most: `git ls-tree` finds the note's blobs at every fanout git may have
written (one subject's note can be split across fanouts; a full read concatenates them,
deeper fanouts first, which is ls-tree's order too), and `git cat-file --batch` reads them.
The blob ids alone identify the note's content, so callers can cache what they derive
from it (`fold_store.py`) and skip the second process.
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.errors import UnavailableError
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

MAX_FANOUT = 3  # 256**3 notes per subtree level: deeper is never written
MANY_SUBJECTS = 32  # beyond this, listing every note is cheaper than 4 pathspecs each
ANCHORS = "anchors"
DEFAULT_REF = "refs/notes/correx"


def expand_notes_ref(value: str | None) -> str:
    """`git config correx.ref` expanded as `git notes --ref` does; the default when unset.
    (Validity is checked where the ref is written; a bad name simply reads nothing here.)"""
    if not value:
        return DEFAULT_REF
    if value.startswith("refs/notes/"):
        return value
    return "refs/" + value if value.startswith("notes/") else "refs/notes/" + value


def note_blob_ids(root: Path, ref: str, subject: str) -> list[str] | None:
    """The blobs holding `subject`'s note at `ref`, in read order; [] for no note; None
    when the ref cannot be read (absent or not a notes tree: the caller's slow path says)."""
    found = note_blobs_for(root, ref, [subject])
    return None if found is None else found.get(subject, [])


def note_blobs_for(root: Path, ref: str, subjects: list[str]) -> dict[str, list[str]] | None:
    """subject → the blobs of its note at `ref` (absent: no note), for many subjects in one
    `git ls-tree`; None when the ref cannot be read."""
    wanted = list(dict.fromkeys(subjects))
    if len(wanted) > MANY_SUBJECTS:  # git matches each entry against every pathspec
        paths = _fanout_dirs(root, ref, wanted)
        if paths is None:
            return None
        args = ["ls-tree", "-r", "-z", "--full-tree", ref, "--", *paths]
    else:
        args = ["ls-tree", "-z", "--full-tree", ref, "--",
                *(_fanout(subject, depth) for subject in wanted
                  for depth in range(MAX_FANOUT + 1))]
    result = run_git(args, cwd=root, check=False)
    if result.returncode != 0:
        return None
    keep = set(wanted)
    found: dict[str, list[str]] = {}
    for entry in result.stdout.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == b"blob":
            subject = path.replace(b"/", b"").decode("ascii", "replace")
            if subject in keep:
                found.setdefault(subject, []).append(fields[2].decode("ascii"))
    return found


def _fanout_dirs(root: Path, ref: str, wanted: list[str]) -> list[str] | None:
    """The top-level names worth listing recursively for `wanted`: their fanout dirs that
    exist and their flat names (never `anchors/`, which holds whole workspace trees)."""
    result = run_git(["ls-tree", "-z", "--name-only", "--full-tree", ref], cwd=root,
                     check=False)
    if result.returncode != 0:
        return None
    names = set(result.stdout.decode("ascii", "replace").split("\0"))
    heads = {subject[:2] for subject in wanted} | set(wanted)
    return sorted(names & heads - {ANCHORS}) or ["--no-such-note--"]


def _fanout(subject: str, depth: int) -> str:
    return "/".join([*(subject[2 * i:2 * i + 2] for i in range(depth)), subject[2 * depth:]])


def read_blobs(root: Path, oids: list[str]) -> bytes:
    """The blobs' contents, each ending in a newline, concatenated (one note's lines)."""
    found = read_blob_map(root, oids)
    return b"".join(found[oid] for oid in oids)


def read_blob_map(root: Path, oids: list[str]) -> dict[str, bytes]:
    """oid → content (newline-terminated, as a note read yields it), in one process."""
    wanted = list(dict.fromkeys(oids))
    if not wanted:
        return {}
    out = run_git(["cat-file", "--batch"], cwd=root,
                  stdin="".join(oid + "\n" for oid in wanted).encode()).stdout
    found: dict[str, bytes] = {}
    pos = 0
    for oid in wanted:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split()[2])
        data = out[header_end + 1:header_end + 1 + size]
        found[oid] = data if data.endswith(b"\n") else data + b"\n"
        pos = header_end + 1 + size + 1
    return found


def join_note_parts(parts: list[bytes]) -> bytes:
    """Join note parts so that every part starts on a new line (a note split over fanouts
    reads as one; an append starts on a line of its own)."""
    joined = b""
    for part in parts:
        if joined and not joined.endswith(b"\n"):
            joined += b"\n"
        joined += part
    return joined


def ledger_tip(repo: Repository, ref: str) -> str | None:
    """The commit the notes ref points at, or None when nothing was recorded yet. One
    process reads the ref and its type together, so a ref another writer creates meanwhile
    is either not there yet or there in full."""
    out = run_git(["for-each-ref", "--format=%(objectname) %(objecttype) %(refname)", ref],
                  cwd=repo.common_dir).stdout.decode("utf-8", "surrogateescape")
    for line in out.splitlines():
        oid, kind, name = line.split(" ", 2)
        if name != ref:
            continue
        if kind != "commit":  # the words libgit2's engine says too
            raise UnavailableError(f"ledger tip {oid} is not a commit in {repo.git_dir}",
                                   hint="run `git fsck`; fetch the ledger ref again")
        return oid
    return None


def read_notes_for(repo: Repository, tip: str | None,
                   subjects: list[str]) -> dict[str, bytes]:
    """subject → its note's bytes at `tip` (absent: no note), every subject's blobs found
    by one `git ls-tree` and read by one `git cat-file --batch`."""
    if tip is None:
        return {}
    blobs = note_blob_map(repo, tip, subjects)
    contents = read_blob_map(repo.common_dir, [oid for oids in blobs.values() for oid in oids])
    return {subject: join_note_parts([contents[oid] for oid in oids])
            for subject, oids in blobs.items()}


def note_blobs_at(repo: Repository, ref: str, subjects: list[str]) -> dict[str, list[str]]:
    """subject → the blobs of its note at `ref` (one `git ls-tree` of the ref itself); {}
    when the ref does not exist yet; a ref that is not a notes commit is an error."""
    found = note_blobs_for(repo.common_dir, f"{ref}^{{commit}}", subjects)
    if found is not None:
        return found
    tip = ledger_tip(repo, ref)  # None: nothing recorded yet; not a commit: raises
    return {} if tip is None else note_blob_map(repo, tip, subjects)


def note_blob_map(repo: Repository, tip: str, subjects: list[str]) -> dict[str, list[str]]:
    """subject → the blobs of its note at `tip`, in read order (absent: no note)."""
    found = note_blobs_for(repo.common_dir, tip, subjects)
    if found is None:
        raise UnavailableError(f"ledger tip {tip} is not a notes commit in {repo.git_dir}",
                               hint="run `git fsck`; fetch the ledger ref again")
    return found
