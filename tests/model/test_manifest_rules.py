"""The manifest's decision over pathspec's compilation equals pathspec's own GitIgnoreSpec.

`rules_allow` decides without importing pathspec (model/manifest_rules.py); these tests are
what keeps it pathspec's decision: generated manifests (anchored, unanchored, directory,
`**`, character classes, negations, escaped and odd lines) against generated paths, and the
cache's staleness keys.
"""

from __future__ import annotations

import random

import pathspec
import pytest
from pathspec.patterns.gitignore import spec as gitignore_spec

from gitcorrex.model.manifest_rules import (
    DIR_MARK,
    compile_rules,
    compiled,
    pathspec_version,
    rules_allow,
)
from gitcorrex.model.write_manifest import Manifest

SEGMENTS = ["src", "docs", "a", "b", "lib", "x.py", "y.md", "secret.py", "*", "**", "*.py",
            "?.md", "[ab]", "[!a]*", "te*st", r"\!x", r"\#y", "dir"]
PATHS_SEGMENTS = ["src", "docs", "a", "b", "lib", "x.py", "y.md", "secret.py", "test", "dir",
                  "!x", "#y", "c.md", "tet", "a b"]


def random_pattern(rng: random.Random) -> str:
    parts = [rng.choice(SEGMENTS) for _ in range(rng.randint(1, 3))]
    text = "/".join(parts)
    if rng.random() < 0.4:
        text = "/" + text
    if rng.random() < 0.25:
        text += "/"
    if rng.random() < 0.3:
        text = "!" + text
    return text


def random_path(rng: random.Random) -> str:
    return "/".join(rng.choice(PATHS_SEGMENTS) for _ in range(rng.randint(1, 4)))


@pytest.mark.parametrize("seed", range(40))
def test_the_decision_is_pathspecs_on_generated_manifests(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        patterns = tuple(random_pattern(rng) for _ in range(rng.randint(1, 5)))
        spec = pathspec.GitIgnoreSpec.from_lines(patterns)
        regexes = compiled(compile_rules(patterns))
        for _ in range(20):
            path = random_path(rng)
            assert rules_allow(regexes, path) == bool(spec.match_file(path)), (patterns, path)


@pytest.mark.parametrize(("patterns", "path"), [
    (("/src/**", "!/src/secret.py"), "src/secret.py"),
    (("/a/**", "!/a/b/**", "/a/b/c"), "a/b/c"),
    (("!/src/x.py", "/src/"), "src/x.py"),       # a directory match after a file exclusion
    (("/src/", "!/src/x.py"), "src/x.py"),
    (("/src/x.py", "!/src/"), "src/x.py"),       # a file match outranks a directory exclusion
    (("!/src/x.py", "/src/x.py", "!/src/"), "src/x.py"),
    (("# comment", "", "/docs/*.md"), "docs/y.md"),
])
def test_the_order_and_rank_rules_are_pathspecs(patterns: tuple[str, ...], path: str) -> None:
    expected = bool(pathspec.GitIgnoreSpec.from_lines(patterns).match_file(path))
    assert Manifest(patterns, "stage 's'").allows(path) is expected
    rebuilt = Manifest(patterns, "stage 's'", compile_rules(patterns))
    assert rebuilt.allows(path) is expected


def test_the_directory_group_and_version_are_pathspecs() -> None:
    assert DIR_MARK == gitignore_spec._DIR_MARK
    assert pathspec_version() == pathspec.__version__


def test_a_manifest_keeps_the_compilation_it_was_given() -> None:
    given = Manifest(("/src/**",), "stage 's'")
    assert given.rules == compile_rules(("/src/**",))
    assert Manifest(("/src/**",), "stage 's'", given.rules) == given
