"""The brief echo diff: did a restatement keep every requirement and invent no file?

A pure function of two recorded artifacts, so a replay can trust the recorded result and
never needs to recompute it. Requirements are compared as token sets: a token is a run of
word characters after NFKC normalisation and case folding (`ÜNÏCODE` and `ünïcode` are
one token, and so are full-width letters). Each original requirement must be covered by a
restated requirement with a Jaccard index (shared / union) of at least the threshold;
compared as exact fractions, so a threshold edge is exact. A requirement without any word
token has nothing to cover and is never dropped. Files are the extractor's references: one
the restatement names and the brief never did is hallucinated. Symbols (dotted names and
`name()` calls) new in the restatement are reported and never make a mismatch.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gitcorrex.gates.references import iter_strings, references_in
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import Coverage

FILE_SUFFIXES = frozenset({
    "c", "cfg", "cpp", "cs", "css", "go", "h", "hpp", "html", "ini", "java", "js", "json",
    "jsx", "kt", "lock", "md", "mjs", "py", "pyi", "rb", "rs", "rst", "sh", "sql", "toml",
    "ts", "tsx", "txt", "xml", "yaml", "yml"})
_WORD = re.compile(r"\w+")
_SYMBOL = re.compile(r"(?<![\w./])(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*(?:\(\))?(?![\w/])"
                     r"|(?<![\w./])[A-Za-z_]\w*\(\)")


@dataclass(frozen=True)
class EchoDiff:
    """The comparison; `mismatch` when a requirement was dropped or a file made up."""

    requirements: int
    restated: int
    dropped: list[Coverage]
    hallucinated_files: list[str]
    symbols: list[str]

    @property
    def mismatch(self) -> bool:
        return bool(self.dropped or self.hallucinated_files)


def diff_echo(brief: Any, restatement: Any, threshold: Fraction) -> EchoDiff:
    """Compare two parsed artifacts (objects with a `requirements` list of strings)."""
    original = requirements_of(brief)
    restated = requirements_of(restatement)
    restated_tokens = [tokens(text) for text in restated]
    dropped = []
    for index, text in enumerate(original):
        if not tokens(text):
            continue  # nothing to cover
        coverage = best_coverage(index, text, restated_tokens)
        if Fraction(coverage.shared, coverage.union) < threshold:
            dropped.append(coverage)
    brief_files = set(_files(brief))
    invented = [path for path in dict.fromkeys(_files(restatement)) if path not in brief_files]
    brief_symbols = set(_symbols(brief))
    symbols = [s for s in dict.fromkeys(_symbols(restatement)) if s not in brief_symbols]
    return EchoDiff(len(original), len(restated), dropped, invented, symbols)


def best_coverage(index: int, text: str, candidates: list[frozenset[str]]) -> Coverage:
    """The restated requirement with the highest Jaccard (the first on a tie; None when
    none shares a token)."""
    wanted = tokens(text)
    best: tuple[Fraction, int | None, int, int] = (Fraction(-1), None, 0, len(wanted))
    for position, other in enumerate(candidates):
        union = len(wanted | other)
        shared = len(wanted & other)
        score = Fraction(shared, union) if union else Fraction(0)
        if score > best[0]:
            best = (score, position, shared, union)
    _, found, shared, union = best
    return Coverage(index=index, requirement=bound_text(text),
                    best=found if shared else None, shared=shared, union=union)


def tokens(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def requirements_of(artifact: Any) -> list[str]:
    """The `requirements` strings; the produces gate has already checked the shape."""
    found = artifact.get("requirements") if isinstance(artifact, dict) else None
    return [item for item in found if isinstance(item, str)] if isinstance(found, list) else []


def _files(artifact: Any) -> list[str]:
    return [path for _, text in iter_strings(artifact, "") for path in references_in(text)]


def _symbols(artifact: Any) -> list[str]:
    found = []
    for _, text in iter_strings(artifact, ""):
        found += [m.removesuffix("()") for m in _SYMBOL.findall(text) if not _is_file_name(m)]
    return found


def _is_file_name(text: str) -> bool:
    """`app.py`, `README.md`: a bare file name, not a symbol."""
    return text.rsplit(".", 1)[-1].lower() in FILE_SUFFIXES
