"""The pre-commit hook on real commits: every pitfall of LESSONS.md's table, one per test.

HEAD declares stage `implement` with `writes = ["/src/**"]`; README.md, docs/ and
.correx.toml are outside it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, write
from tests.hooks.conftest import assessments, commit, run_git, stage_file

RepoFactory = Callable[..., Path]
Correx = Callable[..., CliResult]


def test_commit_inside_the_manifest_passes_silently(hooked: Path) -> None:
    stage_file(hooked, "src/app.py", "print(2)\n")
    result = commit(hooked)
    assert result.code == 0, result
    assert result.stderr == ""


def test_allowed_commit_records_nothing(hooked: Path) -> None:
    stage_file(hooked, "src/new.py")
    assert commit(hooked).code == 0
    assert assessments(hooked) == []


def test_commit_outside_the_manifest_is_blocked_with_the_fix(hooked: Path) -> None:
    stage_file(hooked, "README.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert "blocked: 1 path(s) outside the write manifest of stage 'implement' " \
        "(.correx.toml at HEAD):" in result.stderr
    assert "  PATH_OUTSIDE_MANIFEST README.md: modified outside the manifest of stage " \
        "'implement' [/src/**]" in result.stderr
    assert "declare the path in the manifest, or revert the change" in result.stderr
    assert git(hooked, "log", "--format=%s", "-1").strip() == "initial"


def test_commit_of_a_path_differing_from_the_manifest_only_in_case_is_blocked(
        hooked: Path) -> None:
    stage_file(hooked, "SRC/app.py", "print(2)\n")
    result = commit(hooked)
    assert result.code == 1, result
    assert "PATH_OUTSIDE_MANIFEST SRC/app.py: added outside the manifest" in result.stderr
    assert git(hooked, "log", "--format=%s", "-1").strip() == "initial"


def test_block_records_exactly_one_assessment_on_the_commit_tree(hooked: Path) -> None:
    stage_file(hooked, "README.md")
    tree = git(hooked, "write-tree").strip()
    assert commit(hooked).code == 1
    (event,) = assessments(hooked)
    assert (event["verdict"], event["rule"], event["origin"]) == \
        ("BLOCK", "PATH_OUTSIDE_MANIFEST", "pre-commit")
    assert event["subjects"] == [tree]
    assert event["stage"] == "implement"
    assert [p["path"] for p in event["paths"]] == ["README.md"]


def test_no_stage_selected_allows_everything(unstaged: Path) -> None:
    stage_file(unstaged, "README.md")
    assert commit(unstaged).code == 0


def test_rename_out_of_scope_reports_both_sides(hooked: Path) -> None:
    (hooked / "notes").mkdir()
    git(hooked, "mv", "docs/guide.md", "notes/guide.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert "docs/guide.md: renamed_from outside" in result.stderr
    assert "notes/guide.md: renamed_to outside" in result.stderr


def test_rename_into_the_manifest_still_reports_the_source(hooked: Path) -> None:
    git(hooked, "mv", "docs/guide.md", "src/guide.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert "docs/guide.md: renamed_from outside" in result.stderr
    assert "src/guide.md" not in result.stderr


def test_deletion_out_of_scope_is_blocked(hooked: Path) -> None:
    git(hooked, "rm", "-q", "docs/guide.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert "docs/guide.md: deleted outside" in result.stderr


def test_mode_change_out_of_scope_is_blocked(hooked: Path) -> None:
    git(hooked, "update-index", "--chmod=+x", "README.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert "README.md: mode_changed outside" in result.stderr


def test_file_replaced_by_symlink_is_a_type_change(hooked: Path) -> None:
    (hooked / "README.md").unlink()
    os.symlink("src/app.py", hooked / "README.md")
    git(hooked, "add", "README.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert "README.md: type_changed outside" in result.stderr


def test_symlink_inside_pointing_outside_is_matched_by_its_own_path(hooked: Path) -> None:
    os.symlink("../docs/guide.md", hooked / "src/guide-link")
    git(hooked, "add", "src/guide-link")
    assert commit(hooked).code == 0


def test_symlink_outside_pointing_inside_is_blocked(hooked: Path) -> None:
    os.symlink("../src/app.py", hooked / "docs/app-link")
    git(hooked, "add", "docs/app-link")
    result = commit(hooked)
    assert result.code == 1, result
    assert "docs/app-link: added outside" in result.stderr


def test_commit_all_checks_the_temporary_index(hooked: Path) -> None:
    write(hooked, "README.md", "edited, not staged\n")
    assert git(hooked, "diff", "--cached", "--name-only") == ""
    result = commit(hooked, "-a")
    assert result.code == 1, result
    assert "README.md: modified outside" in result.stderr


def test_commit_of_paths_checks_only_those_paths(hooked: Path) -> None:
    stage_file(hooked, "README.md")
    write(hooked, "src/app.py", "print(3)\n")
    result = commit(hooked, "--", "src/app.py")
    assert result.code == 0, result
    assert git(hooked, "diff", "--cached", "--name-only").strip() == "README.md"


def test_commit_of_an_out_of_scope_path_is_blocked(hooked: Path) -> None:
    write(hooked, "README.md", "only this path\n")
    result = commit(hooked, "--", "README.md")
    assert result.code == 1, result
    assert "README.md: modified outside" in result.stderr


def test_commit_from_a_subdirectory_with_relative_diff(hooked: Path) -> None:
    git(hooked, "config", "diff.relative", "true")
    stage_file(hooked, "README.md")
    stage_file(hooked, "src/app.py", "print(4)\n")
    result = commit(hooked / "src")
    assert result.code == 1, result
    assert "README.md: modified outside" in result.stderr
    assert "app.py" not in result.stderr


def test_non_utf8_and_newline_names_are_escaped(hooked: Path) -> None:
    with open(os.fsencode(hooked) + b"/docs/caf\xe9.txt", "wb") as handle:
        handle.write(b"x\n")
    write(hooked, "docs/two\nlines.txt")
    git(hooked, "add", "docs")
    result = commit(hooked)
    assert result.code == 1, result
    assert "docs/caf\\xe9.txt: added outside" in result.stderr
    assert "docs/two\\nlines.txt: added outside" in result.stderr
    paths = sorted(p["path"] for p in assessments(hooked)[0]["paths"])
    assert paths == ["docs/caf\\xe9.txt", "docs/two\\nlines.txt"]


def test_manifest_widening_commit_is_judged_by_head(hooked: Path) -> None:
    profile = (hooked / ".correx.toml").read_text()
    stage_file(hooked, ".correx.toml", profile.replace('["/src/**"]', '["/src/**", "/docs/**"]'))
    stage_file(hooked, "docs/new.md")
    result = commit(hooked)
    assert result.code == 1, result
    assert ".correx.toml: modified outside" in result.stderr
    assert "docs/new.md: added outside" in result.stderr


def test_gitlink_change_is_blocked_even_with_ignore_all(hooked: Path, tmp_path: Path) -> None:
    gitlink = _add_submodule(hooked, tmp_path)
    new = _advance_submodule(hooked / gitlink)
    git(hooked, "update-index", "--cacheinfo", f"160000,{new},{gitlink}")
    assert git(hooked, "diff", "--cached", "--name-only") == ""  # porcelain hides it
    result = commit(hooked)
    assert result.code == 1, result
    assert f"{gitlink}: modified outside" in result.stderr


def test_gitlink_change_is_allowed_by_its_exact_path(hooked: Path, tmp_path: Path) -> None:
    gitlink = _add_submodule(hooked, tmp_path)
    profile = (hooked / ".correx.toml").read_text()
    write(hooked, ".correx.toml", profile.replace('["/src/**"]', f'["/src/**", "/{gitlink}"]'))
    git(hooked, "commit", "-q", "--no-verify", "-am", "declare the submodule")
    new = _advance_submodule(hooked / gitlink)
    git(hooked, "update-index", "--cacheinfo", f"160000,{new},{gitlink}")
    assert commit(hooked).code == 0


def test_no_verify_skips_the_hook(hooked: Path) -> None:
    """The hook is a convenience: `git correx check` in CI is the gate it cannot skip."""
    stage_file(hooked, "README.md")
    assert commit(hooked, "--no-verify").code == 0
    assert assessments(hooked) == []


def test_first_commit_on_unborn_head_runs_the_hook(make_repo: RepoFactory,
                                                  correx: Correx) -> None:
    root = make_repo(commit=False)
    assert correx(root, "hooks", "install").code == 0
    git(root, "add", "-A")
    result = commit(root)
    assert result.code == 0, result
    assert git(root, "log", "--format=%s").strip() == "change"


def test_unborn_head_with_a_stage_fails_closed(make_repo: RepoFactory, correx: Correx) -> None:
    root = make_repo(commit=False)
    assert correx(root, "hooks", "install").code == 0
    git(root, "config", "correx.stage", "implement")
    git(root, "add", "-A")
    result = commit(root)
    assert result.code != 0, result
    assert "stage 'implement' is selected but HEAD has no .correx.toml" in result.stderr
    assert correx(root, "hook", "run", "pre-commit").code == 2


def test_unknown_stage_fails_closed(hooked: Path) -> None:
    git(hooked, "config", "correx.stage", "nope")
    stage_file(hooked, "src/app.py", "print(5)\n")
    result = commit(hooked)
    assert result.code != 0, result
    assert "no stage 'nope' (stages: docs, implement)" in result.stderr


def test_linked_worktree_runs_the_hook(hooked: Path, tmp_path: Path) -> None:
    worktree = tmp_path / "linked"
    git(hooked, "worktree", "add", "-q", "-b", "side", str(worktree))
    stage_file(worktree, "README.md")
    result = commit(worktree)
    assert result.code == 1, result
    assert "README.md: modified outside" in result.stderr


def test_merge_commit_is_checked_by_pre_merge_commit(hooked: Path) -> None:
    git(hooked, "checkout", "-q", "-b", "side")
    stage_file(hooked, "README.md")
    git(hooked, "commit", "-q", "--no-verify", "-m", "side change")
    git(hooked, "checkout", "-q", "main")
    stage_file(hooked, "src/app.py", "print(6)\n")
    assert commit(hooked).code == 0
    result = run_git(hooked, "merge", "--no-ff", "-m", "merge side", "side")
    assert result.code != 0, result
    assert "git correx: pre-merge-commit: blocked" in result.stderr
    assert assessments(hooked)[0]["origin"] == "pre-merge-commit"


def _add_submodule(root: Path, tmp_path: Path) -> str:
    """src/vendor/lib as a submodule with `ignore = all`, committed without the hook."""
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    git(lib, "commit", "-q", "--allow-empty", "-m", "one")
    git(root, "submodule", "add", "-q", str(lib), "src/vendor/lib")
    git(root, "config", "-f", ".gitmodules", "submodule.src/vendor/lib.ignore", "all")
    git(root, "add", ".gitmodules")
    git(root, "commit", "-q", "--no-verify", "-m", "submodule")
    return "src/vendor/lib"


def _advance_submodule(path: Path) -> str:
    git(path, "commit", "-q", "--allow-empty", "-m", "two")
    return git(path, "rev-parse", "HEAD").strip()


def test_a_stage_selected_in_the_commit_that_defines_it_names_the_profile_read(
        hooked: Path) -> None:
    profile = (hooked / ".correx.toml").read_text()
    stage_file(hooked, ".correx.toml", profile + '\n[stages.fresh]\nwrites = ["/notes/**"]\n')
    git(hooked, "config", "correx.stage", "fresh")
    result = commit(hooked)
    assert result.code != 0, result
    assert "no stage 'fresh' (stages: docs, implement) in .correx.toml at HEAD, the profile " \
        "this check reads; the change adds [stages.fresh] itself" in result.stderr
    assert "hint: commit the profile change first with no stage selected " \
        "(`git -c correx.stage= commit`)" in result.stderr
    assert "add [stages.fresh]" not in result.stderr
    assert run_git(hooked, "-c", "correx.stage=", "commit", "-q", "-m", "stage").code == 0
    stage_file(hooked, "notes/a.md")
    assert commit(hooked).code == 0


def test_a_stage_defined_nowhere_is_hinted_to_be_added(hooked: Path) -> None:
    git(hooked, "config", "correx.stage", "nope")
    stage_file(hooked, "src/app.py", "print(5)\n")
    result = commit(hooked)
    assert "hint: add [stages.nope] with its `writes` to .correx.toml and commit it" \
        in result.stderr, result
