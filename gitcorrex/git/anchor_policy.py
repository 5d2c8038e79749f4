"""What the ledger anchors and how much a fact may carry: `git config correx.anchorStates`
(default true), `correx.anchorMaxBytes` (default 1 MiB) and `correx.maxChangedPaths`
(default 200). docs/git-config.md names them; docs/state-key.md#environment-directories
says why.

An anchored tree keeps the verified state alive through `git gc` and travels wherever the
ledger ref is pushed, uncommitted files included. Set `anchorStates` to false where such
states must not be published: trees are then left unanchored (a local `git gc` may prune
the ones no commit holds), and blobs (session objects, command output) are still anchored.

One un-ignored virtualenv would otherwise push tens of megabytes to every clone: a tree is
anchored only when the files it adds beyond HEAD weigh at most `anchorMaxBytes` (0: no
cap); a heavier one is left unanchored, and the ledger commit's message says which tree,
how many files and bytes. Trees the ledger anchors already, and HEAD's own tree, cost
nothing and are not weighed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from gitcorrex.errors import ConfigError
from gitcorrex.git.changes import EMPTY_TREE, EMPTY_TREE_SHA256, tree_changes
from gitcorrex.git.config import config_value
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

ANCHOR_STATES_CONFIG = "correx.anchorStates"
ANCHOR_MAX_BYTES_CONFIG = "correx.anchorMaxBytes"
MAX_CHANGED_PATHS_CONFIG = "correx.maxChangedPaths"
DEFAULT_ANCHOR_MAX_BYTES = 1024 * 1024
DEFAULT_MAX_CHANGED_PATHS = 200
_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
_NO_BLOB = ("000000", "160000", "040000")


class TreeWeight(NamedTuple):
    """What anchoring a tree would add beyond HEAD: files (new blobs) and their bytes."""

    files: int
    size: int


def anchors_states(repo: Repository) -> bool:
    """The config value as a boolean; unset means true, anything but a boolean is exit 2."""
    value = config_value(repo, ANCHOR_STATES_CONFIG)
    if value is None or value.lower() in ("true", "yes", "on", "1", ""):
        return True
    if value.lower() in ("false", "no", "off", "0"):
        return False
    raise ConfigError(f"git config {ANCHOR_STATES_CONFIG}: {value!r} is not a boolean",
                      hint=f"`git config {ANCHOR_STATES_CONFIG} false` (or true)")


def anchor_max_bytes(repo: Repository) -> int:
    """`correx.anchorMaxBytes` in bytes (git's k/m/g suffixes); 0 means no cap."""
    return _size(repo, ANCHOR_MAX_BYTES_CONFIG, DEFAULT_ANCHOR_MAX_BYTES, "bytes such as 1m")


def max_changed_paths(repo: Repository) -> int:
    """`correx.maxChangedPaths`: how many changed paths one observation lists."""
    return _size(repo, MAX_CHANGED_PATHS_CONFIG, DEFAULT_MAX_CHANGED_PATHS, "a count such as 200")


def heavy_trees(repo: Repository, tip: str | None,
                trees: Sequence[str]) -> dict[str, TreeWeight]:
    """The `trees` over `correx.anchorMaxBytes` and their weight; {} when none is (or no
    cap). A tree anchored at ledger commit `tip` already, or HEAD's tree, is not weighed.
    libgit2 answers in-process once this process opened it (`anchor_weights_libgit2.py`),
    else git's plumbing: the engine choice of `git/notes.py`."""
    cap = anchor_max_bytes(repo)
    if not trees or cap == 0:
        return {}
    head, anchored = _head_and_anchored(repo, tip, trees)
    heavy = {}
    for tree in trees:
        if tree != head and tree not in anchored:
            weight = _weight(repo, head, tree)
            if weight.size > cap:
                heavy[tree] = weight
    return heavy


def _head_and_anchored(repo: Repository, tip: str | None,
                       trees: Sequence[str]) -> tuple[str | None, set[str]]:
    """HEAD's tree (None when unborn) and those of `trees` anchored at `tip`."""
    if repo.has_libgit2():
        from gitcorrex.git.anchor_weights_libgit2 import head_and_anchored

        return head_and_anchored(repo, tip, trees)
    asked = ["HEAD^{tree}", *(f"{tip}:anchors/{tree[:2]}/{tree[2:]}" for tree in trees if tip)]
    found = lookup_objects(repo, asked)
    head = found[0].oid if found[0] is not None else None
    return head, {tree for tree, hit in zip(trees, found[1:], strict=False) if hit is not None}


def _weight(repo: Repository, head: str | None, tree: str) -> TreeWeight:
    """The blobs `tree` holds that HEAD's tree does not, counted and sized."""
    if repo.has_libgit2():
        from gitcorrex.git.anchor_weights_libgit2 import new_blob_sizes

        return TreeWeight(*new_blob_sizes(repo, head, tree))
    base = head or (EMPTY_TREE_SHA256 if repo.object_format == "sha256" else EMPTY_TREE)
    new = {change.new_oid for change in tree_changes(repo, base, tree)
           if change.new_mode not in _NO_BLOB}
    if not new:
        return TreeWeight(0, 0)
    stdin = "".join(f"{oid}\n" for oid in new).encode("ascii")
    out = run_git(["cat-file", "--batch-check=%(objectsize)"], cwd=repo.common_dir,
                  stdin=stdin).stdout
    sizes = [int(line) for line in out.split() if line.isdigit()]
    return TreeWeight(len(new), sum(sizes))


def _size(repo: Repository, key: str, default: int, example: str) -> int:
    value = config_value(repo, key)
    if value is None:
        return default
    text = value.strip().lower()
    unit = text[-1:] if text[-1:] in _UNITS else ""
    number = text[:-1] if unit else text
    if not number.isdigit():
        raise ConfigError(f"git config {key}: {value!r} is not a whole number",
                          hint=f"set it to {example} (`git config {key} ...`)")
    return int(number) * _UNITS[unit]
