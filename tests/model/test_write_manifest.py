"""`Manifest.allows`: GitIgnoreSpec semantics on canonical paths; gitlinks only by exact path."""

from __future__ import annotations

from gitcorrex.model.write_manifest import UNRESTRICTED, Manifest


def manifest(*patterns: str) -> Manifest:
    return Manifest(patterns, "stage 'implement'")


def test_empty_manifest_is_unrestricted() -> None:
    assert UNRESTRICTED.unrestricted and manifest().unrestricted
    assert manifest().allows("anything/at/all.py")
    assert manifest().allows("vendor/lib", gitlink=True)


def test_anchored_glob_allows_only_below_its_directory() -> None:
    spec = manifest("/src/**")
    assert spec.allows("src/a.py") and spec.allows("src/deep/b.py")
    assert not spec.allows("docs/src/a.py")
    assert not spec.allows("src")


def test_directory_pattern_allows_everything_below_it() -> None:
    assert manifest("/src/").allows("src/a/b.py")


def test_unanchored_pattern_matches_at_any_depth() -> None:
    assert manifest("*.md").allows("deep/down/x.md")
    assert manifest("allowed/").allows("protected/allowed/x")
    assert not manifest("/allowed/").allows("protected/allowed/x")


def test_negation_removes_paths_and_a_later_pattern_restores_them() -> None:
    spec = manifest("/src/**", "!/src/secret.py")
    assert spec.allows("src/a.py") and not spec.allows("src/secret.py")
    assert manifest("/a/**", "!/a/b/**", "/a/b/c").allows("a/b/c")


def test_gitlink_is_allowed_only_by_a_pattern_naming_exactly_its_path() -> None:
    assert not manifest("/vendor/**").allows("vendor/lib", gitlink=True)
    assert not manifest("lib").allows("vendor/lib", gitlink=True)
    assert manifest("/vendor/lib").allows("vendor/lib", gitlink=True)
    assert manifest("vendor/lib").allows("vendor/lib", gitlink=True)


def test_negation_takes_a_gitlink_back() -> None:
    assert not manifest("/vendor/lib", "!/vendor/lib").allows("vendor/lib", gitlink=True)


def test_pathspec_does_not_normalise_so_callers_must_canonicalise_first() -> None:
    # Why check_changes (and assess) reject non-canonical paths before matching.
    assert manifest("/allowed/**").allows("allowed/../protected/x")
