"""`git correx hooks install | uninstall | status`: files, chaining, hooksPath, idempotence."""

from __future__ import annotations

import json
import os
import shlex
import site
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, CliResult, git
from tests.hooks.conftest import FILES, commit, hook_path, install, stage_file

Correx = Callable[..., CliResult]
FOREIGN = "#!/bin/sh\necho foreign ran >> \"$(git rev-parse --git-dir)/foreign.log\"\n"


@pytest.fixture
def plain(make_repo: Callable[..., Path]) -> Path:
    return make_repo(files=FILES)


def foreign_hook(root: Path, text: str = FOREIGN, name: str = "pre-commit") -> Path:
    path = hook_path(root, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_install_writes_marked_executable_lf_scripts(plain: Path) -> None:
    install(plain)
    for name in ("pre-commit", "pre-merge-commit"):
        path = hook_path(plain, name)
        data = path.read_bytes()
        assert data.splitlines()[1] == b"# git-correx hook v1"
        assert b"\r" not in data
        assert stat.S_IMODE(path.stat().st_mode) == 0o755
        assert f"hook_python={shlex.quote(sys.executable)}\n".encode() in data
    assert not hook_path(plain, "pre-push").exists()


def test_install_pre_push_adds_the_push_hook(plain: Path) -> None:
    install(plain, "--pre-push")
    assert hook_path(plain, "pre-push").read_bytes().splitlines()[1] == b"# git-correx hook v1"


def test_install_twice_changes_nothing(plain: Path, correx: Correx) -> None:
    install(plain)
    before = hook_path(plain).stat()
    result = correx(plain, "hooks", "install", "--json")
    assert [a["action"] for a in json.loads(result.stdout)["actions"]] == ["unchanged"] * 2
    assert hook_path(plain).stat().st_ino == before.st_ino


def test_install_restores_a_lost_executable_bit(plain: Path, correx: Correx) -> None:
    install(plain)
    hook_path(plain).chmod(0o644)
    result = correx(plain, "hooks", "install", "--json")
    assert json.loads(result.stdout)["actions"][0]["action"] == "updated"
    assert stat.S_IMODE(hook_path(plain).stat().st_mode) == 0o755


def test_foreign_hook_is_kept_and_run_first(plain: Path) -> None:
    foreign_hook(plain)
    install(plain)
    chained = hook_path(plain).with_name("pre-commit.correx-chained")
    assert chained.read_text() == FOREIGN
    stage_file(plain, "README.md")
    assert commit(plain).code == 0
    assert (plain / ".git" / "foreign.log").read_text() == "foreign ran\n"


def test_failing_foreign_hook_stops_the_commit(plain: Path) -> None:
    foreign_hook(plain, "#!/bin/sh\necho foreign says no >&2\nexit 7\n")
    install(plain)
    stage_file(plain, "src/app.py", "print(2)\n")
    result = commit(plain)
    assert result.code != 0, result
    assert "foreign says no" in result.stderr


def test_existing_backup_is_never_overwritten(plain: Path) -> None:
    old_backup = foreign_hook(plain, "#!/bin/sh\necho old backup\n", "pre-commit.correx-chained")
    foreign_hook(plain)
    install(plain)
    assert old_backup.read_text() == "#!/bin/sh\necho old backup\n"
    assert hook_path(plain).with_name("pre-commit.correx-chained.2").read_text() == FOREIGN
    assert b"hook_chained=pre-commit.correx-chained.2\n" in hook_path(plain).read_bytes()


def test_reinstall_keeps_the_chain(plain: Path) -> None:
    foreign_hook(plain)
    install(plain)
    install(plain)
    assert b"hook_chained=pre-commit.correx-chained\n" in hook_path(plain).read_bytes()
    assert not hook_path(plain).with_name("pre-commit.correx-chained.2").exists()


def test_uninstall_restores_the_chained_hook(plain: Path, correx: Correx) -> None:
    foreign_hook(plain)
    install(plain)
    result = correx(plain, "hooks", "uninstall")
    assert result.code == 0, result
    assert hook_path(plain).read_text() == FOREIGN
    assert not hook_path(plain).with_name("pre-commit.correx-chained").exists()
    assert not hook_path(plain, "pre-merge-commit").exists()


def test_uninstall_leaves_a_foreign_hook_alone(plain: Path, correx: Correx) -> None:
    foreign_hook(plain)
    result = correx(plain, "hooks", "uninstall", "--json")
    assert json.loads(result.stdout)["actions"][0]["action"] == "not-ours"
    assert hook_path(plain).read_text() == FOREIGN


def test_hooks_path_inside_the_repository_is_used(plain: Path) -> None:
    git(plain, "config", "core.hooksPath", ".githooks")
    install(plain)
    assert (plain / ".githooks" / "pre-commit").read_bytes().splitlines()[1] == \
        b"# git-correx hook v1"
    git(plain, "config", "correx.stage", "implement")
    stage_file(plain, "README.md")
    assert commit(plain).code != 0


def test_hooks_path_outside_is_refused_with_a_recipe(plain: Path, tmp_path: Path,
                                                     correx: Correx) -> None:
    shared = tmp_path / "shared-hooks"
    git(plain, "config", "core.hooksPath", str(shared))
    result = correx(plain, "hooks", "install")
    assert result.code == 2, result
    assert "outside this repository" in result.stderr
    assert f"{shared}/pre-commit:" in result.stderr
    assert not shared.exists()


def test_hooks_path_from_an_include_is_used(plain: Path, tmp_path: Path,
                                           correx: Correx) -> None:
    included = tmp_path / "team.gitconfig"
    included.write_text("[core]\n\thooksPath = .githooks\n")
    git(plain, "config", "include.path", str(included))
    install(plain)
    status = json.loads(correx(plain, "hooks", "status", "--json").stdout)
    assert (status["hooks_path"], status["hooks_dir"]) == (".githooks", str(plain / ".githooks"))
    git(plain, "config", "correx.stage", "implement")
    stage_file(plain, "README.md")
    assert commit(plain).code != 0


def test_hooks_path_from_the_environment_is_honoured(plain: Path, tmp_path: Path,
                                                     correx: Correx) -> None:
    shared = tmp_path / "shared-hooks"
    env = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath",
           "GIT_CONFIG_VALUE_0": str(shared)}
    status = json.loads(correx(plain, "hooks", "status", "--json", env=env).stdout)
    assert (status["hooks_path"], status["inside"]) == (str(shared), False)
    result = correx(plain, "hooks", "install", env=env)
    assert result.code == 2 and f"{shared}/pre-commit:" in result.stderr, result


def test_hooks_path_of_a_linked_worktree_is_its_own(plain: Path, tmp_path: Path,
                                                    correx: Correx) -> None:
    linked = tmp_path / "linked"
    git(plain, "worktree", "add", "-q", "-b", "side", str(linked))
    git(plain, "config", "extensions.worktreeConfig", "true")
    git(linked, "config", "--worktree", "core.hooksPath", ".wt-hooks")
    install(linked)
    status = json.loads(correx(linked, "hooks", "status", "--json").stdout)
    assert (status["hooks_path"], status["hooks_dir"]) == (".wt-hooks", str(linked / ".wt-hooks"))
    assert (linked / ".wt-hooks" / "pre-commit").exists()
    assert json.loads(correx(plain, "hooks", "status", "--json").stdout)["hooks_path"] is None


def test_recipe_line_runs_the_check_from_a_foreign_hooks_dir(plain: Path, tmp_path: Path,
                                                             correx: Correx) -> None:
    shared = tmp_path / "shared-hooks"
    git(plain, "config", "core.hooksPath", str(shared))
    lines = correx(plain, "hooks", "install").stderr.splitlines()
    recipe = lines[lines.index(f"  {shared}/pre-commit:") + 1].strip()
    shared.mkdir()
    (shared / "pre-commit").write_text(f"#!/bin/sh\n{recipe}\n")
    (shared / "pre-commit").chmod(0o755)
    git(plain, "config", "correx.stage", "implement")
    stage_file(plain, "README.md")
    result = commit(plain)
    assert result.code != 0 and "README.md: modified outside" in result.stderr, result


def test_status_reports_each_hook(plain: Path, correx: Correx) -> None:
    foreign_hook(plain)
    install(plain)
    document = json.loads(correx(plain, "hooks", "status", "--json").stdout)
    states = {hook["name"]: (hook["state"], hook["chained"]) for hook in document["hooks"]}
    assert states == {"pre-commit": ("installed", "pre-commit.correx-chained"),
                      "pre-merge-commit": ("installed", None), "pre-push": ("absent", None)}
    assert document["hooks"][0]["python"] == sys.executable


def test_interpreter_path_with_spaces_is_quoted(plain: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    odd = tmp_path / "py with 'quote' and space"
    odd.mkdir()
    os.symlink(sys.executable, odd / "python")
    # A venv interpreter linked from outside its venv no longer sees the venv's packages
    # (pyvenv.cfg is looked up beside the link): hand them over explicitly, hook included.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO_ROOT), *site.getsitepackages()]))
    env = dict(os.environ)
    subprocess.run([str(odd / "python"), "-m", "gitcorrex", "hooks", "install"], cwd=plain,
                   env=env, check=True, capture_output=True)
    pinned = f"hook_python={shlex.quote(str(odd / 'python'))}\n"
    assert pinned.encode() in hook_path(plain).read_bytes()
    git(plain, "config", "correx.stage", "implement")
    stage_file(plain, "README.md")
    result = commit(plain)
    assert result.code != 0 and "README.md: modified outside" in result.stderr, result


def test_shipped_templates_equal_the_top_level_hooks_directory() -> None:
    for name in ("pre-commit", "pre-merge-commit", "pre-push"):
        top = REPO_ROOT / "hooks" / name
        packaged = REPO_ROOT / "gitcorrex" / "hooks" / "scripts" / name
        assert top.read_bytes() == packaged.read_bytes(), name
        assert os.access(top, os.X_OK) and os.access(packaged, os.X_OK), name


def test_reinstall_drops_a_chain_whose_hook_is_gone(plain: Path, correx: Correx) -> None:
    foreign_hook(plain)
    install(plain)
    hook_path(plain).with_name("pre-commit.correx-chained").unlink()
    result = correx(plain, "hooks", "install", "--json")
    assert json.loads(result.stdout)["actions"][0] == {
        "name": "pre-commit", "path": str(hook_path(plain)), "action": "updated",
        "chained": None}
    assert b"hook_chained=''\n" in hook_path(plain).read_bytes()
