"""`git correx assess write`: workspace escapes, git's own files and the manifest in force."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from gitcorrex.manifest.assess import AssessOutcome
from gitcorrex.model.assessment import Rule, Verdict
from tests.conftest import git, write
from tests.manifest.conftest import Correx, assessment, commit_all, outside_dir, recorded


def outcome_of(correx: Correx, cwd: Path, *args: str, code: int) -> AssessOutcome:
    result = correx(cwd, "assess", *args, "--json")
    assert result.code == code, result
    return AssessOutcome.model_validate_json(result.stdout)


def test_allowed_write_exits_0_prints_allow_and_records_nothing(project: Path,
                                                                 correx: Correx) -> None:
    result = correx(project, "assess", "write", "src/new.py", "--stage", "implement")
    assert result.code == 0, result
    assert result.stdout == "ALLOW src/new.py\n"
    assert git(project, "for-each-ref", "refs/notes/correx") == ""


def test_write_outside_the_manifest_is_blocked_with_rule_and_fix(project: Path,
                                                                 correx: Correx) -> None:
    result = correx(project, "assess", "write", "docs/guide.md", "--stage", "implement")
    assert result.code == 1, result
    line = result.stdout.strip()
    assert line.startswith("BLOCK PATH_OUTSIDE_MANIFEST docs/guide.md: ")
    assert "stage 'implement' [/src/**, /tests/**]" in line
    assert "fix: write only paths the manifest allows" in line


def test_a_path_differing_from_the_manifest_only_in_case_is_blocked(project: Path,
                                                                     correx: Correx) -> None:
    """git paths are case-sensitive: `SRC/a.py` is not under `/src/**`."""
    result = correx(project, "assess", "write", "SRC/a.py", "--stage", "implement")
    assert result.code == 1, result
    assert result.stdout.startswith("BLOCK PATH_OUTSIDE_MANIFEST SRC/a.py: ")


def test_each_path_gets_its_own_verdict_and_any_block_fails(project: Path,
                                                           correx: Correx) -> None:
    outcome = outcome_of(correx, project, "write", "src/a.py", "docs/b.md", "tests/c.py",
                         "--stage", "implement", code=1)
    assert [(p.path, p.verdict) for p in outcome.paths] == [
        ("src/a.py", Verdict.ALLOW), ("docs/b.md", Verdict.BLOCK), ("tests/c.py", Verdict.ALLOW)]
    assert outcome.verdict is Verdict.BLOCK
    assert (outcome.stage, outcome.manifest) == ("implement", ["/src/**", "/tests/**"])


def test_no_stage_selected_means_unrestricted(project: Path, correx: Correx) -> None:
    outcome = outcome_of(correx, project, "write", "docs/guide.md", code=0)
    assert (outcome.stage, outcome.manifest, outcome.manifest_source) == (None, [],
                                                                          "no manifest")


def test_stage_comes_from_git_config_when_not_given(project: Path, correx: Correx) -> None:
    git(project, "config", "correx.stage", "implement")
    outcome = outcome_of(correx, project, "write", "docs/guide.md", code=1)
    assert outcome.stage == "implement"
    assert outcome.paths[0].rule is Rule.PATH_OUTSIDE_MANIFEST


def test_the_manifest_is_read_from_head_not_the_work_tree(project: Path,
                                                          correx: Correx) -> None:
    write(project, ".correx.toml", 'version = 1\n[stages.implement]\nwrites = ["**"]\n')
    outcome = outcome_of(correx, project, "write", "docs/guide.md", "--stage", "implement",
                         code=1)
    assert outcome.manifest == ["/src/**", "/tests/**"]


def test_writing_the_profile_itself_is_out_of_scope_unless_granted(project: Path,
                                                                   correx: Correx) -> None:
    outcome = outcome_of(correx, project, "write", ".correx.toml", "--stage", "implement",
                         code=1)
    assert outcome.paths[0].rule is Rule.PATH_OUTSIDE_MANIFEST


def test_unknown_stage_exits_2(project: Path, correx: Correx) -> None:
    result = correx(project, "assess", "write", "src/a.py", "--stage", "nope")
    assert result.code == 2, result
    assert "no stage 'nope'" in result.stderr


def test_stage_without_a_committed_profile_fails_closed(make_repo: Callable[..., Path],
                                                       correx: Correx) -> None:
    root = make_repo()
    write(root, ".correx.toml", 'version = 1\n[stages.implement]\nwrites = ["/src/**"]\n')
    result = correx(root, "assess", "write", "src/a.py", "--stage", "implement")
    assert result.code == 2, result
    assert "HEAD has no .correx.toml" in result.stderr


def test_paths_are_relative_to_the_current_directory(project: Path, correx: Correx) -> None:
    outcome = outcome_of(correx, project / "src", "write", "new.py", "../docs/x.md",
                         "--stage", "implement", code=1)
    assert [(p.given, p.path, p.rule) for p in outcome.paths] == [
        ("new.py", "src/new.py", Rule.ALLOW),
        ("../docs/x.md", "docs/x.md", Rule.PATH_OUTSIDE_MANIFEST)]


def test_absolute_path_inside_the_work_tree_is_judged_by_its_repo_path(
        project: Path, correx: Correx) -> None:
    outcome = outcome_of(correx, project, "write", str(project / "src" / "x.py"),
                         "--stage", "implement", code=0)
    assert outcome.paths[0].path == "src/x.py"


def test_absolute_path_outside_the_work_tree_is_an_escape(project: Path,
                                                          correx: Correx) -> None:
    target = outside_dir(project) / "secret.txt"
    outcome = outcome_of(correx, project, "write", str(target), code=1)
    path = outcome.paths[0]
    assert path.rule is Rule.PATH_OUTSIDE_WORKSPACE
    assert str(target.resolve()) in path.detail


def test_dotdot_escape_is_blocked_even_without_a_stage(project: Path, correx: Correx) -> None:
    outcome = outcome_of(correx, project / "src", "write", "../../elsewhere/x", code=1)
    assert outcome.paths[0].rule is Rule.PATH_OUTSIDE_WORKSPACE


def test_dotdot_that_stays_inside_is_canonicalised(project: Path, correx: Correx) -> None:
    outcome = outcome_of(correx, project, "write", "docs/../src/./a.py", "--stage",
                         "implement", code=0)
    assert outcome.paths[0].path == "src/a.py"


def test_symlinked_directory_pointing_outside_is_an_escape(project: Path,
                                                           correx: Correx) -> None:
    outside_dir(project)
    os.symlink("../../elsewhere", project / "src" / "link")
    outcome = outcome_of(correx, project, "write", "src/link/secret.txt", "--stage",
                         "implement", code=1)
    assert outcome.paths[0].rule is Rule.PATH_OUTSIDE_WORKSPACE
    assert "elsewhere/secret.txt" in outcome.paths[0].detail


def test_symlinked_directory_with_an_absolute_target_outside_is_an_escape(
        project: Path, correx: Correx) -> None:
    os.symlink(str(outside_dir(project)), project / "src" / "abs")
    outcome = outcome_of(correx, project, "write", "src/abs/new.txt", code=1)
    assert outcome.paths[0].rule is Rule.PATH_OUTSIDE_WORKSPACE


def test_symlinked_directory_inside_is_judged_by_where_it_leads(project: Path,
                                                                correx: Correx) -> None:
    os.symlink("docs", project / "shortcut")
    outcome = outcome_of(correx, project, "write", "shortcut/guide.md", "--stage",
                         "implement", code=1)
    assert (outcome.paths[0].path, outcome.paths[0].rule) == ("docs/guide.md",
                                                              Rule.PATH_OUTSIDE_MANIFEST)


def test_writing_a_symlinks_own_path_is_judged_by_that_path(project: Path,
                                                            correx: Correx) -> None:
    os.symlink("../../elsewhere/secret.txt", project / "src" / "link")
    os.symlink("../src/app.py", project / "docs" / "to-src")
    outcome = outcome_of(correx, project, "write", "src/link", "docs/to-src", "--stage",
                         "implement", code=1)
    assert [(p.path, p.rule) for p in outcome.paths] == [
        ("src/link", Rule.ALLOW), ("docs/to-src", Rule.PATH_OUTSIDE_MANIFEST)]


def test_dotdot_after_a_symlink_is_refused_as_ambiguous(project: Path, correx: Correx) -> None:
    os.symlink("../docs", project / "src" / "up")
    outcome = outcome_of(correx, project, "write", "src/up/../a.py", "--stage", "implement",
                         code=1)
    assert outcome.paths[0].rule is Rule.PATH_NOT_CANONICAL
    assert "after a symlink" in outcome.paths[0].detail


def test_symlink_loop_is_blocked(project: Path, correx: Correx) -> None:
    os.symlink("loop", project / "loop")
    outcome = outcome_of(correx, project, "write", "loop/x", code=1)
    assert outcome.paths[0].rule is Rule.PATH_OUTSIDE_WORKSPACE
    assert "too many levels of symbolic links" in outcome.paths[0].detail


def test_paths_inside_dot_git_are_never_writable(project: Path, correx: Correx) -> None:
    git(project, "config", "correx.stage", "implement")
    outcome = outcome_of(correx, project / "src", "write", "../.git/config",
                         str(project / ".git" / "hooks" / "pre-commit"), "../.GIT/x",
                         "../src/.git/x", code=1)
    assert [p.rule for p in outcome.paths] == [Rule.PATH_NOT_CANONICAL] * 4
    assert outcome.paths[0].detail == "inside the git directory"
    assert outcome.paths[3].detail == "'.git' path component"


def test_git_dir_elsewhere_inside_the_work_tree_is_protected(make_repo: Callable[..., Path],
                                                             correx: Correx) -> None:
    root = make_repo()
    git(root, "init", "-q", "--separate-git-dir", str(root / "meta"))
    outcome = outcome_of(correx, root, "write", "meta/config", code=1)
    assert (outcome.paths[0].rule, outcome.paths[0].detail) == (Rule.PATH_NOT_CANONICAL,
                                                                "inside the git directory")


def test_work_tree_top_level_is_not_a_file_to_write(project: Path, correx: Correx) -> None:
    outcome = outcome_of(correx, project, "write", ".", code=1)
    assert outcome.paths[0].rule is Rule.PATH_NOT_CANONICAL


def test_non_utf8_and_newline_names_are_judged_and_printed_escaped(project: Path,
                                                                   correx: Correx) -> None:
    odd = os.fsdecode(b"src/caf\xe9.py")
    result = correx(project, "assess", "write", odd, "docs/a\nb.md", "--stage", "implement")
    assert result.code == 1, result
    assert result.stdout.splitlines()[0] == "ALLOW src/caf\\xe9.py"
    assert result.stdout.splitlines()[1].startswith("BLOCK PATH_OUTSIDE_MANIFEST docs/a\\nb.md")
    (event,) = recorded(project)
    assert [p.path for p in assessment(event).paths] == ["src/caf\\xe9.py", "docs/a\\nb.md"]


def test_json_output_parses_back_through_the_model(project: Path, correx: Correx) -> None:
    result = correx(project, "assess", "write", "docs/x", "--stage", "implement", "--json")
    assert result.code == 1, result
    document = json.loads(result.stdout)
    outcome = AssessOutcome.model_validate(document)
    assert outcome.event is not None and outcome.paths[0].fix


def test_missing_action_or_paths_is_a_usage_error(project: Path, correx: Correx) -> None:
    assert correx(project, "assess", "write").code == 2
    assert correx(project, "assess").code == 2
    assert correx(project, "assess", "delete", "x").code == 2


def test_outside_a_repository_exits_2(tmp_path: Path, correx: Correx) -> None:
    result = correx(tmp_path, "assess", "write", "x")
    assert result.code == 2, result
    assert "not inside a git repository" in result.stderr


def test_committed_change_to_the_manifest_widens_it(project: Path, correx: Correx) -> None:
    write(project, ".correx.toml", 'version = 1\n[stages.implement]\nwrites = ["/docs/**"]\n')
    commit_all(project, "widen")
    outcome = outcome_of(correx, project, "write", "docs/guide.md", "--stage", "implement",
                         code=0)
    assert outcome.manifest == ["/docs/**"]
