"""`check_changes` on what git itself reports: both sides of a rename, deletions, mode and
type changes, gitlinks by exact path, and non-canonical paths as violations in themselves."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from gitcorrex.git.changes import PathChange, staged_changes
from gitcorrex.git.repository import discover
from gitcorrex.manifest.check import (
    RULE_NON_CANONICAL,
    RULE_OUTSIDE_MANIFEST,
    check_changes,
    label_renames,
)
from gitcorrex.model.write_manifest import UNRESTRICTED, Manifest
from tests.conftest import git, write

FILES = {"src/app.py": "VALUE = 1\n", "docs/guide.md": "guide\n", "run.sh": "echo\n"}


def staged(root: Path) -> list[PathChange]:
    """What committing the index would change against HEAD, as git reports it."""
    head = git(root, "rev-parse", "HEAD^{tree}").strip()
    return staged_changes(discover(root), base_tree=head)


def manifest(*patterns: str) -> Manifest:
    return Manifest(patterns, "stage 'implement'")


def violations(root: Path, *patterns: str) -> list[tuple[str, str, str]]:
    return [(v.path, v.change, v.rule) for v in check_changes(staged(root), manifest(*patterns))]


def test_change_within_the_manifest_has_no_violation(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    write(root, "src/app.py", "VALUE = 2\n")
    git(root, "add", "-A")
    assert violations(root, "/src/**") == []


def test_rename_out_of_scope_is_caught_on_the_side_outside(
        make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    git(root, "mv", "docs/guide.md", "src/guide.md")
    assert violations(root, "/src/**") == [
        ("docs/guide.md", "renamed_from", RULE_OUTSIDE_MANIFEST)]
    assert violations(root, "/docs/**") == [
        ("src/guide.md", "renamed_to", RULE_OUTSIDE_MANIFEST)]


def test_deletion_out_of_scope_is_a_write(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    git(root, "rm", "-q", "docs/guide.md")
    assert violations(root, "/src/**") == [("docs/guide.md", "deleted", RULE_OUTSIDE_MANIFEST)]


def test_mode_change_is_a_write(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    os.chmod(root / "run.sh", 0o755)
    git(root, "add", "-A")
    assert violations(root, "/src/**") == [("run.sh", "mode_changed", RULE_OUTSIDE_MANIFEST)]


def test_file_to_symlink_is_a_type_change_judged_by_the_links_own_path(
        make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    (root / "docs" / "guide.md").unlink()
    os.symlink("../src/app.py", root / "docs" / "guide.md")
    git(root, "add", "-A")
    assert violations(root, "/src/**") == [
        ("docs/guide.md", "type_changed", RULE_OUTSIDE_MANIFEST)]


def test_gitlink_needs_its_exact_path(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    commit = git(root, "rev-parse", "HEAD").strip()
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{commit},vendor/lib")
    assert violations(root, "/vendor/**") == [("vendor/lib", "added", RULE_OUTSIDE_MANIFEST)]
    assert violations(root, "/vendor/lib") == []


def test_non_canonical_paths_are_violations_even_when_unrestricted() -> None:
    blob = "0" * 39 + "1"
    changes = [PathChange(path, "added", "000000", "100644", "0" * 40, blob)
               for path in ("allowed/../x", "a//b", ".git/config", "/abs", "ok.txt")]
    found = check_changes(changes, UNRESTRICTED)
    assert [(v.path, v.rule) for v in found] == [
        ("allowed/../x", RULE_NON_CANONICAL), ("a//b", RULE_NON_CANONICAL),
        (".git/config", RULE_NON_CANONICAL), ("/abs", RULE_NON_CANONICAL)]
    assert found[0].detail == "'..' path component"


def test_unanchored_pattern_allows_at_any_depth(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    write(root, "deep/down/notes.md")
    git(root, "add", "-A")
    assert violations(root, "*.md") == []
    assert violations(root, "/*.md") == [("deep/down/notes.md", "added",
                                          RULE_OUTSIDE_MANIFEST)]


def test_renames_are_labelled_by_blob_only_for_reading() -> None:
    blob = "a" * 40
    changes = [PathChange("old.txt", "deleted", "100644", "000000", blob, "0" * 40),
               PathChange("new.txt", "added", "000000", "100644", "0" * 40, blob),
               PathChange("other.txt", "added", "000000", "100644", "0" * 40, "b" * 40)]
    assert [c.change for c in label_renames(changes)] == ["renamed_from", "renamed_to", "added"]


def test_violation_says_what_to_do() -> None:
    (found,) = check_changes(
        [PathChange("docs/a\nb.md", "modified", "100644", "100644", "a" * 40, "b" * 40)],
        manifest("/src/**"))
    text = found.describe()
    assert text.startswith("PATH_OUTSIDE_MANIFEST docs/a\\nb.md: modified outside the manifest "
                           "of stage 'implement'")
    assert "declare the path in the manifest, or revert the change" in text
    assert found.as_dict()["patterns"] == ["/src/**"]
