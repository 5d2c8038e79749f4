"""Every runnable example in README.md and docs/ runs, so a broken example fails CI.

Each ```sh, ```console and ```python block (tests/doc_blocks.py says which count and
how a page marks one `not run` or picks its setup) runs in a fresh repository built as the
pages assume: `project`, a small committed Python project with a `.correx.toml` (stages
`implement` and `docs`) whose HEAD was verified, or `new-project`, the same project before
`git correx init` (run from the directory holding `your-project/`). `git correx` on PATH is
this checkout; identities, HOME and git's config are the suite's isolated ones. A shell
block runs under `set -e -o pipefail`; a console transcript runs its `$ ` lines, each of
which must exit 0 (or a code its `allow-exit` names).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, git, write
from tests.doc_blocks import KEYS, DocBlock, console_commands, runnable_blocks

BLOCKS = runnable_blocks(REPO_ROOT)
TIMEOUT_S = 60

PYPROJECT = '[project]\nname = "your-project"\nversion = "0.1.0"\n\n' \
            '[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "-p no:cacheprovider"\n'
APP = "def add(a, b):\n    return a + b\n"
TEST_APP = "from src.app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
PROFILE = """version = 1

[commands]
test = { run = "python -B -m pytest -q" }

[expectations]
test = ["test"]
docs = []

[defaults]
expectation = "test"

[stages.implement]
build_expectation = "test"
writes = ["/src/**", "/tests/**"]

[stages.docs]
build_expectation = "docs"
writes = ["/docs/**", "/README.md"]
"""


def new_project(base: Path) -> tuple[Path, Path]:
    """`your-project/`: four commits of a Python project with pytest, no profile yet; the
    block runs from `base` (its pages `cd your-project` first)."""
    root = base / "your-project"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for number, (rel, text) in enumerate([("README.md", "# your project\n"),
                                          ("pyproject.toml", PYPROJECT),
                                          ("src/app.py", APP), ("tests/test_app.py", TEST_APP)]):
        write(root, rel, text)
        write(root, "src/__init__.py", "") if number == 2 else None
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"add {rel}")
    return root, base


def project(base: Path) -> tuple[Path, Path]:
    """The same project with its profile committed and HEAD verified; runs in it."""
    root, _ = new_project(base)
    write(root, ".correx.toml", PROFILE)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "correx profile")
    ran = subprocess.run(["git", "correx", "verify", "--quiet"], cwd=root, env=block_env(base),
                         capture_output=True, check=False, timeout=TIMEOUT_S)
    assert ran.returncode == 0, ran.stderr.decode(errors="replace")
    return root, root


SETUPS: dict[str, Callable[[Path], tuple[Path, Path]]] = {
    "project": project, "new-project": new_project}


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each setup built once (its verify included) and copied for every block: a block
    still starts from a fresh repository, without paying for building it again."""
    return {name: _built(tmp_path_factory.mktemp(name), build) for name, build in SETUPS.items()}


def _built(base: Path, build: Callable[[Path], tuple[Path, Path]]) -> Path:
    _, cwd = build(base)
    (base / ".cwd").write_text(str(cwd.relative_to(base)))
    return base


def fresh(template: Path, tmp_path: Path) -> Path:
    """A copy of a built setup under `tmp_path`; the directory the block runs in."""
    shutil.copytree(template, tmp_path, symlinks=True, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".tools"))
    return tmp_path / (template / ".cwd").read_text()


def block_env(base: Path) -> dict[str, str]:
    """`git correx` (and `git-correx`) from this checkout first on PATH, the test's
    interpreter as `python`, a job summary file for CI examples."""
    tools = base / ".tools"
    if not tools.exists():
        tools.mkdir()
        # launchers, not symlinks: a venv's interpreter reached through a symlink elsewhere
        # finds no pyvenv.cfg beside it when the venv was made from the system's python
        for name, args in (("git-correx", " -m gitcorrex"), ("python", ""), ("python3", "")):
            launcher = tools / name
            launcher.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)}{args} \"$@\"\n")
            launcher.chmod(0o755)
    path = os.pathsep.join([str(tools), os.environ.get("PATH", "")])
    return {**os.environ, "PATH": path, "EDITOR": "true",
            "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "GITHUB_STEP_SUMMARY": str(base / "step-summary.md")}


def script_of(block: DocBlock) -> str:
    """The shell script a block runs as."""
    if block.kind == "sh":
        return "set -e -o pipefail\n" + block.text
    allowed = {0, *(int(code) for code in block.options.get("allow-exit", "").split(",")
                    if code)}
    checks = []
    for command in console_commands(block.text):
        checks.append(f"{command}\n__rc=$?\ncase \" {' '.join(map(str, sorted(allowed)))} \" "
                      f"in *\" $__rc \"*) ;; *) echo \"exit $__rc: \"{shlex.quote(command)} >&2;"
                      " exit $__rc;; esac")
    return "\n".join(checks) + "\n"


def _params() -> list[object]:
    return [pytest.param(block, id=block.name,
                         marks=[pytest.mark.slow] if "slow" in block.options else [])
            for block in BLOCKS]


@pytest.mark.parametrize("block", _params())
def test_doc_example_runs(block: DocBlock, tmp_path: Path, templates: dict[str, Path]) -> None:
    if block.not_run is not None:
        assert block.not_run, f"{block.name}: `<!-- not run: -->` needs a reason after the colon"
        pytest.skip(f"not run: {block.not_run}")
    unknown = set(block.options) - set(KEYS)
    assert not unknown, f"{block.name}: unknown doc-test option(s) {sorted(unknown)}; " \
        f"known: {', '.join(KEYS)}"
    template = templates.get(block.options.get("setup", "project"))
    assert template is not None, f"{block.name}: no setup {block.options['setup']!r}; " \
        f"known: {', '.join(SETUPS)}"
    cwd = fresh(template, tmp_path)
    env = block_env(tmp_path)
    if block.kind == "python":
        argv = [sys.executable, "-c", block.text]
    else:
        argv = ["bash", "-c", script_of(block)]
    ran = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False,
                         timeout=TIMEOUT_S)
    assert ran.returncode == 0, (
        f"{block.name} (line {block.line}, {block.kind}) failed with exit {ran.returncode}\n"
        f"--- block ---\n"
        f"{block.text}--- stdout ---\n{ran.stdout.decode(errors='replace')}"
        f"--- stderr ---\n{ran.stderr.decode(errors='replace')}")


def test_every_console_example_has_commands() -> None:
    """A transcript whose `$ ` lines were not found would run nothing and pass."""
    empty = [block.name for block in BLOCKS
             if block.kind == "console" and not console_commands(block.text)]
    assert empty == []
    assert console_commands("$ a \\\n  b\nout\n$ c\n") == ["a \\\n  b", "c"]


def test_every_page_has_runnable_examples_found() -> None:
    """The harness sees the pages' blocks (a parser that found none would pass vacuously)."""
    pages = {block.page for block in BLOCKS}
    assert {"README.md", "docs/sessions.md", "docs/python-api.md"} <= pages
    assert any(block.kind == "console" for block in BLOCKS)
    assert any(block.kind == "python" and block.not_run is None for block in BLOCKS)
