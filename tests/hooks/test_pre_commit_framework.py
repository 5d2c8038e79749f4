"""`.pre-commit-hooks.yaml`: the `correx-manifest` hook, as the pre-commit framework runs it
(`pre-commit try-repo` on this checkout: a real environment, a real install, a real run).

The framework builds its own environment and pip-installs this package there; the test
lets pip skip the dependencies (PIP_NO_DEPS) and finds them on PYTHONPATH, so no package
index is needed for them. Without pre-commit, or where pip cannot build the package, the
test is skipped, never faked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, git
from tests.hooks.conftest import FILES, stage_file

pytestmark = pytest.mark.slow
PRE_COMMIT = shutil.which("pre-commit") or str(Path(sysconfig.get_path("scripts"))
                                                / "pre-commit")


@pytest.fixture
def framework_env(tmp_path: Path) -> dict[str, str]:
    if not os.access(PRE_COMMIT, os.X_OK):
        pytest.skip("pre-commit is not installed (pip install -e '.[test]' brings it)")
    home = tmp_path / "pre-commit-home"
    return {"PRE_COMMIT_HOME": str(home), "PIP_NO_DEPS": "1",
            "PYTHONPATH": sysconfig.get_paths()["purelib"]}


def try_repo(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([PRE_COMMIT, "try-repo", str(REPO_ROOT), "correx-manifest"],
                          cwd=root, env={**os.environ, **env}, capture_output=True,
                          text=True, check=False, timeout=600)
    if "An unexpected error has occurred" in proc.stdout + proc.stderr:
        pytest.skip(f"pre-commit could not install the package here: {proc.stdout[-500:]}")
    return proc


@pytest.fixture
def framework_repo(make_repo: Callable[..., Path]) -> Path:
    root = make_repo(files=FILES)
    git(root, "config", "correx.stage", "implement")
    return root


def test_manifest_definition_is_valid() -> None:
    if not os.access(PRE_COMMIT, os.X_OK):
        pytest.skip("pre-commit is not installed")
    proc = subprocess.run([PRE_COMMIT, "validate-manifest", ".pre-commit-hooks.yaml"],
                          cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (REPO_ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "- id: correx-manifest" in text and "pass_filenames: false" in text


def test_framework_hook_blocks_a_write_outside_the_manifest(
        framework_repo: Path, framework_env: dict[str, str]) -> None:
    stage_file(framework_repo, "src/app.py")  # inside: allowed; README.md outside: blocked
    stage_file(framework_repo, "README.md")
    proc = try_repo(framework_repo, framework_env)  # one install: try-repo's store is fresh
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "blocked: 1 path(s) outside" in proc.stdout
    assert "PATH_OUTSIDE_MANIFEST README.md: modified outside the manifest of stage " \
           "'implement'" in proc.stdout
