"""Reading `.correx.toml` from disk: missing, unreadable, malformed, and its blob id."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.model.events import git_blob_oid
from gitcorrex.profiles.load import PROFILE_NAME, load_profile, parse_profile
from tests.conftest import git, write

PROFILE = 'version = 1\n[commands]\ntest = "make test"\n[expectations]\ntest = ["test"]\n'


def test_load_profile_keeps_bytes_path_and_blob_oid(repo: Path) -> None:
    path = write(repo, PROFILE_NAME, PROFILE)
    loaded = load_profile(repo)
    assert loaded.raw == PROFILE.encode()
    assert loaded.path == path
    assert loaded.blob_oid == git(repo, "hash-object", PROFILE_NAME).strip()
    assert loaded.profile.commands["test"].run == "make test"


def test_blob_oid_matches_git_for_empty_and_binary_bytes(tmp_path: Path) -> None:
    for data in (b"", b"\0\xff\n" * 100):
        proc = subprocess.run(["git", "hash-object", "--stdin"], input=data,
                              capture_output=True, check=True, cwd=tmp_path)
        assert git_blob_oid(data) == proc.stdout.decode().strip()


def test_missing_profile_says_to_run_init(repo: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_profile(repo)
    assert caught.value.message == f"no .correx.toml in {repo}"
    assert "git correx init" in (caught.value.hint or "")


def test_a_directory_in_place_of_the_profile_is_a_config_error(repo: Path) -> None:
    (repo / PROFILE_NAME).mkdir()
    with pytest.raises(ConfigError) as caught:
        load_profile(repo)
    assert "is a directory" in caught.value.message
    assert "must be a regular file" in caught.value.message


def test_an_unreadable_profile_is_a_config_error(repo: Path) -> None:
    path = write(repo, PROFILE_NAME, PROFILE)
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who reads every file")
        with pytest.raises(ConfigError) as caught:
            load_profile(repo)
    finally:
        path.chmod(0o644)
    assert "cannot read" in caught.value.message


def test_toml_syntax_error_gives_line_and_column() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_profile(b'version = 1\n[commands]\ntest = "make\n', source=".correx.toml")
    assert caught.value.message.startswith(".correx.toml: line 3, column ")
    assert "invalid TOML" in caught.value.message
    assert "toml.io" in (caught.value.hint or "")


def test_duplicate_key_is_a_syntax_error() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_profile(b"version = 1\nversion = 1\n", source=".correx.toml")
    assert caught.value.message.startswith(".correx.toml: line 2, column ")


def test_non_utf8_profile_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_profile(b'version = 1\n# caf\xe9\n', source=".correx.toml")
    assert caught.value.message == ".correx.toml: line 2 is not UTF-8"
    assert "UTF-8" in (caught.value.hint or "")


def test_errors_name_the_source_given() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_profile(b"version = 3\n", source="HEAD:.correx.toml")
    assert caught.value.message.startswith("HEAD:.correx.toml: version: ")
