"""Tree objects as plain values: parse, edit, and write several with one `git mktree`.

A tree is `{name: (mode, oid)}` with git's own mode spelling (`100644`, `40000`...). A
parent must name its children's ids before git has written them, so the ids are computed
here (git's tree format and hash) and `git mktree --batch` then writes every tree in one
process, children first; the ids git prints must equal ours, or nothing is used.
"""

from __future__ import annotations

import hashlib

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

Tree = dict[str, tuple[str, str]]
TREE_MODE = "40000"
BLOB_MODE = "100644"
_TYPES = {TREE_MODE: "tree", "160000": "commit"}


def parse_tree(data: bytes, object_format: str = "sha1") -> Tree:
    """A raw tree object (`<mode> <name>\\0<binary id>`...) as {name: (mode, hex id)}."""
    width = 32 if object_format == "sha256" else 20
    entries: Tree = {}
    pos = 0
    while pos < len(data):
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        mode = data[pos:space].decode("ascii")
        name = data[space + 1:nul].decode("utf-8", "surrogateescape")
        entries[name] = (mode, data[nul + 1:nul + 1 + width].hex())
        pos = nul + 1 + width
    return entries


def tree_bytes(tree: Tree) -> bytes:
    """The raw object git writes for `tree`: entries in git's order (a subtree sorts as if
    its name ended in `/`)."""
    body = bytearray()
    for name in sorted(tree, key=lambda n: _sort_key(n, tree[n][0])):
        mode, oid = tree[name]
        body += f"{mode} ".encode("ascii") + name.encode("utf-8", "surrogateescape")
        body += b"\0" + bytes.fromhex(oid)
    return bytes(body)


def tree_oid(tree: Tree, object_format: str = "sha1") -> str:
    """The id git gives `tree`, computed without git."""
    data = tree_bytes(tree)
    digest = hashlib.sha256 if object_format == "sha256" else hashlib.sha1
    return digest(b"tree %d\0" % len(data) + data).hexdigest()


def write_trees(repo: Repository, trees: list[Tree]) -> list[str]:
    """Write `trees` (each one's subtrees earlier in the list or stored already) with one
    `git mktree --batch`; their ids, checked against ours."""
    expected = [tree_oid(tree, repo.object_format) for tree in trees]
    stdin = b"\n".join(_mktree_lines(tree) for tree in trees) + b"\n"
    args = ["mktree", "--batch"]
    out = run_git(args, cwd=repo.common_dir, stdin=stdin).stdout.decode("ascii").split()
    if out != expected:
        raise GitCommandError(["git", *args], 0, f"mktree wrote {out}, expected {expected}")
    return out


def _mktree_lines(tree: Tree) -> bytes:
    lines = [f"{mode} {_TYPES.get(mode, 'blob')} {oid}\t".encode("ascii")
             + name.encode("utf-8", "surrogateescape") + b"\n"
             for name, (mode, oid) in tree.items()]
    return b"".join(lines)


def _sort_key(name: str, mode: str) -> bytes:
    raw = name.encode("utf-8", "surrogateescape")
    return raw + b"/" if mode == TREE_MODE else raw
