"""Installed apart from the project, as README.md says: git correx in a venv of its own, the
user's project venv first on PATH. The profile's commands run with the user's interpreter,
and `git correx --help` (git turns it into `man git-correx`) finds the installed man page.

The tool's venv is built without a package index: pip installs a copy of this checkout
with --no-deps --no-build-isolation, and a .pth file lends it the dependencies of the
interpreter running these tests. Where pip cannot build here, the test is skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, git

pytestmark = pytest.mark.slow
PROFILE = ('version = 1\n[commands]\nwhich = "python -c \\"import sys; '
           'print(\'interpreter:\', sys.prefix)\\""\n[expectations]\nwhich = ["which"]\n'
           '[defaults]\nexpectation = "which"\n')


@pytest.fixture(scope="module")
def tool_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding git correx as pip installs it from a checkout (not editable)."""
    work = tmp_path_factory.mktemp("install")
    source = work / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO_ROOT / name, source / name)
    for name in ("gitcorrex", "man"):
        shutil.copytree(REPO_ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    venv = work / "tool"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "lent-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                           "install", "-q", "--no-deps", "--no-build-isolation", str(source)],
                          capture_output=True, text=True, check=False, timeout=600)
    if proc.returncode != 0:
        pytest.skip(f"pip could not build the package here: {proc.stderr[-500:]}")
    return venv


@pytest.fixture
def user_env(tool_venv: Path, tmp_path: Path) -> dict[str, str]:
    """PATH as a user has it: the project's venv first, the tool's scripts after."""
    project_venv = tmp_path / "project-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(project_venv)],
                   check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join([str(project_venv / "bin"), "/usr/local/bin", "/usr/bin",
                                   "/bin", str(tool_venv / "bin")])
    env["PROJECT_VENV"] = str(project_venv)
    return env


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False,
                          timeout=120)


def test_installed_tool_runs_from_its_own_venv(tool_venv: Path, user_env: dict[str, str],
                                               make_repo: Callable[..., Path]) -> None:
    script = tool_venv / "bin" / "git-correx"
    assert script.read_text().splitlines()[0] == f"#!{tool_venv / 'bin' / 'python'}"
    shipped = tool_venv / "share" / "man" / "man1" / "git-correx.1"
    assert shipped.read_bytes() == (REPO_ROOT / "man" / "git-correx.1").read_bytes()
    found = run(["git", "correx", "--version"], make_repo(), user_env)
    assert found.returncode == 0 and found.stdout == "git correx 0.1.0\n", found


def test_profile_commands_run_with_the_users_interpreter(
        user_env: dict[str, str], make_repo: Callable[..., Path]) -> None:
    repo = make_repo(files={".correx.toml": PROFILE})
    result = run(["git", "correx", "verify"], repo, user_env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"interpreter: {user_env['PROJECT_VENV']}\n" in result.stderr
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_git_correx_dash_dash_help_opens_the_installed_man_page(
        user_env: dict[str, str], make_repo: Callable[..., Path]) -> None:
    env = {**user_env, "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"}
    env.pop("MANPATH", None)
    result = run(["git", "correx", "--help"], make_repo(), env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "GIT-CORREX(1)" in result.stdout and "git correx plan lock" in result.stdout


def test_every_package_directory_is_shipped() -> None:
    """pyproject finds packages by `__init__.py` (`include = ["gitcorrex*"]`): a directory
    of modules without one is left out of the wheel, and the installed tool cannot import it."""
    from setuptools import find_packages

    shipped = set(find_packages(str(REPO_ROOT), include=["gitcorrex*"]))
    holding = {".".join(path.parent.relative_to(REPO_ROOT).parts)
               for path in (REPO_ROOT / "gitcorrex").rglob("*.py")
               if "__pycache__" not in path.parts}
    assert holding - shipped == set()
