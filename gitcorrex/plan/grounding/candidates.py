"""What the architect may have meant: deterministic string similarity, never embeddings.

Candidates are suggestions attached to a finding, never evidence: a finding with
candidates is still absent, ambiguous or unknown. The search is bounded whatever the size
of the tree: names and basenames one edit away (a deletion, insertion, substitution or
swap of adjacent characters, ignoring case) are looked up in hash maps, members of a
(nearly) matching qualifier are compared, and only those few are ranked with difflib's
ratio. Ties are broken by the text, so the same tree and plan give the same list.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from difflib import SequenceMatcher

from gitcorrex.model.grounding import MAX_CANDIDATES
from gitcorrex.plan.grounding.tree_view import TreeView
from gitcorrex.symbols.index import SymbolIndex

ALPHABET = string.ascii_lowercase + string.digits + "_-.$"
MAX_SIBLINGS = 500
MAX_RANKED = 200
SIBLING_CUTOFF = 0.6


def one_edit(word: str) -> set[str]:
    """Every string one deletion, adjacent swap, substitution or insertion from `word`."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    found = {a + b[1:] for a, b in splits if b}
    found |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    found |= {a + c + b[1:] for a, b in splits if b for c in ALPHABET}
    found |= {a + c + b for a, b in splits for c in ALPHABET}
    return found


def ranked(query: str, pool: Iterable[str], *, cutoff: float = 0.0,
           limit: int = MAX_CANDIDATES) -> list[str]:
    """`pool` by descending similarity to `query` (case-insensitive), then by text."""
    matcher = SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(query.lower())
    scored: list[tuple[float, str]] = []
    for candidate in sorted(set(pool))[:MAX_RANKED]:
        matcher.set_seq1(candidate.lower())
        ratio = matcher.ratio()
        if ratio >= cutoff:
            scored.append((-ratio, candidate))
    return [candidate for _, candidate in sorted(scored)[:limit]]


def path_candidates(view: TreeView, path: str) -> list[str]:
    """Same trailing components, same basename (any case or one edit off), then the
    most similar paths in the same directory."""
    parent, _, basename = path.rpartition("/")
    found = [*view.ending_with(path), *view.by_basename.get(basename, [])]
    lowered = basename.lower()
    for near in sorted({lowered} | one_edit(lowered)):
        found += view.by_lower_basename.get(near, [])
    siblings = view.children.get(parent, []) if not parent or view.exists(parent) else []
    found += ranked(path, siblings[:MAX_SIBLINGS], cutoff=SIBLING_CUTOFF)
    return [p for p in dict.fromkeys(found) if p != path][:MAX_CANDIDATES]


def symbol_candidates(index: SymbolIndex, name: str) -> list[str]:
    """`path:Name` of defined names near `name`, best tier first: one edit away as a whole
    (ignoring case); a member of a qualifier at most one edit away (`Servise.send` →
    `Service.send`); any name whose last component is at most one edit away."""
    qualifier, _, leaf = name.rpartition(".")
    near_leaves = index.existing_leaves({leaf.lower()} | one_edit(leaf.lower()))
    pool = [n for near in near_leaves for n in index.names_with_lower_leaf(near)]
    whole = {name.lower()} | one_edit(name.lower())
    owners = {qualifier.lower()} | one_edit(qualifier.lower()) if qualifier else set()
    tiers = [[n for n in pool if n.lower() in whole],
             [n for n in pool if n.rpartition(".")[0].lower() in owners], pool]
    found = [n for tier in tiers for n in ranked(name, tier, cutoff=0.5)]
    located = [(n, index.paths_defining(n)) for n in dict.fromkeys(found)]
    return [f"{paths[0]}:{n}" for n, paths in located if paths][:MAX_CANDIDATES]
