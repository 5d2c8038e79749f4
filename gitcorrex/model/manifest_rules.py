"""A manifest's patterns as pathspec compiled them, decided without importing pathspec.

pathspec's `GitIgnoreSpec` is the definition of what a manifest allows. Importing it costs
~20 ms (over 80 modules) of an agent hook call whose whole budget is three interpreter
start-ups, for a profile blob that rarely changes. So the validated-manifest cache
(hooks/manifest_cache.py) keeps, beside the patterns, what pathspec compiled them into:
each pattern's regular expression and include flag (`compile_rules`, run with pathspec on a
cache miss). `rules_allow` is pathspec's own GitIgnoreSpec decision over those, as its
default ("simple") backend takes it (pathspec/_backends/simple/gitignore.py): the patterns
from last to first, a file match outranking a directory match, the last file match
deciding — using only `re`.

tests/model/test_manifest_rules.py compares the two on generated patterns and paths, so a
pathspec release that decides otherwise fails the suite; the cache also names the pathspec
version that compiled it (`PATHSPEC_VERSION_FILE`), and another version recompiles.
"""

from __future__ import annotations

import re

# pathspec's group name for the part of a match that is a directory below the pattern
# (pathspec.patterns.gitignore.spec._DIR_MARK); a test checks it is still that name.
DIR_MARK = "ps_d"

Rule = tuple[str, int, bool]  # (regular expression, its flags, include)
Compiled = tuple[tuple[re.Pattern[str], bool], ...]


def compile_rules(patterns: tuple[str, ...]) -> tuple[Rule, ...]:
    """pathspec's compilation of `patterns`: the rules that decide (no-op lines dropped)."""
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    return tuple((pattern.regex.pattern, pattern.regex.flags, bool(pattern.include))
                 for pattern in spec.patterns
                 if pattern.include is not None and pattern.regex is not None)


def compiled(rules: tuple[Rule, ...]) -> Compiled:
    """The rules' expressions compiled by `re`, in the order pathspec checks them (last
    pattern first)."""
    return tuple((re.compile(source, flags), include)
                 for source, flags, include in reversed(rules))


def rules_allow(rules: Compiled, path: str) -> bool:
    """Whether GitIgnoreSpec with these rules (from `compiled`) matches `path`."""
    included = False
    priority = 0
    for regex, include in rules:
        match = regex.search(path)
        if match is None:
            continue
        rank = 1 if match.groupdict().get(DIR_MARK) else 2
        if rank > priority:
            included, priority = include, rank
        if rank == 2:
            break
    return included


def pathspec_version() -> str | None:
    """The installed pathspec's version without importing it (its metadata directory name):
    cached rules compiled by another version are compiled again."""
    import sys
    from os import listdir, path

    for entry in sys.path:
        try:
            names = listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("pathspec-") and name.endswith(".dist-info"):
                return name[len("pathspec-"):-len(".dist-info")]
        if path.isdir(path.join(entry or ".", "pathspec")):
            return None
    return None
