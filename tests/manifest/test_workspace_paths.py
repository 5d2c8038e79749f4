"""`locate`: parents resolved physically with lstat/readlink, the last name never followed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitcorrex.manifest.workspace_paths import Location, locate, relative_to
from tests.conftest import write


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """`work/` (the work tree, real path) with src/ and docs/, and `outside/` next to it."""
    root = tmp_path.resolve() / "work"
    write(root, "src/app.py")
    write(root, "docs/guide.md")
    write(tmp_path.resolve(), "outside/secret.txt")
    return root


def at(tree: Path, given: str, base: str = "") -> Location:
    return locate(given, base=str(tree / base) if base else str(tree), root=str(tree))


def test_plain_relative_and_absolute_paths(tree: Path) -> None:
    assert at(tree, "src/app.py").relative == "src/app.py"
    assert at(tree, str(tree / "src" / "new.py")).relative == "src/new.py"
    assert at(tree, "new.py", base="src").relative == "src/new.py"


def test_dots_and_doubled_slashes_are_canonicalised(tree: Path) -> None:
    assert at(tree, "./src//./app.py").relative == "src/app.py"
    assert at(tree, "docs/../src/app.py").relative == "src/app.py"


def test_dotdot_above_the_root_is_outside(tree: Path) -> None:
    found = at(tree, "../outside/secret.txt")
    assert (found.relative, found.problem) == (None, None)
    assert found.absolute == str(tree.parent / "outside" / "secret.txt")


def test_dotdot_beyond_the_filesystem_root_stays_at_root(tree: Path) -> None:
    assert at(tree, "/../../etc/x").absolute == "/etc/x"


def test_missing_directories_are_resolved_by_name(tree: Path) -> None:
    assert at(tree, "new/dir/../file").relative == "new/file"


def test_symlinked_parent_inside_resolves_to_its_target(tree: Path) -> None:
    os.symlink("docs", tree / "d")
    assert at(tree, "d/guide.md").relative == "docs/guide.md"


def test_symlinked_parent_outside_is_outside(tree: Path) -> None:
    os.symlink("../../outside", tree / "src" / "out")
    assert at(tree, "src/out/secret.txt").relative is None


def test_chained_symlinks_with_absolute_targets(tree: Path) -> None:
    os.symlink(str(tree.parent / "outside"), tree / "abs")
    os.symlink("abs", tree / "chain")
    assert at(tree, "chain/x").absolute == str(tree.parent / "outside" / "x")


def test_the_last_component_is_never_followed(tree: Path) -> None:
    os.symlink("../outside/secret.txt", tree / "link")
    found = at(tree, "link")
    assert (found.relative, found.absolute) == ("link", str(tree / "link"))


def test_a_trailing_slash_names_the_directory_the_link_leads_to(tree: Path) -> None:
    os.symlink("../outside", tree / "link")
    assert at(tree, "link/").relative is None


def test_dotdot_right_after_a_symlink_cannot_be_judged(tree: Path) -> None:
    os.symlink("docs", tree / "d")
    found = at(tree, "d/../src/app.py")
    assert found.problem is not None and not found.escapes


def test_dotdot_below_a_symlink_is_fine(tree: Path) -> None:
    os.symlink("docs", tree / "d")
    (tree / "docs" / "sub").mkdir()
    assert at(tree, "d/sub/../guide.md").relative == "docs/guide.md"


def test_symlink_loops_are_an_unresolvable_escape(tree: Path) -> None:
    os.symlink("b", tree / "a")
    os.symlink("a", tree / "b")
    found = at(tree, "a/x")
    assert found.escapes and "too many levels" in (found.problem or "")


def test_empty_and_nul_paths_are_problems(tree: Path) -> None:
    assert at(tree, "").problem == "empty path"
    assert at(tree, "a\0b").problem == "NUL byte in the path"


def test_non_utf8_names_survive(tree: Path) -> None:
    name = os.fsdecode(b"caf\xe9")
    (tree / name).mkdir()
    os.symlink(name, tree / "cafe")
    assert at(tree, "cafe/x").relative == f"{name}/x"


def test_relative_to() -> None:
    assert relative_to("/w", "/w") == ""
    assert relative_to("/w/a/b", "/w") == "a/b"
    assert relative_to("/wx/a", "/w") is None
    assert relative_to("/a", "/") == "a"
