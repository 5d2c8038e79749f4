"""SHA-256 repositories: the libgit2 in this installation cannot open them, so every ledger
command refuses with exit 2 naming the object format — before anything runs — `state`
(computed by git alone) still gives git's own key, and `doctor` says that the hooks cannot
check a commit there."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest

from tests.conftest import git, run_correx, write
from tests.hooks.conftest import commit, install, stage_file
from tests.verify.conftest import counting, has_ledger, runs_counted, write_profile

LIBGIT2_SHA256 = 1 << 11  # GIT_FEATURE_SHA256
pytestmark = pytest.mark.skipif(
    bool(pygit2.features & LIBGIT2_SHA256),
    reason="this libgit2 reads sha256 repositories: the refusal does not apply")


@pytest.fixture
def sha256_repo(tmp_path: Path) -> Path:
    root = tmp_path / "sha256"
    git(tmp_path, "init", "-q", "--object-format=sha256", str(root))
    write(root, "README.md", "hello\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def test_verify_refuses_before_running_anything(sha256_repo: Path, tmp_path: Path) -> None:
    counter = tmp_path / "runs"
    write_profile(sha256_repo, {"ok": counting(counter)}, {"e": ["ok"]}, default="e")
    result = run_correx(sha256_repo, "verify")
    assert result.code == 2, result
    assert "sha256 object format" in result.stderr and "Traceback" not in result.stderr
    assert runs_counted(counter) == 0 and not has_ledger(sha256_repo)


@pytest.mark.parametrize("command", [["log"], ["replay"], ["show"], ["sync"],
                                     ["assess", "write", "README.md"]])
def test_ledger_commands_name_the_object_format(sha256_repo: Path, command: list[str]) -> None:
    result = run_correx(sha256_repo, *command)
    assert result.code == 2, result
    assert "sha256 object format" in result.stderr and "Traceback" not in result.stderr


def test_state_is_gits_own_sha256_tree(sha256_repo: Path) -> None:
    result = run_correx(sha256_repo, "state")
    assert result.code == 0, result
    assert result.stdout.strip() == git(sha256_repo, "rev-parse", "HEAD^{tree}").strip()
    assert len(result.stdout.strip()) == 64


def test_state_follows_the_user_index_in_a_sha256_repository(sha256_repo: Path) -> None:
    """The kept index made again after a commit drops and rewrites entries (`--index-info`
    lines carry the repository's own object id length)."""
    assert run_correx(sha256_repo, "state").code == 0
    write(sha256_repo, "src/new.py", "x = 1\n")
    git(sha256_repo, "rm", "-q", "README.md")
    git(sha256_repo, "add", "-A")
    git(sha256_repo, "commit", "-q", "-m", "moved")
    write(sha256_repo, "src/new.py", "x = 2\n")
    result = run_correx(sha256_repo, "state")
    assert result.code == 0, result
    git(sha256_repo, "add", "-A")
    assert result.stdout.strip() == git(sha256_repo, "write-tree").strip()


@pytest.mark.parametrize("stage", [None, "implement"], ids=["no-stage", "stage"])
def test_doctor_says_the_hooks_cannot_check_a_commit_here(sha256_repo: Path,
                                                          stage: str | None) -> None:
    """The hooks read the profile at HEAD (and record what they block) through libgit2: in
    a repository it cannot read, every commit of a selected stage is stopped, even one the
    manifest allows. doctor says so, instead of "git will run the manifest check"."""
    write(sha256_repo, ".correx.toml", '[stages.implement]\nwrites = ["/src/**"]\n')
    git(sha256_repo, "add", "-A")
    git(sha256_repo, "commit", "-q", "-m", "profile")
    install(sha256_repo)
    if stage is not None:
        git(sha256_repo, "config", "correx.stage", stage)
        stage_file(sha256_repo, "src/allowed.py", "x = 1\n")
        refused = commit(sha256_repo)  # the claim doctor makes, seen through git itself
        assert refused.code != 0 and "sha256 object format" in refused.stderr, refused
    result = run_correx(sha256_repo, "doctor")
    assert result.code == 1, result
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1 and "sha256" in failed[0] and "libgit2" in failed[0], result
    assert "stopped" in failed[0] and "enforced" not in result.stdout, result
    assert result.stdout.splitlines()[-1].startswith("git will NOT run"), result
