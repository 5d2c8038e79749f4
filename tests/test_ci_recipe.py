"""The GitHub Actions recipe's shell steps, run as written in a temporary clone whose
`origin` is a local bare repository. `install` (pip from the network) is replaced by a
`git-correx` on PATH that runs this checkout; `uses:` steps are GitHub's own."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import IDENTITY_ENV, REPO_ROOT, CliResult, git, write

WORKFLOW = REPO_ROOT / "examples" / "github-actions.yml"
PROFILE = ('version = 1\n[commands]\nok = "python3 -c pass"\n[expectations]\nok = ["ok"]\n'
           '[defaults]\nexpectation = "ok"\n[stages.implement]\nwrites = ["/src/**"]\n')


def run_blocks(text: str) -> dict[str, str]:
    """step id → its `run: |` block, dedented (the recipe uses only block scalars)."""
    steps: dict[str, str] = {}
    current = None
    lines = text.splitlines()
    for index, line in enumerate(lines):
        found = re.match(r"\s*- id: (\S+)$", line)
        if found:
            current = found.group(1)
        if current and re.match(r"\s*run: \|$", line):
            indent = len(line) - len(line.lstrip()) + 2
            body = []
            for follow in lines[index + 1:]:
                if follow.strip() and len(follow) - len(follow.lstrip()) < indent:
                    break
                body.append(follow[indent:])
            steps[current] = "\n".join(body).rstrip() + "\n"
    return steps


def shim(bin_dir: Path) -> None:
    bin_dir.mkdir()
    script = bin_dir / "git-correx"
    script.write_text(f'#!/bin/sh\nPYTHONPATH={REPO_ROOT} exec {sys.executable} '
                      '-m gitcorrex "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


def run_step(body: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-eo", "pipefail", "-c", body], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)


@pytest.fixture
def ci_clone(make_repo: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path, str]:
    """(developer repo, CI clone, BASE): origin holds main and a topic branch."""
    dev = make_repo("dev", files={".correx.toml": PROFILE, ".gitignore": "__pycache__/\n"})
    base = git(dev, "rev-parse", "HEAD").strip()
    write(dev, "src/app.py", "print('ok')\n")
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "app")
    git(tmp_path, "init", "-q", "--bare", "origin.git")
    git(dev, "remote", "add", "origin", str(tmp_path / "origin.git"))
    git(dev, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(tmp_path, "clone", "-q", str(tmp_path / "origin.git"), "ci")
    return dev, tmp_path / "ci", base


def test_recipe_steps_gate_report_and_publish(
    ci_clone: tuple[Path, Path, str], tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    dev, ci, base = ci_clone
    assert correx(dev, "verify", "--quiet").code == 0
    assert correx(dev, "sync").code == 0
    steps = run_blocks(WORKFLOW.read_text())
    assert list(steps) == ["install", "fetch-ledger", "check", "verify", "report",
                           "publish-ledger"]
    shim(tmp_path / "bin")
    summary = tmp_path / "summary.md"
    runner = {k: v for k, v in os.environ.items() if k not in IDENTITY_ENV}  # as on a runner
    env = {**runner, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "BASE": base, "GITHUB_STEP_SUMMARY": str(summary), "PUBLISH_LEDGER": "true"}
    for step in ["fetch-ledger", "check", "verify", "report", "publish-ledger"]:
        done = run_step(steps[step], ci, env)
        assert done.returncode == 0, f"{step}: {done.stdout}{done.stderr}"
    assert "✓ pass" in summary.read_text()
    origin_log = git(tmp_path / "origin.git", "log", "--format=%an", "refs/notes/correx")
    assert "correx CI" in origin_log  # the CI's reuse observation was published
    reused = correx(dev, "sync")
    assert reused.code == 0 and reused.stdout.startswith("pulled"), reused


def test_recipe_check_step_fails_a_write_outside_the_manifest(
    ci_clone: tuple[Path, Path, str], tmp_path: Path
) -> None:
    _, ci, base = ci_clone
    git(ci, "config", "correx.stage", "implement")
    write(ci, "docs/outside.md", "no\n")
    git(ci, "add", "-A")
    git(ci, "commit", "-q", "-m", "outside")
    steps = run_blocks(WORKFLOW.read_text())
    shim(tmp_path / "bin")
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "BASE": base, "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md"),
           "PUBLISH_LEDGER": "false"}
    assert run_step(steps["fetch-ledger"], ci, env).returncode == 0
    failed = run_step(steps["check"], ci, env)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "docs/outside.md" in failed.stdout
    assert run_step(steps["report"], ci, env).returncode == 0
    assert "PATH_OUTSIDE_MANIFEST" in (tmp_path / "s.md").read_text()
    published = run_step(steps["publish-ledger"], ci, env)
    assert "not pushed" in published.stdout
