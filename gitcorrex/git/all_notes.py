"""Every note of the ledger, streamed: the read of a whole-ledger replay.

A 100,000-event ledger is ~190 MB of note text in ~30 MB of packs: inflating it is most of
the read, and libgit2 did it in our own process, one blob after another, before the line
scan could start (0.5-0.9 s of a 2.3 s replay). Here git does it in its own process, on the
other core, while this one scans the notes already read:

- `git ls-tree` of the notes tree's top level, then `git ls-tree -r` of its hex names only
  (never `anchors/`, which holds whole workspace trees), lists every note's blobs in tree
  order, deeper fanouts first (a note split over levels, `note_levels.py`, reads as one);
- one `git cat-file --batch --buffer`, fed by a thread (10,000 ids do not fit a pipe: a
  writer that waits for git while git waits for its reader deadlocks), answers them in
  that order through a pipe widened to 1 MB, so git inflates ahead of the scan.

One note is in memory at a time (besides the pipe), as before. The walk rules are
libgit2's (`_walk_notes` before this module): hex names only, fanout directories of two
characters, a note where the path's hex adds up to an object id.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import suppress
from typing import IO

from gitcorrex.errors import UnavailableError
from gitcorrex.git.background import in_background
from gitcorrex.git.note_reads import join_note_parts
from gitcorrex.git.process import decode_path, raise_if_stopped, run_git, start_git
from gitcorrex.git.repository import Repository

_HEX = frozenset(b"0123456789abcdef")
_OID_LENGTHS = (40, 64)
PIPE_BYTES = 1 << 20
CAT_FILE = ("cat-file", "--batch", "--buffer")


def iter_all_notes(repo: Repository, tip: str | None) -> Iterator[tuple[str, bytes]]:
    """Every (subject, note bytes) at notes commit `tip`, in tree order; nothing for None."""
    if tip is None:
        return
    listed = list_all_notes(repo, tip)
    oids = [oid for _, parts in listed for oid in parts]
    if not oids:
        return
    blobs = _read_blobs(repo, oids)
    try:
        for subject, parts in listed:
            yield subject, join_note_parts([next(blobs) for _ in parts])
    finally:
        blobs.close()


def list_all_notes(repo: Repository, tip: str) -> list[tuple[str, list[str]]]:
    """(subject, its note's blob ids in read order) for every note at `tip`, tree order.

    The top level is listed alone: its flat notes come from there, and only its fanout
    directories (256 at most) are listed recursively, as pathspecs (git matches every entry
    against each one: thousands of flat notes as pathspecs would cost their square)."""
    top = _ls_tree(repo, ["ls-tree", "-z", "--full-tree", tip])
    fanouts = [path.decode("ascii") for kind, _, path in top
               if kind == b"tree" and _is_note_path(path, kind)]
    below: dict[bytes, list[tuple[str, bytes]]] = {}
    if fanouts:
        for kind, oid, path in _ls_tree(repo, ["ls-tree", "-r", "-z", "--full-tree", tip,
                                               "--", *fanouts]):
            if kind == b"blob" and _is_note_path(path, kind):
                below.setdefault(path[:2], []).append((oid, path))
    found: dict[str, list[str]] = {}
    for kind, oid, path in top:  # in tree order, as a walk of the tree meets them
        if kind == b"tree":
            notes = below.get(path, [])
        else:
            notes = [(oid, path)] if kind == b"blob" and _is_note_path(path, kind) else []
        for note_oid, note_path in notes:
            found.setdefault(note_path.replace(b"/", b"").decode("ascii"), []).append(note_oid)
    return list(found.items())


def _is_note_path(path: bytes, kind: bytes) -> bool:
    """A note blob's path (hex parts, 2-character fanout directories, an oid's length in
    all), or at the top level a fanout directory that may hold one."""
    *dirs, name = path.split(b"/")
    if not name or not _HEX.issuperset(name) or any(len(d) != 2 for d in dirs):
        return False
    if kind == b"tree":
        return not dirs and len(name) == 2
    return sum(map(len, dirs)) + len(name) in _OID_LENGTHS


def _ls_tree(repo: Repository, args: list[str]) -> list[tuple[bytes, str, bytes]]:
    result = run_git(args, cwd=repo.common_dir, check=False)
    if result.returncode != 0:
        raise UnavailableError(f"cannot list the ledger's notes: {decode_path(result.stderr)}",
                               hint="run `git fsck`; fetch the ledger ref again")
    entries = []
    for entry in result.stdout.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3:
            entries.append((fields[1], fields[2].decode("ascii"), path))
    return entries


def _read_blobs(repo: Repository, oids: list[str]) -> Generator[bytes, None, None]:
    """The blobs' contents in the order of `oids`, read from one `cat-file` as they come."""
    proc = start_git(CAT_FILE, cwd=repo.common_dir)
    stdin, stdout = proc.stdin, proc.stdout
    if stdin is None or stdout is None:  # start_git always pipes both: never here
        raise ValueError("cat-file started without pipes")
    _widen(stdout.fileno())
    fed = in_background(lambda: _feed(stdin, oids), name="correx-cat-file-feed")
    try:
        for oid in oids:
            header = stdout.readline()
            fields = header.split()
            if len(fields) != 3 or fields[1] != b"blob":
                if not header:  # git ended: a stop signal that reached it first interrupts
                    raise_if_stopped(proc.wait())
                raise _missing(oid, header)
            size = int(fields[2])
            data = stdout.read(size)  # then the newline after it: no copy of 190 MB to cut it
            if len(data) != size or stdout.read(1) != b"\n":
                raise _missing(oid, header)
            yield data
    finally:
        stdout.close()
        with suppress(OSError):
            proc.kill()
        proc.wait()
        fed()


def _feed(stdin: IO[bytes], oids: list[str]) -> None:
    with suppress(OSError, ValueError):  # git gone: the reader reports it
        stdin.write("".join(oid + "\n" for oid in oids).encode("ascii"))
        stdin.close()


def _widen(fd: int) -> None:
    """Let git inflate up to 1 MB ahead of the scan (Linux; elsewhere the pipe stays)."""
    import fcntl

    with suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def _missing(oid: str, header: bytes) -> UnavailableError:
    return UnavailableError(
        f"ledger note blob {oid} could not be read ({decode_path(header.strip()) or 'no answer'})",
        hint="run `git fsck`; fetch the ledger ref again")

