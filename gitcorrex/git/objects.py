"""Object lookups with the git binary, for hooks that must not import pygit2 on the hot path.

One `git cat-file --batch-check` answers several revision expressions at once (HEAD's tree
and the profile blob in it: one process instead of two, and no libgit2 import).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from gitcorrex.git.process import GitResult, decode_path, encode_path, run_git
from gitcorrex.git.repository import Repository

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.git.spawn import SpawnedGit


class ObjectInfo(NamedTuple):
    """What a revision expression names: its oid and type (`blob`, `tree`, `commit`...)."""

    oid: str
    kind: str


LOOKUP_ARGS = ("cat-file", "--batch-check=%(objectname) %(objecttype)")


def begin_lookup_objects(top: Path | str, expressions: Sequence[str]) -> SpawnedGit | None:
    """`lookup_objects`' git, started now from `top` (the work tree's top level, as far as
    the caller knows yet) for a caller that has other work before it can ask (its answer
    goes to `asked=`); None when it cannot start here."""
    from gitcorrex.git.spawn import spawn_git

    try:
        return spawn_git(LOOKUP_ARGS, cwd=str(top), check=False,
                         stdin=_lookup_input(expressions))
    except OSError:
        return None


def _lookup_input(expressions: Sequence[str]) -> bytes:
    return b"".join(encode_path(expr) + b"\n" for expr in expressions)


def lookup_objects(repo: Repository, expressions: Sequence[str], *,
                   asked: GitResult | None = None) -> list[ObjectInfo | None]:
    """Each expression's object, or None where it names nothing (unborn HEAD, no such path).

    Expressions are resolved as `git rev-parse` would, from the top level of the work tree.
    `asked`: `begin_lookup_objects`' answer for the same expressions from that top level.
    """
    if not expressions:
        return []
    if asked is None:
        asked = run_git(LOOKUP_ARGS, cwd=repo.work_tree or repo.git_dir,
                        stdin=_lookup_input(expressions))
    elif asked.returncode != 0:
        from gitcorrex.errors import GitCommandError

        raise GitCommandError(["git", *LOOKUP_ARGS], asked.returncode,
                              decode_path(asked.stderr))
    out = asked.stdout
    answers: list[ObjectInfo | None] = []
    for line in out.split(b"\n")[:len(expressions)]:
        fields = line.decode("ascii", "replace").split(" ")
        if len(fields) == 2 and fields[1] in ("blob", "tree", "commit", "tag"):
            answers.append(ObjectInfo(fields[0], fields[1]))
        else:  # "<expr> missing" or "<expr> ambiguous"
            answers.append(None)
    return answers


def read_blob(repo: Repository, oid: str) -> bytes:
    """The bytes of the blob `oid` (the caller knows it exists)."""
    return run_git(["cat-file", "blob", oid], cwd=repo.common_dir).stdout


def write_index_tree(repo: Repository) -> str:
    """The tree the index git would use (GIT_INDEX_FILE inside hooks) records: exactly what
    the commit in progress will hold. git only adds tree objects; the index is not changed
    in any way that matters (at most its cache-tree extension)."""
    out = run_git(["write-tree"], cwd=repo.root).stdout
    return decode_path(out).strip()
