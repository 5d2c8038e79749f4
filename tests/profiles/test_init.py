"""`git correx init`: detection per ecosystem, never overwriting, profiles that load."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.profiles.detect import detect_project
from gitcorrex.profiles.load import PROFILE_NAME, load_profile
from gitcorrex.profiles.selection import select_expectation
from tests.conftest import CliResult, write

Correx = Callable[..., CliResult]
PYPROJECT = '[project]\nname = "demo-app"\n[project.optional-dependencies]\ntest = ["pytest"]\n'

ECOSYSTEMS: dict[str, tuple[dict[str, str], list[list[str]]]] = {
    "python": ({"pyproject.toml": PYPROJECT, "src/demo_app/__init__.py": ""},
               [["python", "-B", "-m", "pytest", "-q"]]),
    "node": ({"package.json": '{"scripts": {"build": "tsc", "test": "jest"}}'},
             [["npm", "run", "build"], ["npm", "test"]]),
    "go": ({"go.mod": "module example.com/demo\n\ngo 1.22\n"},
           [["go", "build", "./..."], ["go", "test", "./..."]]),
    "rust": ({"Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n'},
             [["cargo", "build"], ["cargo", "test"]]),
    "make": ({"Makefile": "build:\n\tcc -o demo demo.c\n\ntest: build\n\t./demo --self-test\n"},
             [["make", "build"], ["make", "test"]]),
}


@pytest.mark.parametrize("ecosystem", sorted(ECOSYSTEMS))
def test_init_detects_each_ecosystem_and_the_profile_loads(
        ecosystem: str, make_repo: Callable[..., Path], correx: Correx) -> None:
    files, argvs = ECOSYSTEMS[ecosystem]
    repo = make_repo(files=files)
    result = correx(repo, "init", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["path"] == str(repo / PROFILE_NAME)
    assert report["detected"] == ecosystem
    loaded = load_profile(repo)
    selection = select_expectation(loaded.profile, stage="implement", expect=None)
    assert [command.argv for command in selection.commands] == argvs


def test_init_writes_commented_generic_template_when_nothing_matches(
        repo: Path, correx: Correx) -> None:
    result = correx(repo, "init")
    assert result.code == 0, result
    assert "no build system detected" in result.stdout
    profile = load_profile(repo).profile
    assert profile.commands == {} and profile.defaults.expectation is None
    assert '# test = "make test"' in (repo / PROFILE_NAME).read_text()


def test_init_text_output_names_detection_path_and_gitignore(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    repo = make_repo(files={"pyproject.toml": PYPROJECT, "demo_app/__init__.py": ""})
    result = correx(repo, "init")
    assert result.code == 0, result
    assert result.stdout.splitlines() == [
        "detected python (pyproject.toml with pytest)", f"wrote {repo / PROFILE_NAME}",
        "  test: python -B -m pytest -q",
        "not ignored yet: __pycache__/ (a command that writes them changes the state key)",
        "  add them to .gitignore, or run `git correx init --exclude` to add them to "
        ".git/info/exclude",
        'next: git add .correx.toml && git commit -m "Add git correx profile" && '
        "git correx verify"]


def test_generated_profile_explains_entries_and_gitignore(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    repo = make_repo(files={"pyproject.toml": PYPROJECT})
    assert correx(repo, "init").code == 0
    text = (repo / PROFILE_NAME).read_text()
    for phrase in ("never run by a shell", "MUST be gitignored", "__pycache__/", "timeout",
                   "requires", "output_cap", "build_expectation", "writes", "max_attempts"):
        assert phrase.lower() in text.lower()


def test_init_never_overwrites(repo: Path, correx: Correx) -> None:
    existing = write(repo, PROFILE_NAME, "# mine\nversion = 1\n")
    result = correx(repo, "init")
    assert result.code == 2, result
    assert "already exists" in result.stderr
    assert "hint:" in result.stderr
    assert existing.read_text() == "# mine\nversion = 1\n"


def test_init_json_refusal_still_exits_2(repo: Path, correx: Correx) -> None:
    write(repo, PROFILE_NAME, "not toml at all [")
    result = correx(repo, "init", "--json")
    assert result.code == 2, result
    assert result.stdout == ""
    assert (repo / PROFILE_NAME).read_text() == "not toml at all ["


def test_init_from_a_subdirectory_writes_at_the_root(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    repo = make_repo(files={"go.mod": "module m\n", "cmd/x/main.go": "package main\n"})
    assert correx(repo / "cmd" / "x", "init").code == 0
    assert (repo / PROFILE_NAME).is_file()
    assert not (repo / "cmd" / "x" / PROFILE_NAME).exists()


def test_init_outside_a_repository_exits_2(tmp_path: Path, correx: Correx) -> None:
    result = correx(tmp_path, "init")
    assert result.code == 2, result
    assert not (tmp_path / PROFILE_NAME).exists()


def test_python_first_match_wins_over_makefile(make_repo: Callable[..., Path]) -> None:
    repo = make_repo(files={"setup.py": "from setuptools import setup\nsetup()\n",
                            "requirements-dev.txt": "pytest\n", "Makefile": "test:\n\ttrue\n"})
    detection = detect_project(repo)
    assert detection is not None and detection.ecosystem == "python"
    assert (detection.build, detection.test) == (None, "python -B -m pytest -q")


def test_python_without_pytest_falls_through(make_repo: Callable[..., Path]) -> None:
    repo = make_repo(files={"pyproject.toml": '[project]\nname = "x"\n',
                            "Makefile": "test:\n\tpython -m unittest\n"})
    detection = detect_project(repo)
    assert detection is not None and detection.ecosystem == "make"


def test_npm_placeholder_test_script_is_not_a_test(make_repo: Callable[..., Path]) -> None:
    placeholder = '{"scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}'
    assert detect_project(make_repo(files={"package.json": placeholder})) is None


def test_npm_without_build_script_runs_only_tests(make_repo: Callable[..., Path]) -> None:
    repo = make_repo(files={"package.json": '{"scripts": {"test": "jest"}}'})
    detection = detect_project(repo)
    assert detection is not None and (detection.build, detection.test) == (None, "npm test")


def test_makefile_variable_named_test_is_not_a_target(make_repo: Callable[..., Path]) -> None:
    assert detect_project(make_repo(files={"Makefile": "test := 1\nall:\n\ttrue\n"})) is None


def test_makefile_with_only_test_target(make_repo: Callable[..., Path], correx: Correx) -> None:
    repo = make_repo(files={"Makefile": ".PHONY: test\ntest lint:\n\ttrue\n"})
    assert correx(repo, "init").code == 0
    selection = select_expectation(load_profile(repo).profile, stage=None, expect=None)
    assert [command.argv for command in selection.commands] == [["make", "test"]]
