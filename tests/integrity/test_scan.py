"""The scan of two real trees: only git's objects are read, test files and check files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gitcorrex.integrity.check_commands import swallows_failure
from gitcorrex.integrity.scan import scan_trees
from tests.conftest import git, in_process, write
from tests.integrity.conftest import rules

TEST = "def test_a():\n    assert f() == 1\n    assert f() != 2\n"
PROFILE = """version = 1
[commands]
test = "python3 -m pytest -q"
lint = "ruff check ."
[expectations]
full = ["lint", "test"]
[defaults]
expectation = "full"
verify_before_stop = true
"""
WORKFLOW = """name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Run tests
        run: python -m pytest -q
"""


def commit_tree(root: Path, files: dict[str, str | None]) -> str:
    """Write (None: delete) `files`, commit, return the tree."""
    for rel, text in files.items():
        if text is None:
            (root / rel).unlink()
        else:
            write(root, rel, text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "change")
    return git(root, "rev-parse", "HEAD^{tree}").strip()


def scanned(root: Path, baseline: str, state: str) -> list[tuple[str, str]]:
    return rules(list(scan_trees(in_process(root), baseline=baseline, state=state).findings))


def test_the_trees_are_read_never_the_work_tree(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"tests/test_a.py": TEST})
    base = git(root, "rev-parse", "HEAD^{tree}").strip()
    weak = commit_tree(root, {"tests/test_a.py": "def test_a():\n    pass\n"})
    write(root, "tests/test_a.py", TEST)  # the work tree looks restored: the tree is not
    assert scanned(root, base, weak) == [("test_a", "assertions_removed")]
    assert scanned(root, weak, weak) == []


def test_a_file_moved_with_its_tests_is_no_finding(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"tests/test_a.py": TEST})
    base = git(root, "rev-parse", "HEAD^{tree}").strip()
    moved = commit_tree(root, {"tests/test_a.py": None, "tests/unit/test_a.py": TEST})
    assert scanned(root, base, moved) == []
    gone = commit_tree(root, {"tests/unit/test_a.py": None, "README.md": "x\n"})
    assert scanned(root, base, gone) == [("test_a", "test_removed")]


def test_profile_commands_changed_or_neutralised(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    base = git(root, "rev-parse", "HEAD^{tree}").strip()
    neutral = commit_tree(root, {".correx.toml": PROFILE.replace(
        '"python3 -m pytest -q"', '"python3 -m pytest -q || true"')})
    assert scanned(root, base, neutral) == [("commands.test", "check_neutralised")]
    changed = commit_tree(root, {".correx.toml": PROFILE.replace(
        '"python3 -m pytest -q"', '"python3 -m pytest -q -k smoke"').replace(
        'full = ["lint", "test"]', 'full = ["test"]').replace(
        "verify_before_stop = true", "verify_before_stop = false")})
    assert scanned(root, base, changed) == [
        ("commands.test", "check_command_changed"), ("expectations.full", "check_command_changed"),
        ("defaults.verify_before_stop", "check_command_changed")]


def test_a_stop_expectation_set_is_a_cheaper_stop(make_repo: Callable[..., Path]) -> None:
    """Setting `stop_expectation` where none was makes every stop without a claim run a
    cheaper check: named like any other change to what runs."""
    root = make_repo(files={".correx.toml": PROFILE})
    base = git(root, "rev-parse", "HEAD^{tree}").strip()
    cheaper = commit_tree(root, {".correx.toml": PROFILE.replace(
        "[expectations]\n", "[expectations]\nquick = [\"lint\"]\n").replace(
        "verify_before_stop = true", "verify_before_stop = true\nstop_expectation = \"quick\"")})
    assert scanned(root, base, cheaper) == [("defaults.stop_expectation",
                                             "check_command_changed")]


def test_workflow_and_package_scripts_told_to_pass(make_repo: Callable[..., Path]) -> None:
    package = '{"scripts": {"test": "jest", "lint": "eslint ."}}\n'
    root = make_repo(files={".github/workflows/ci.yml": WORKFLOW, "package.json": package})
    base = git(root, "rev-parse", "HEAD^{tree}").strip()
    weak = commit_tree(root, {
        ".github/workflows/ci.yml": WORKFLOW.replace(
            "        run: python -m pytest -q\n",
            "        continue-on-error: true\n        run: python -m pytest -q || true\n"),
        "package.json": package.replace('"jest"', '"jest || exit 0"')})
    assert scanned(root, base, weak) == [
        ("test/Run tests", "check_neutralised"), ("test/Run tests", "check_neutralised"),
        ("scripts.test", "check_neutralised")]


def test_pytest_told_to_collect_or_select_less(make_repo: Callable[..., Path]) -> None:
    pyproject = '[project]\nname = "x"\n[tool.pytest.ini_options]\naddopts = "-q"\n' \
                'testpaths = ["tests"]\n'
    root = make_repo(files={"pyproject.toml": pyproject, "tox.ini": "[pytest]\naddopts = -q\n"})
    base = git(root, "rev-parse", "HEAD^{tree}").strip()
    weak = commit_tree(root, {
        "pyproject.toml": pyproject.replace('"-q"', '"-q --deselect tests/test_a.py::test_b"')
        .replace('["tests"]', '["tests/unit"]'), "tests/test_a.py": "def test_b():\n    pass\n",
        "tox.ini": "[pytest]\naddopts = -q -k 'not slow'\n"})
    assert scanned(root, base, weak) == [
        ("pytest.addopts", "check_command_changed"), ("pytest.testpaths", "check_command_changed"),
        ("pytest.addopts", "check_command_changed")]
    quieter = commit_tree(root, {"tox.ini": "[pytest]\naddopts = -q -k 'not slow' -ra\n"})
    assert scanned(root, weak, quieter) == []
    moved = commit_tree(root, {"pyproject.toml": pyproject.replace('["tests"]', '["src/tests"]'),
                               "tests/test_a.py": None, "src/tests/test_a.py": "x = 1\n"})
    assert ("pytest.testpaths", "check_command_changed") not in scanned(root, base, moved)


def test_swallowed_failures_are_read_as_shell() -> None:
    for command in ("pytest || true", "pytest || :", "make test || exit 0",
                    "npm test || echo failed", "pytest; true"):
        assert swallows_failure(command), command
    for command in ("pytest", "pytest && true", "echo '|| true'", "test -f x || exit 1",
                    "pytest; true; pytest"):
        assert not swallows_failure(command), command
