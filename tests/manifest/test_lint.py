"""`git correx manifest lint`: every pattern of every stage, errors exit 1, warnings exit 0."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from gitcorrex.manifest.lint import LintReport
from tests.conftest import CliResult, write

Correx = Callable[..., CliResult]


def project(make_repo: Callable[..., Path], *stages: tuple[str, str],
            commit: bool = True) -> Path:
    """A repository with src/app.py and a profile holding `stages` (name, writes TOML)."""
    text = "version = 1\n" + "".join(f"[stages.{name}]\nwrites = {writes}\n"
                                     for name, writes in stages)
    return make_repo(files={"src/app.py": "x\n", "docs/guide.md": "g\n", ".correx.toml": text},
                     commit=commit)


def lint(correx: Correx, root: Path, *args: str, code: int) -> LintReport:
    result = correx(root, "manifest", "lint", "--json", *args)
    assert result.code == code, result
    return LintReport.model_validate(json.loads(result.stdout))


def codes(report: LintReport) -> list[tuple[str, int | None, str, str]]:
    return [(f.stage or "", f.index, f.severity, f.code) for f in report.findings]


def test_clean_manifests_exit_0(make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, ("implement", '["/src/**", "!/src/gen/**", "/docs/guide.md"]'),
                   ("docs", '["/docs/**"]'))
    result = correx(root, "manifest", "lint")
    assert result.code == 0, result
    assert result.stdout == "ok: 2 stage(s), 4 pattern(s), nothing to report\n"


def test_unanchored_patterns_warn_and_exit_0(make_repo: Callable[..., Path],
                                             correx: Correx) -> None:
    root = project(make_repo, ("implement", '["*.py", "src/", "**/*.md", "src/*.py"]'))
    report = lint(correx, root, code=0)
    assert codes(report) == [("implement", 0, "warning", "unanchored"),
                             ("implement", 1, "warning", "unanchored")]
    assert '"/*.py"' in report.findings[0].hint


def test_dotdot_absolute_paths_and_backslashes_are_errors(make_repo: Callable[..., Path],
                                                          correx: Correx) -> None:
    root = project(make_repo, ("implement", '["/src/../docs/**", "C:/src/**", "~/src", '
                               '"src\\\\app.py", "/src/./a", "//src", ".git/hooks/*", "#x"]'))
    report = lint(correx, root, code=1)
    assert [(f.index, f.code) for f in report.findings] == [
        (0, "not_canonical"), (1, "absolute_path"), (2, "absolute_path"), (3, "backslash"),
        (4, "not_canonical"), (5, "not_canonical"), (6, "git_component"),
        (7, "not_a_pattern")]
    assert all(f.severity == "error" and f.hint for f in report.findings)


def test_the_work_trees_own_absolute_path_is_an_error_with_the_fix(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, ("implement", '["/src/**"]'))
    top = str(root.resolve())
    write(root, ".correx.toml", f'version = 1\n[stages.implement]\nwrites = ["{top}/src/**"]\n')
    report = lint(correx, root, code=1)
    assert codes(report) == [("implement", 0, "error", "absolute_path")]
    assert report.findings[0].hint == 'write it from the repository root, e.g. "/src/**"'


def test_wrong_types_are_reported_not_crashed_on(make_repo: Callable[..., Path],
                                                 correx: Correx) -> None:
    root = project(make_repo, ("a", '"/src/**"'), ("b", '["/src/**", 3, true]'))
    report = lint(correx, root, code=1)
    assert codes(report) == [("a", None, "error", "not_a_list"), ("b", 1, "error", "not_a_string"),
                             ("b", 2, "error", "not_a_string")]


def test_pattern_matching_nothing_in_head_warns(make_repo: Callable[..., Path],
                                                correx: Correx) -> None:
    root = project(make_repo, ("implement", '["/src/**", "/srcc/**", "!/nothing/**"]'))
    report = lint(correx, root, code=0)
    assert codes(report) == [("implement", 1, "warning", "matches_nothing")]


def test_unborn_head_skips_the_matches_nothing_check(make_repo: Callable[..., Path],
                                                     correx: Correx) -> None:
    root = project(make_repo, ("implement", '["/srcc/**"]'), commit=False)
    assert lint(correx, root, code=0).findings == []


def test_one_stage_only(make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, ("good", '["/src/**"]'), ("bad", '["*.py"]'))
    report = lint(correx, root, "--stage", "good", code=0)
    assert (report.stages, report.findings) == (["good"], [])


def test_unknown_stage_exits_2(make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, ("good", '["/src/**"]'))
    result = correx(root, "manifest", "lint", "--stage", "nope")
    assert result.code == 2, result
    assert "no stage 'nope' (stages: good)" in result.stderr


def test_other_profile_errors_are_reported_as_the_loader_sees_them(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, ("implement", '["/src/**"]'))
    write(root, ".correx.toml", 'version = 1\n[stages.implement]\nwrites = ["/src/**"]\n'
                                'max_attempt = 3\n')
    report = lint(correx, root, code=1)
    assert codes(report) == [("", None, "error", "profile_invalid")]
    assert "max_attempt" in report.findings[0].message


def test_text_output_names_key_path_and_hint(make_repo: Callable[..., Path],
                                             correx: Correx) -> None:
    root = project(make_repo, ("implement", '["../x"]'))
    result = correx(root, "manifest", "lint")
    assert result.code == 1, result
    lines = result.stdout.splitlines()
    assert lines[0].startswith('error: stages.implement.writes[0]: "../x" has an empty')
    assert lines[1].startswith("  hint: ")
    assert lines[-1] == "1 error(s), 0 warning(s) in 1 stage(s), 1 pattern(s)"


def test_missing_or_unparseable_profile_exits_2(make_repo: Callable[..., Path],
                                                correx: Correx) -> None:
    root = make_repo()
    result = correx(root, "manifest", "lint")
    assert result.code == 2, result
    assert "git correx init" in result.stderr
    write(root, ".correx.toml", "version = [\n")
    result = correx(root, "manifest", "lint")
    assert result.code == 2, result
    assert "invalid TOML" in result.stderr
