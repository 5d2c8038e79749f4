"""Environment directories never enter the key by accident, on real layouts.

A real `python -m venv .venv` and a `node_modules/` that the project's .gitignore does not
name: `init` excludes them (nothing tracked changes), `verify` and `doctor` name them with
the fix, and the ledger never anchors what they hold; the caps on anchoring and on
`changed_paths` hold whatever is left in a key (docs/state-keys.md#environment-directories).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import NOTES_REF, fields_of, is_anchored, only_event, write_profile

Correx = Callable[..., CliResult]


@pytest.fixture(scope="module")
def made_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv as `python -m venv` makes it, pip and all (thousands of files): made
    once, copied into each test's repository as it is (symlinks kept)."""
    where = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    return where


def real_venv(made: Path, root: Path, name: str = ".venv") -> Path:
    shutil.copytree(made, root / name, symlinks=True)
    return root / name


def node_modules(root: Path, at: str = "web") -> Path:
    """An installed package as npm lays it out."""
    base = root / at / "node_modules" / "left-pad"
    write(base, "package.json", '{"name": "left-pad", "version": "1.3.0"}\n')
    write(base, "index.js", "module.exports = (s, n) => s.padStart(n);\n")
    return base.parent


def ledger_paths(root: Path) -> list[str]:
    """Every path name of every object the ledger ref keeps (what a push would carry)."""
    listed = git(root, "rev-list", "--objects", NOTES_REF)
    return [line.split(" ", 1)[1] for line in listed.splitlines() if " " in line]


@pytest.fixture
def layout(make_repo: Callable[..., Path], made_venv: Path) -> Path:
    """A committed project whose .gitignore names neither `.venv/` nor `node_modules/`."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            ".gitignore": "*.log\n"})
    write_profile(root)
    real_venv(made_venv, root)
    node_modules(root)
    return root


def test_init_excludes_a_real_venv_and_node_modules_and_the_key_is_clean(
        correx: Correx, layout: Path) -> None:
    (layout / ".correx.toml").unlink()
    git(layout, "commit", "-qam", "no profile yet")
    tracked_before = git(layout, "ls-files")
    result = correx(layout, "init")
    assert result.code == 0, result
    assert "excluded .venv/" in result.stdout and "excluded web/node_modules/" in result.stdout
    exclude = (layout / ".git" / "info" / "exclude").read_text()
    assert "/.venv/\n" in exclude and "/web/node_modules/\n" in exclude
    assert git(layout, "ls-files") == tracked_before  # nothing tracked changed
    write_profile(layout)
    assert reference_key(layout) == git(layout, "rev-parse", "HEAD^{tree}").strip()
    verified = correx(layout, "verify")
    assert verified.code == 0, verified
    assert "warning: the state key" not in verified.stderr
    assert not [p for p in ledger_paths(layout) if p.startswith((".venv", "web/node_modules"))]
    shown = correx(layout, "show", "HEAD")
    assert "pass" in shown.stdout, shown


def test_init_never_excludes_a_directory_holding_tracked_files(
        correx: Correx, make_repo: Callable[..., Path], made_venv: Path) -> None:
    root = make_repo(files={"README.md": "hello\n",
                            "vendor/node_modules/kept/index.js": "tracked\n"})
    write(root, "vendor/node_modules/extra/index.js", "untracked\n")
    real_venv(made_venv, root, "tools/env")
    result = correx(root, "init")
    assert result.code == 0, result
    exclude = (root / ".git" / "info" / "exclude").read_text()
    assert "node_modules" not in exclude
    assert "/tools/env/\n" in exclude


def test_verify_warns_once_naming_the_directory_and_the_fix(correx: Correx,
                                                            layout: Path) -> None:
    result = correx(layout, "verify")
    assert result.code == 0, result
    warnings = [line for line in result.stderr.splitlines()
                if line.startswith("warning: the state key")]
    assert len(warnings) == 1, result
    assert ".venv/ (a virtualenv" in warnings[0] and "web/node_modules/" in warnings[0]
    assert "echo /.venv/ >> \"$(git rev-parse --git-path info/exclude)\"" in warnings[0]


def test_verify_says_nothing_of_a_committed_node_modules(
        correx: Correx, make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "hello\n", "node_modules/a/index.js": "x\n"})
    write_profile(root)
    write(root, "node_modules/a/index.js", "changed\n")
    result = correx(root, "verify")
    assert result.code == 0, result
    assert "warning: the state key" not in result.stderr, result


def test_doctor_warns_with_the_fix(correx: Correx, layout: Path) -> None:
    result = correx(layout, "doctor")
    lines = [line for line in result.stdout.splitlines() if line.startswith("warn")]
    assert any("web/node_modules/:" in line and "info/exclude" in line for line in lines)
    assert any(".venv/:" in line and "a virtualenv" in line for line in lines), result


def test_a_tree_over_the_anchor_cap_is_not_anchored_and_the_count_is_said(
        correx: Correx, layout: Path) -> None:
    result = correx(layout, "verify")
    assert result.code == 0, result
    key = reference_key(layout)
    assert not is_anchored(layout, key)
    assert not [p for p in ledger_paths(layout) if p.startswith(".venv")]
    message = git(layout, "log", "-1", "--format=%B", NOTES_REF)
    assert f"not anchored: tree {key} adds " in message
    assert "bytes beyond HEAD (over correx.anchorMaxBytes)" in message
    assert fields_of(only_event(layout, key)).result.value == "pass"  # the fact is kept


def test_a_tree_under_the_anchor_cap_is_anchored(correx: Correx,
                                                 make_repo: Callable[..., Path]) -> None:
    root = make_repo()
    write_profile(root)
    write(root, "src/new.py", "x = 1\n" * 100)
    assert correx(root, "verify").code == 0
    assert is_anchored(root, reference_key(root))
    git(root, "config", "correx.anchorMaxBytes", "100")
    write(root, "src/new.py", "x = 2\n" * 100)
    assert correx(root, "verify").code == 0
    assert not is_anchored(root, reference_key(root))
    git(root, "config", "correx.anchorMaxBytes", "0")  # no cap
    write(root, "src/new.py", "x = 3\n" * 100)
    assert correx(root, "verify").code == 0
    assert is_anchored(root, reference_key(root))


def test_changed_paths_are_capped_with_a_count_of_the_rest(
        correx: Correx, make_repo: Callable[..., Path]) -> None:
    root = make_repo()
    write_profile(root)
    for index in range(205):
        write(root, f"gen/f{index:03}.txt", f"{index}\n")
    assert correx(root, "verify").code == 0
    fields = fields_of(only_event(root, reference_key(root)))
    assert (len(fields.changed_paths), fields.changed_paths_omitted) == (200, 5)
    git(root, "config", "correx.maxChangedPaths", "3")
    write(root, "gen/more.txt", "more\n")
    assert correx(root, "verify").code == 0
    fields = fields_of(only_event(root, reference_key(root)))
    assert fields.changed_paths == ["gen/f000.txt", "gen/f001.txt", "gen/f002.txt"]
    assert fields.changed_paths_omitted == 203


def test_a_cap_that_is_not_a_number_is_exit_2_naming_the_key(correx: Correx,
                                                             layout: Path) -> None:
    git(layout, "config", "correx.anchorMaxBytes", "lots")
    result = correx(layout, "verify")
    assert result.code == 2, result
    assert "correx.anchorMaxBytes" in result.stderr
