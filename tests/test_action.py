"""The composite GitHub Action (`action.yml`): its shell steps, run as written in a CI clone
whose `origin` is a local bare repository. `install` (pipx) is replaced by a `git-correx`
on PATH that runs this checkout, as in tests/test_ci_recipe.py."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import REPO_ROOT, git, write
from tests.test_ci_recipe import ci_clone, run_blocks, run_step, shim

__all__ = ["ci_clone"]
ACTION = REPO_ROOT / "action.yml"


def action_env(tmp_path: Path, base: str, **inputs: str) -> dict[str, str]:
    """The environment GitHub gives the steps: the inputs as each step's `env:` maps them."""
    if not (tmp_path / "bin").exists():
        shim(tmp_path / "bin")
    return {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "BASE": base,
            "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
            "HEAD_REV": "HEAD", "STAGE": "", "REQUIRE_PASS": "false", "SYNC": "false",
            "SARIF": "false", "FORK": "false", "SARIF_FILE": str(tmp_path / "correx.sarif"),
            "HEAD_REPO": "", "REPO": "team/project", **inputs}


def test_action_is_composite_with_the_documented_steps() -> None:
    text = ACTION.read_text()
    assert "using: composite" in text
    assert list(run_blocks(text)) == ["install", "context", "fetch-ledger", "check", "sarif",
                                      "report", "sync"]
    assert 'pipx install --force "$CORREX_PACKAGE"' in run_blocks(text)["install"]
    for name in ("base", "head", "stage", "require-pass", "sync", "sarif", "package"):
        assert f"  {name}:\n" in text


def test_action_checks_reports_and_keeps_the_ledger_local(
        ci_clone: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, ci, base = ci_clone
    steps = run_blocks(ACTION.read_text())
    env = action_env(tmp_path, base, STAGE="implement")
    for step in ("fetch-ledger", "check", "report", "sync"):
        done = run_step(steps[step], ci, env)
        assert done.returncode == 0, f"{step}: {done.stdout}{done.stderr}"
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith(f"## git correx report: {base}..HEAD")
    assert "sync is off" in run_step(steps["sync"], ci, env).stdout
    assert git(tmp_path / "origin.git", "for-each-ref", "refs/notes") == ""


def test_action_check_fails_a_write_outside_the_manifest(
        ci_clone: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, ci, base = ci_clone
    write(ci, "docs/outside.md", "no\n")
    git(ci, "add", "-A")
    git(ci, "commit", "-q", "-m", "outside")
    steps = run_blocks(ACTION.read_text())
    env = action_env(tmp_path, base, STAGE="implement")
    failed = run_step(steps["check"], ci, env)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "PATH_OUTSIDE_MANIFEST docs/outside.md" in failed.stdout
    assert run_step(steps["report"], ci, env).returncode == 0
    assert "PATH_OUTSIDE_MANIFEST" in (tmp_path / "summary.md").read_text()


def test_action_require_pass_fails_an_unverified_head(
        ci_clone: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, ci, base = ci_clone
    steps = run_blocks(ACTION.read_text())
    env = action_env(tmp_path, base, REQUIRE_PASS="true")
    failed = run_step(steps["check"], ci, env)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "a recorded pass is required" in failed.stdout


def test_action_sync_pushes_what_the_job_recorded(
        ci_clone: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, ci, base = ci_clone
    steps = run_blocks(ACTION.read_text())
    env = action_env(tmp_path, base, STAGE="implement", SYNC="true")
    assert run_step(steps["fetch-ledger"], ci, env).returncode == 0
    assert run_step("git correx verify --quiet\n", ci, env).returncode == 0
    done = run_step(steps["sync"], ci, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "refs/notes/" in git(tmp_path / "origin.git", "for-each-ref", "refs/notes")


def test_action_writes_annotations_and_a_valid_sarif_itself(
        ci_clone: tuple[Path, Path, str], tmp_path: Path) -> None:
    import json

    import jsonschema

    from tests.cli.test_check_formats import SCHEMA

    _, ci, base = ci_clone
    write(ci, "docs/outside.md", "no\n")
    git(ci, "add", "-A")
    git(ci, "commit", "-q", "-m", "outside")
    steps = run_blocks(ACTION.read_text())
    env = action_env(tmp_path, base, STAGE="implement", SARIF="true")
    checked = run_step(steps["check"], ci, env)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert checked.stdout.startswith("::error file=docs/outside.md,line=1,title=git correx%3A")
    done = run_step(steps["sarif"], ci, env)
    assert done.returncode == 0, done.stdout + done.stderr  # findings are the check's to fail
    log = json.loads((tmp_path / "correx.sarif").read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["PATH_OUTSIDE_MANIFEST"]
    assert f"file={tmp_path / 'correx.sarif'}\n" in (tmp_path / "output.txt").read_text()


def test_action_uploads_sarif_only_when_asked_and_not_from_a_fork() -> None:
    text = ACTION.read_text()
    upload = text.split("    - id: upload-sarif\n")[1].split("\n\n")[0]
    assert "uses: github/codeql-action/upload-sarif@v3" in upload
    assert "inputs.sarif == 'true'" in upload and "steps.context.outputs.fork != 'true'" in upload


def test_action_knows_a_fork_and_neither_pushes_nor_hides_it(
        ci_clone: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, ci, base = ci_clone
    steps = run_blocks(ACTION.read_text())
    env = action_env(tmp_path, base, HEAD_REPO="someone/project")
    assert "from the fork someone/project" in run_step(steps["context"], ci, env).stdout
    assert (tmp_path / "output.txt").read_text() == "fork=true\n"
    same = action_env(tmp_path, base, HEAD_REPO="team/project")
    (tmp_path / "output.txt").unlink()
    assert run_step(steps["context"], ci, same).returncode == 0
    assert (tmp_path / "output.txt").read_text() == "fork=false\n"
    fork = action_env(tmp_path, base, FORK="true", SYNC="true", SARIF="true")
    assert run_step("git correx verify --quiet\n", ci, fork).returncode == 0
    pushed = run_step(steps["sync"], ci, fork)
    assert pushed.returncode == 0 and "from a fork: no write token" in pushed.stdout
    assert git(tmp_path / "origin.git", "for-each-ref", "refs/notes") == ""
    assert run_step(steps["report"], ci, fork).returncode == 0
    assert "Pull request from a fork: no write token, so the SARIF upload and the ledger " \
        "push were skipped." in (tmp_path / "summary.md").read_text()
