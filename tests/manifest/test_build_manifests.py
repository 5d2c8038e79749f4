"""Which paths a detected build manifest names, read from the state tree."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gitcorrex.manifest.build_manifests import makefile_paths, named_paths
from tests.conftest import git, in_process

PYPROJECT = """\
[project]
name = "x"
readme = "README.md"
license = { file = "LICENSE" }
license-files = ["NOTICE", "licenses/*.txt", "../outside.txt"]
[tool.poetry]
readme = ["docs/a.md", "/abs.md"]
"""
CARGO = """\
[package]
name = "x"
readme = "./README.cargo.md"
build = "build.rs"
[lib]
path = "src/lib.rs"
[[bin]]
name = "tool"
path = "src/bin/tool.rs"
"""


def names(make_repo: Callable[..., Path], files: dict[str, str]) -> dict[str, str]:
    root = make_repo(files=files)
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    return named_paths(in_process(root), tree)


def test_pyproject_names_readme_and_license_files(make_repo: Callable[..., Path]) -> None:
    assert names(make_repo, {"pyproject.toml": PYPROJECT}) == {
        "README.md": "pyproject.toml", "LICENSE": "pyproject.toml", "NOTICE": "pyproject.toml",
        "docs/a.md": "pyproject.toml"}


def test_readme_table_form(make_repo: Callable[..., Path]) -> None:
    text = '[project]\nreadme = { file = "docs/README.rst", content-type = "text/x-rst" }\n'
    assert names(make_repo, {"pyproject.toml": text}) == {"docs/README.rst": "pyproject.toml"}


def test_package_json_names_entry_points(make_repo: Callable[..., Path]) -> None:
    text = ('{"main": "./lib/index.js", "types": "lib/index.d.ts", '
            '"bin": {"tool": "bin/tool.js"}, "files": ["dist/**"], "scripts": {"t": "x.js"}}')
    assert names(make_repo, {"package.json": text}) == {
        "lib/index.js": "package.json", "lib/index.d.ts": "package.json",
        "bin/tool.js": "package.json"}


def test_cargo_names_readme_build_script_and_targets(make_repo: Callable[..., Path]) -> None:
    assert set(names(make_repo, {"Cargo.toml": CARGO})) == {
        "README.cargo.md", "build.rs", "src/lib.rs", "src/bin/tool.rs"}


def test_only_top_level_manifests_count(make_repo: Callable[..., Path]) -> None:
    assert names(make_repo, {"sub/package.json": '{"main": "a.js"}'}) == {}


def test_broken_manifests_name_nothing(make_repo: Callable[..., Path]) -> None:
    assert names(make_repo, {"pyproject.toml": "[project\n", "package.json": "{",
                             "Cargo.toml": b"\xff".decode("latin-1")}) == {}


def test_manifests_nested_too_deep_to_read_name_nothing(make_repo: Callable[..., Path]) -> None:
    deep = "x = " + "[" * 1000 + "]" * 1000 + "\n"  # tomllib and json end in RecursionError
    assert names(make_repo, {"pyproject.toml": '[project]\nreadme = "README.md"\n' + deep,
                             "package.json": "[" * 100_000 + "]" * 100_000,
                             "Cargo.toml": deep}) == {}


def test_makefile_prerequisites_that_are_files_only() -> None:
    text = ("CC := gcc\nSRC = main.c\n.PHONY: all clean\nall: app\n"
            "app: src/main.o config.h | out\n\t$(CC) -o app src/main.o\n"
            "src/main.o: src/main.c $(SRC)\n%.o: %.c\n"
            "clean:\n\trm -f app\ntarget: VAR = value\n"
            "docs:: docs/index.md # the docs\n")
    assert makefile_paths(text.encode()) == ["config.h", "src/main.c", "$(SRC)",
                                             "docs/index.md"]
    # literal_path then drops `$(SRC)`; targets (`app`, `src/main.o`) never count


def test_makefile_names_through_the_tree(make_repo: Callable[..., Path]) -> None:
    found = names(make_repo, {"Makefile": "all: build\nbuild: gen/config.h $(X)\n"})
    assert found == {"gen/config.h": "Makefile"}
