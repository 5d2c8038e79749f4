"""A failing commit cannot be made to look verified by hiding an edit from the state key.

Each test is the attack as an agent would run it: HEAD's profile or test fails; the agent
edits the file so the commands pass, hides the edit from git (an index bit, a file-system
monitor that lies, a clean filter the tree does not declare, a sparse checkout), runs
`git correx verify`, then restores the file. The gate `check --require-pass` on HEAD must
not be green afterwards: the blinded verify either keyed the bytes it really ran on (another
tree than HEAD's) or refused with exit 3 and recorded nothing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.verification import Result
from tests.conftest import CliResult, git, write
from tests.verify.conftest import fields_of, has_ledger, notes_on, write_profile

Correx = Callable[..., CliResult]
FAILING = "raise SystemExit(1)\n"
PASSING = "raise SystemExit(0)\n"


@pytest.fixture
def failing(make_repo: Callable[..., Path]) -> tuple[Path, str]:
    """A project whose HEAD fails its check (`out/check.py` exits 1); the range's base."""
    top = make_repo(files={"README.md": "hello\n"})
    base = git(top, "rev-parse", "HEAD").strip()
    write(top, "out/check.py", FAILING)
    write(top, "src/app.py", "VALUE = 1\n")
    write_profile(top, {"test": "python3 out/check.py"}, {"test": ["test"]}, commit=False)
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "a failing check")
    return top, base


def head_tree(top: Path) -> str:
    return git(top, "rev-parse", "HEAD^{tree}").strip()


def passes_on(top: Path, tree: str) -> int:
    return sum(fields_of(e).result is Result.PASS for e in notes_on(top, tree))


def assert_gate_not_green(top: Path, base: str, correx: Correx) -> None:
    """Every file back as HEAD has it: the gate still finds no pass for HEAD's tree."""
    assert git(top, "status", "--porcelain") == ""
    assert passes_on(top, head_tree(top)) == 0
    gate = correx(top, "check", f"{base}..HEAD", "--require-pass")
    assert gate.code == 1, gate
    assert "a recorded pass is required" in gate.stdout


def test_baseline_an_honest_verify_of_head_fails(failing: tuple[Path, str],
                                                 correx: Correx) -> None:
    top, base = failing
    assert correx(top, "verify").code == 1
    assert_gate_not_green(top, base, correx)


def test_assume_unchanged_profile(failing: tuple[Path, str], correx: Correx) -> None:
    top, base = failing
    write_profile(top, {"test": "true"}, {"test": ["test"]}, commit=False)
    git(top, "update-index", "--assume-unchanged", ".correx.toml")
    result = correx(top, "verify")
    assert result.code == 0, result  # a pass, on the tree the commands really ran on
    assert head_tree(top)[:12] not in result.stdout
    git(top, "update-index", "--no-assume-unchanged", ".correx.toml")
    git(top, "checkout", "--", ".correx.toml")
    assert_gate_not_green(top, base, correx)


def test_skip_worktree_test_file(failing: tuple[Path, str], correx: Correx) -> None:
    top, base = failing
    git(top, "update-index", "--skip-worktree", "out/check.py")
    write(top, "out/check.py", PASSING)
    result = correx(top, "verify")
    assert result.code == 3, result
    assert not has_ledger(top)  # nothing recorded
    assert "out/check.py" in result.stderr and "skip-worktree" in result.stderr
    git(top, "update-index", "--no-skip-worktree", "out/check.py")
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


def test_fsmonitor_valid_profile(failing: tuple[Path, str], correx: Correx,
                                 tmp_path: Path) -> None:
    top, base = failing
    hook = write(tmp_path, "fsmonitor-hook", "#!/bin/sh\nprintf '%s\\0' \"$2\"\n")
    hook.chmod(0o755)
    git(top, "config", "core.fsmonitor", str(hook))
    git(top, "config", "core.fsmonitorHookVersion", "1")
    git(top, "status", "--porcelain")
    git(top, "update-index", "--fsmonitor-valid", "out/check.py")
    os.utime(top / "out/check.py", (time.time() - 3600,) * 2)  # nothing racy
    for _ in range(2):  # a kept index with stat data, then refreshed by `git status`
        assert correx(top, "state").code == 0
    write(top, "out/check.py", PASSING)
    assert git(top, "status", "--porcelain") == ""  # git itself no longer sees the edit
    result = correx(top, "verify")
    assert result.code == 0, result
    assert head_tree(top)[:12] not in result.stdout
    git(top, "config", "--unset", "core.fsmonitor")
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


def test_weakened_stat_checks(failing: tuple[Path, str], correx: Correx) -> None:
    top, base = failing
    git(top, "config", "core.trustctime", "false")
    git(top, "config", "core.checkStat", "minimal")
    path = top / "out/check.py"
    os.utime(path, (time.time() - 3600,) * 2)  # nothing racy: git trusts its stat data
    git(top, "update-index", "-q", "--refresh")
    assert correx(top, "state").code == 0  # a kept index with stat data to trust
    info = path.stat()
    time.sleep(1.02 - time.time() % 1)  # a later second: ctimes are compared to the second
    path.write_text(PASSING)  # as many bytes, mtime put back
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    result = correx(top, "verify")
    assert result.code == 0, result
    assert head_tree(top)[:12] not in result.stdout
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


def test_a_rule_the_command_writes_is_refused_and_nothing_is_recorded(
        failing: tuple[Path, str], correx: Correx) -> None:
    """The edited check passes and, while it runs, installs the rule that hides its edit:
    the rescan after it refuses the rule (exit 3). verify made the observation's notes
    commit while git rescanned; it must never reach the ledger."""
    top, base = failing
    git(top, "config", "filter.restore.clean", "git show HEAD:out/check.py")
    write(top, "out/check.py", "import pathlib\n"
          "pathlib.Path('.git/info').mkdir(exist_ok=True)\n"
          "pathlib.Path('.git/info/attributes').write_text('out/check.py filter=restore\\n')\n"
          + PASSING)
    result = correx(top, "verify")
    assert result.code == 3, result
    assert ".git/info/attributes" in result.stderr and "out/check.py" in result.stderr
    assert not has_ledger(top)  # the pass made ahead of the rescan never landed
    (top / ".git" / "info" / "attributes").unlink()
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


@pytest.mark.parametrize("source", ["info/attributes", "core.attributesFile"])
def test_undeclared_clean_filter(failing: tuple[Path, str], correx: Correx, tmp_path: Path,
                                 source: str) -> None:
    top, base = failing
    git(top, "config", "filter.restore.clean", "git show HEAD:out/check.py")
    rule = "out/check.py filter=restore\n"
    if source == "info/attributes":
        rules = write(top, ".git/info/attributes", rule)
    else:
        rules = write(tmp_path, "attributes", rule)
        git(top, "config", "core.attributesFile", str(rules))
    write(top, "out/check.py", PASSING)
    assert git(top, "status", "--porcelain") == ""  # git itself no longer sees the edit
    result = correx(top, "verify")
    assert result.code == 3, result
    assert not has_ledger(top)  # nothing recorded
    assert str(rules.relative_to(top) if source == "info/attributes" else rules) in \
        result.stderr and "out/check.py" in result.stderr
    rules.unlink()
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


def test_sparse_checkout_file_outside_the_cone(failing: tuple[Path, str],
                                               correx: Correx) -> None:
    top, base = failing
    git(top, "sparse-checkout", "set", "src")
    write(top, "out/check.py", PASSING)  # absent from the checkout; the command reads it
    result = correx(top, "verify")
    assert result.code == 3, result
    assert not has_ledger(top)  # nothing recorded
    assert "out/check.py" in result.stderr
    git(top, "sparse-checkout", "disable")
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


def test_a_filter_the_tree_declares_keeps_verify_working(make_repo: Callable[..., Path],
                                                         correx: Correx) -> None:
    top = make_repo()
    write_profile(top, {"test": "true"}, {"test": ["test"]})
    base = git(top, "rev-parse", "HEAD").strip()  # the gate trusts the base's profile
    git(top, "config", "filter.upper.clean", "tr a-z A-Z")
    write(top, ".gitattributes", "*.up filter=upper\n")
    write(top, "shout.up", "hello\n")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "declared filter")
    result = correx(top, "verify")
    assert result.code == 0, result
    assert passes_on(top, head_tree(top)) == 1
    assert correx(top, "check", f"{base}..HEAD", "--require-pass").code == 0


@pytest.mark.parametrize("keyed", ["never", "before the edit", "after the edit"])
def test_stat_data_written_under_a_transient_filter(failing: tuple[Path, str],
                                                    correx: Correx, tmp_path: Path,
                                                    keyed: str) -> None:
    """The user's index gets HEAD's blob beside the edited file's stat data. The kept
    index is made from it: first (never keyed), or again, holding HEAD's blob with the
    old stat data (keyed before the edit) or the edited blob (keyed after it)."""
    top, base = failing
    if keyed == "before the edit":
        assert correx(top, "state").code == 0
    write(top, "out/check.py", PASSING)
    os.utime(top / "out/check.py", (time.time() - 3600,) * 2)  # nothing racy
    if keyed == "after the edit":
        assert correx(top, "state").code == 0
    rules = write(tmp_path, "attributes", "out/check.py filter=restore\n")
    git(top, "-c", f"core.attributesFile={rules}",
        "-c", "filter.restore.clean=git show HEAD:out/check.py", "add", "out/check.py")
    assert git(top, "status", "--porcelain") == ""  # no trace left: git itself is blinded
    correx(top, "verify")
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


@pytest.mark.parametrize("bit", ["--assume-unchanged", "--skip-worktree"])
def test_a_bit_set_on_the_kept_index_itself(failing: tuple[Path, str], correx: Correx,
                                            bit: str) -> None:
    """The kept index is a file in `.git` like the user's: a bit set on it with git's own
    `update-index` is not carried when it is made again, so the edit is hashed."""
    top, base = failing
    assert correx(top, "state").code == 0  # the kept index holds HEAD's blob
    kept = top / ".git" / "correx" / "state-index"
    git(top, "update-index", bit, "out/check.py", env={"GIT_INDEX_FILE": str(kept)})
    write(top, "out/check.py", PASSING)
    result = correx(top, "verify")
    assert result.code == 0, result  # a pass, on the tree the commands really ran on
    assert head_tree(top)[:12] not in result.stdout
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)


def test_an_index_of_the_agents_own_named_by_git_index_file(
        failing: tuple[Path, str], correx: Correx, tmp_path: Path) -> None:
    """`GIT_INDEX_FILE` names an index elsewhere, written under a transient filter: the key
    is taken on a scratch copy of it, which takes its entries and never its stat data."""
    top, base = failing
    assert correx(top, "state").code == 0  # a kept index: the scratch copy's stat data
    write(top, "out/check.py", PASSING)
    os.utime(top / "out/check.py", (time.time() - 3600,) * 2)  # nothing racy
    own = {"GIT_INDEX_FILE": str(tmp_path / "own-index")}
    git(top, "read-tree", "HEAD", env=own)
    rules = write(tmp_path, "attributes", "out/check.py filter=restore\n")
    git(top, "-c", f"core.attributesFile={rules}",
        "-c", "filter.restore.clean=git show HEAD:out/check.py", "add", "-A", env=own)
    assert git(top, "status", "--porcelain", env=own) == ""  # git is blinded there
    result = correx(top, "verify", env=own)
    assert head_tree(top)[:12] not in result.stdout, result
    git(top, "checkout", "--", "out/check.py")
    assert_gate_not_green(top, base, correx)
