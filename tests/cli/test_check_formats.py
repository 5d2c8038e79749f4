"""`git correx check --format sarif|github`: a SARIF 2.1.0 log valid against the OASIS schema
checked in under tests/cli/fixtures/ (one result per violating path and rule, per missing required
pass, with file locations; rules with ids and help), and GitHub workflow annotations within
GitHub's 10 per kind per step, the rest summarised in one line. Real repositories and real
`git correx` processes; `--json` stays as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import CliResult, git, write
from tests.manifest.range_repos import commit, gate_repo

__all__ = ["gate_repo"]  # the fixture, registered here
SCHEMA = json.loads((Path(__file__).parent / "fixtures" / "sarif-schema-2.1.0.json").read_text())


def outside_commits(root: Path, count: int) -> None:
    """`count` paths outside the manifest; the first path is touched twice."""
    commit(root, "one", {"docs/a b%c.md": "1\n", "src/ok.py": "ok\n"})
    commit(root, "two", {"docs/a b%c.md": "2\n"})
    for index in range(1, count):
        commit(root, f"more {index}", {f"docs/n{index},x:y.md": "x\n"})


def check(root: Path, correx: Callable[..., CliResult], *args: str) -> CliResult:
    return correx(root, "check", "main..HEAD", "--stage", "impl", *args)


def test_sarif_is_valid_and_has_one_result_per_path_and_rule(
        gate_repo: Path, correx: Callable[..., CliResult]) -> None:
    outside_commits(gate_repo, 2)
    result = check(gate_repo, correx, "--format", "sarif", "--require-pass")
    assert result.code == 1, result
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert all(rule["id"] and rule["help"]["text"] for rule in rules)
    found = [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"]["region"]["startLine"])
             for r in run["results"]]
    assert found == [("PATH_OUTSIDE_MANIFEST", "docs/a%20b%25c.md", 1),
                     ("PATH_OUTSIDE_MANIFEST", "docs/n1%2Cx%3Ay.md", 1),
                     ("REQUIRED_PASS_MISSING", ".correx.toml", 1)]
    first = run["results"][0]
    assert [rules[first["ruleIndex"]]["id"]] == [first["ruleId"]]
    assert "(in commit " in first["message"]["text"] and ", commit " in first["message"]["text"]
    assert "the net diff" in first["message"]["text"]
    assert "a recorded pass is required" in run["results"][2]["message"]["text"]


def test_sarif_of_a_clean_range_has_no_results(
        gate_repo: Path, correx: Callable[..., CliResult]) -> None:
    commit(gate_repo, "fine", {"src/new.py": "x\n"})
    result = check(gate_repo, correx, "--format", "sarif")
    assert result.code == 0, result
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["runs"][0]["results"] == []


def test_github_annotations_are_escaped_workflow_commands(
        gate_repo: Path, correx: Callable[..., CliResult]) -> None:
    outside_commits(gate_repo, 2)
    result = check(gate_repo, correx, "--format", "github")
    assert result.code == 1, result
    lines = result.stdout.splitlines()
    title = "title=git correx%3A A commit changes a path outside the stage's write manifest."
    one, two = (git(gate_repo, "rev-parse", rev).strip()[:12] for rev in ("HEAD~2", "HEAD~1"))
    assert lines[0] == (f"::error file=docs/a b%25c.md,line=1,{title}::PATH_OUTSIDE_MANIFEST "
                        "docs/a b%25c.md: added outside the manifest of stage 'impl' "
                        "[/src/**]: declare the path in the manifest, or revert the change "
                        f"(in commit {one}, commit {two}, the net diff)")
    assert lines[1].startswith(f"::error file=docs/n1%2Cx%3Ay.md,line=1,{title}::")
    assert [line for line in lines if line.startswith("::")] == lines[:2]
    assert lines[-1] == "3 violations in 3 commits, 2 in the net diff"  # the text follows


@pytest.mark.parametrize(("paths", "annotated", "summary"), [(10, 10, None), (12, 9, 3)])
def test_github_annotations_stay_within_ten_per_step(
        gate_repo: Path, correx: Callable[..., CliResult], paths: int, annotated: int,
        summary: int | None) -> None:
    outside_commits(gate_repo, paths)
    lines = check(gate_repo, correx, "--format", "github").stdout.splitlines()
    errors = [line for line in lines if line.startswith("::error")]
    assert len(errors) == annotated + (summary is not None) <= 10
    assert all(line.startswith("::error file=") for line in errors[:annotated])
    if summary is not None:
        assert errors[-1].startswith("::error title=git correx%3A more findings::"
                                     f"{summary} more finding(s) of git correx check")


def test_json_stays_and_cannot_be_asked_with_another_format(
        gate_repo: Path, correx: Callable[..., CliResult]) -> None:
    outside_commits(gate_repo, 1)
    assert json.loads(check(gate_repo, correx, "--json").stdout)["ok"] is False
    assert json.loads(check(gate_repo, correx, "--format", "json").stdout)["ok"] is False
    refused = check(gate_repo, correx, "--json", "--format", "sarif")
    assert refused.code == 2 and "--json and --format sarif" in refused.stderr


def test_a_hostile_path_cannot_forge_a_workflow_command(
        gate_repo: Path, correx: Callable[..., CliResult]) -> None:
    root = gate_repo
    write(root, "docs/x\n::error file=a.py::forged%0A.md", "x\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "hostile\n::warning::forged subject")
    lines = check(root, correx, "--format", "github").stdout.splitlines()
    commands = [line for line in lines if line.startswith("::")]
    assert len(commands) == 1 and commands[0].startswith("::error file=docs/x\\n%3A%3Aerror ")
    assert "%250A" in commands[0]
