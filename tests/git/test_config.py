"""Git configuration is read one way, as git resolves it: includes, `git -c`, GIT_CONFIG_COUNT,
per-worktree config; and a value written meanwhile by another process is seen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError, ExitCode
from gitcorrex.git.config import canonical_key, config_value, config_values, read_config
from gitcorrex.git.repository import discover
from tests.conftest import CliResult, git


def value(root: Path, key: str) -> str | None:
    return config_value(discover(root), key)


def test_an_included_file_is_read_and_its_edit_seen(repo: Path, tmp_path: Path) -> None:
    included = tmp_path / "team.gitconfig"
    included.write_text("[correx]\n\tstage = implement\n")
    git(repo, "config", "include.path", str(included))
    assert value(repo, "correx.stage") == "implement"
    included.write_text("[correx]\n\tstage = docs-and-more\n")
    assert value(repo, "correx.stage") == "docs-and-more"


def test_git_config_count_environment_is_honoured(repo: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    git(repo, "config", "correx.stage", "implement")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "correx.stage")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "from-env")
    assert value(repo, "correx.stage") == "from-env"
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "changed")
    assert value(repo, "correx.stage") == "changed"


def test_git_dash_c_parameters_are_honoured(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`git -c correx.stage=docs commit` hands its hooks GIT_CONFIG_PARAMETERS."""
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'correx.stage'='docs'")
    assert value(repo, "correx.stage") == "docs"


def test_worktree_config_belongs_to_its_worktree(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    git(repo, "config", "extensions.worktreeConfig", "true")
    git(linked, "config", "--worktree", "correx.session", "s-linked")
    assert value(linked, "correx.session") == "s-linked"
    assert value(repo, "correx.session") is None
    assert config_value(discover(repo), "correx.session", cwd=linked) == "s-linked"


def test_a_write_by_another_process_is_seen(repo: Path) -> None:
    assert value(repo, "correx.stage") is None
    git(repo, "config", "correx.stage", "implement")
    assert value(repo, "correx.stage") == "implement"
    git(repo, "config", "--unset", "correx.stage")
    assert value(repo, "correx.stage") is None


def test_keys_match_as_git_spells_them(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    git(repo, "config", "remote.Upstream.url", "/elsewhere")
    git(repo, "config", "correx.requireSigned", "true")
    found = config_values(discover(repo),
                          ("core.hookspath", "remote.Upstream.url", "correx.requireSigned",
                           "remote.upstream.url"))
    assert found == {"core.hookspath": ".githooks", "remote.Upstream.url": "/elsewhere",
                     "correx.requireSigned": "true"}
    assert canonical_key("Remote.Upstream.URL") == "remote.Upstream.url"


def test_the_last_value_wins_and_a_bare_key_reads_empty(repo: Path) -> None:
    git(repo, "config", "--add", "correx.stage", "first")
    git(repo, "config", "--add", "correx.stage", "second")
    with (repo / ".git" / "config").open("a") as config:
        config.write("[correx]\n\tsign\n")
    assert value(repo, "correx.stage") == "second"
    assert value(repo, "correx.sign") == ""
    assert read_config(repo).matching(r"^correx\.s") == [
        "correx.stage\nfirst", "correx.stage\nsecond", "correx.sign"]


def test_a_config_git_cannot_parse_is_a_configuration_error(repo: Path,
                                                             tmp_path: Path) -> None:
    included = tmp_path / "broken.gitconfig"
    included.write_text("[correx]\n\tstage = fine\n")
    git(repo, "config", "include.path", str(included))
    repository = discover(repo)
    assert config_value(repository, "correx.stage") == "fine"
    included.write_text("[correx\n")
    with pytest.raises(ConfigError) as caught:
        config_value(repository, "correx.stage")
    assert caught.value.exit_code == ExitCode.USAGE
    assert str(included) in str(caught.value)


def test_check_takes_the_stage_from_git_dash_c(make_repo: Callable[..., Path],
                                               correx: Callable[..., CliResult]) -> None:
    """A stage given as `git -c correx.stage=impl correx check …` is the manifest in force."""
    root = make_repo(files={".correx.toml": 'version = 1\n[stages.impl]\nwrites = ["/src/**"]\n',
                            "src/app.py": "print(1)\n", "protected.txt": "keep\n"})
    git(root, "checkout", "-q", "-b", "feature")
    (root / "protected.txt").write_text("changed\n")
    git(root, "commit", "-qam", "sneaky")
    plain = correx(root, "check", "main..HEAD")
    staged = correx(root, "check", "main..HEAD",
                    env={"GIT_CONFIG_PARAMETERS": "'correx.stage'='impl'"})
    assert (plain.code, staged.code) == (0, 1), (plain, staged)


def test_a_broken_config_file_is_exit_2_before_anything_runs(
        repo: Path, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    """git refuses to start while a file it reads is malformed: the operator's to fix (2),
    not git unavailable (3), whichever command meets it first."""
    included = tmp_path / "broken.gitconfig"
    included.write_text("[correx\n")
    git(repo, "config", "include.path", str(included))
    for command in (("state",), ("verify",), ("hooks", "status")):
        result = correx(repo, *command)
        assert result.code == 2, result
        assert result.stderr.startswith("git correx: error: git cannot read its configuration: "
                                        "bad config line 1 in file "), result
        assert "broken.gitconfig" in result.stderr
