"""A non-editable `pip install .` ships the hook templates, and the hook it installs runs.

The editable install used by the rest of the suite reads the templates from the checkout;
this proves the package-data path too. pip builds in isolation, so it may need the package
index (or its cache) for setuptools: without them the test is skipped, never faked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, git
from tests.hooks.conftest import FILES, stage_file

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pip install --no-deps --target T` of a copy of the sources (the checkout stays clean)."""
    work = tmp_path_factory.mktemp("packaging")
    source = work / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO_ROOT / name, source / name)
    shutil.copytree(REPO_ROOT / "gitcorrex", source / "gitcorrex",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO_ROOT / "man", source / "man")
    target = work / "target"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--disable-pip-version-check", "--target", str(target), str(source)],
                          capture_output=True, check=False, timeout=600)
    if proc.returncode != 0:
        pytest.skip(f"pip could not build the package here: {proc.stderr.decode()[-500:]}")
    return target


def test_installed_package_ships_the_templates(installed: Path) -> None:
    for name in ("pre-commit", "pre-merge-commit", "pre-push"):
        shipped = installed / "gitcorrex" / "hooks" / "scripts" / name
        assert shipped.read_bytes() == (REPO_ROOT / "hooks" / name).read_bytes()


def test_hook_from_the_installed_package_runs(installed: Path,
                                              make_repo: Callable[..., Path]) -> None:
    root = make_repo(files=FILES)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    subprocess.run([sys.executable, "-m", "gitcorrex", "hooks", "install"], cwd=root, env=env,
                   check=True, capture_output=True)
    git(root, "config", "correx.stage", "implement")
    stage_file(root, "README.md")
    proc = subprocess.run(["git", "commit", "-q", "-m", "outside"], cwd=root, env=env,
                          capture_output=True, check=False)
    assert proc.returncode != 0
    assert b"README.md: modified outside" in proc.stderr
    doctor = subprocess.run([sys.executable, "-m", "gitcorrex", "doctor"], cwd=root, env=env,
                            capture_output=True, check=False)
    assert f"from {installed}/gitcorrex/__init__.py".encode() in doctor.stdout
