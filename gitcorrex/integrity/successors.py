"""A test renamed and rewritten in one change: its successor, told by its name.

`test_session` becomes `test_session_accessed` with new assertions; `test_redirect_keep_session`
becomes `test_redirect_session`. Neither the name nor the body is the same, so the
comparison would call the old test removed, where a person sees the same test, rewritten.
A test gone from a file is paired with a test the change added to that file (one the
baseline did not have, and no other test of the baseline became) when their names share
most of their words: one name's words all in the other's, or half of all their words in
common. Each added test succeeds the gone test whose name is closest; a gone test split into
several has them all as successors. The pair is then compared like any test: fewer
assertions is still a weakening.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping

from gitcorrex.integrity.cases import Case, FileCases

NOISE = frozenset({"test", "tests", "it", "should", ""})
SIMILAR = 0.5
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def words(name: str) -> frozenset[str]:
    """The words of a test's leaf name: `TestX::test_parse_empty` → {parse, empty}."""
    leaf = re.split(r"::| > |\.", name)[-1]
    return frozenset(w.lower() for w in _WORDS.findall(leaf)) - NOISE


def similarity(old: str, new: str) -> float:
    """1.0 when one name's words are all in the other's, else their Jaccard index."""
    a, b = words(old), words(new)
    if not a or not b:
        return 0.0
    if a <= b or b <= a:
        return 1.0
    return len(a & b) / len(a | b)


def successors(gone: Mapping[str, list[Case]], old: Mapping[str, FileCases],
               new: Mapping[str, FileCases], taken: Collection[tuple[str, str]]
               ) -> Iterator[tuple[str, Case, Case | None]]:
    """(path, gone test, its successor or None) for every gone test. A test split in two
    (`test_attr` → `test_attr_enable`, `test_attr_disable`) has both as its successor,
    joined: their assertions together against the old test's."""
    for path in sorted(gone):
        before = old[path].cases
        added = [c for c in new[path].cases.values() if not c.group and
                 c.name not in before and (path, c.name) not in taken] \
            if path in new else []
        heirs: dict[int, list[Case]] = {}
        for case in added:
            scores = [(similarity(g.name, case.name), -i) for i, g in enumerate(gone[path])]
            best, index = max(scores, default=(0.0, 0))
            if best >= SIMILAR:
                heirs.setdefault(-index, []).append(case)
        for i, case in enumerate(gone[path]):
            yield path, case, _joined(heirs[i]) if i in heirs else None


def _joined(cases: list[Case]) -> Case:
    """One case standing for the tests a gone test was split into."""
    if len(cases) == 1:
        return cases[0]
    return Case(" + ".join(c.name for c in cases), cases[0].line, False,
                frozenset().union(*(c.markers for c in cases)),
                tuple(a for c in cases for a in c.assertions),
                tuple(t for c in cases for t in c.trivial), cases[0].shape)
