"""The hook's manifest equals `manifest_at`'s, and its fast path stays light."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import gitcorrex.hooks
from gitcorrex.errors import ConfigError
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.repository import Repository, discover
from gitcorrex.hooks import manifest_cache
from gitcorrex.hooks.manifest_cache import base_manifest
from gitcorrex.manifest import trusted
from gitcorrex.model.manifest_rules import compile_rules
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.profiles import load
from gitcorrex.profiles import stage as stage_selection
from tests.conftest import REPO_ROOT, git, write
from tests.hooks.conftest import stage_file


def head_manifest(repo: Repository, stage: str) -> Manifest:
    head, profile = lookup_objects(repo, ["HEAD^{tree}", "HEAD^{tree}:.correx.toml"])
    assert head is not None
    return base_manifest(repo, base_tree=head.oid, profile=profile, base_label="HEAD",
                         stage=stage)


def cache_files(repo: Repository) -> list[Path]:
    return sorted(repo.common_dir.joinpath(*manifest_cache.CACHE_DIR).glob("*.json"))


def test_cached_manifest_equals_manifest_at(hooked: Path) -> None:
    repo = discover(hooked)
    expected = trusted.manifest_at(repo, base_tree=git(hooked, "rev-parse", "HEAD^{tree}")
                                   .strip(), base_label="HEAD", stage="implement")
    first = head_manifest(repo, "implement")
    assert len(cache_files(repo)) == 1
    second = head_manifest(repo, "implement")
    assert first == second == expected
    assert (second.patterns, second.source) == (expected.patterns, expected.source)


def test_second_read_comes_from_the_cache(hooked: Path) -> None:
    repo = discover(hooked)
    head_manifest(repo, "implement")
    (path,) = cache_files(repo)
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "writes": ["/marker/**"]}))
    assert head_manifest(repo, "implement").patterns == ("/marker/**",)


def test_the_cached_compilation_decides_without_pathspec(hooked: Path) -> None:
    repo = discover(hooked)
    head_manifest(repo, "implement")
    (path,) = cache_files(repo)
    record = json.loads(path.read_text())
    assert record["rules"] == [list(rule) for rule in compile_rules(("/src/**",))]
    other = [list(rule) for rule in compile_rules(("/marker/**",))]
    path.write_text(json.dumps({**record, "rules": other}))
    cached = head_manifest(repo, "implement")
    assert cached.allows("marker/x.py") and not cached.allows("src/app.py")


@pytest.mark.parametrize("change", [{"pathspec": "0.0.1"}, {"rules": [["(", 32, True]]},
                                    {"rules": [["^src/", "32", True]]}, {"rules": None}])
def test_a_compilation_from_another_pathspec_or_unusable_is_compiled_again(
        hooked: Path, change: dict[str, object]) -> None:
    repo = discover(hooked)
    head_manifest(repo, "implement")
    (path,) = cache_files(repo)
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, **change, "writes": ["/marker/**"]}))
    again = head_manifest(repo, "implement")
    assert again.patterns == ("/src/**",) and again.allows("src/app.py")
    assert json.loads(path.read_text())["rules"] == record["rules"]


def test_cache_of_another_version_is_ignored(hooked: Path) -> None:
    repo = discover(hooked)
    head_manifest(repo, "implement")
    (path,) = cache_files(repo)
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "correx": "0.0.0", "writes": ["/marker/**"]}))
    assert head_manifest(repo, "implement").patterns == ("/src/**",)


def test_invalid_profile_is_never_cached(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={".correx.toml": 'version = 1\n[stages.s]\nwrites = ["../x"]\n'})
    repo = discover(root)
    for _ in range(2):
        with pytest.raises(ConfigError, match=re.escape("stages.s.writes")):
            head_manifest(repo, "s")
    assert cache_files(repo) == []


def test_unknown_stage_is_refused_and_not_cached(hooked: Path) -> None:
    repo = discover(hooked)
    with pytest.raises(ConfigError, match=re.escape("no stage '../x'")):
        head_manifest(repo, "../x")
    assert cache_files(repo) == []


def test_allow_path_imports_no_pathspec_pydantic_pygit2_or_click(hooked: Path) -> None:
    stage_file(hooked, "src/app.py", "print(2)\n")
    argv = [sys.executable, "-X", "importtime", "-m", "gitcorrex", "hook", "run", "pre-commit"]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    for _ in range(2):  # the first run validates the profile and fills the cache
        proc = subprocess.run(argv, cwd=hooked, env=env, capture_output=True, check=False)
        assert proc.returncode == 0, proc.stderr.decode()
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines()}
    assert not {"pathspec", "pydantic", "pygit2", "click"} & imported


def test_hook_constants_match_their_owners() -> None:
    assert gitcorrex.hooks.STAGE_CONFIG == stage_selection.STAGE_CONFIG
    assert gitcorrex.hooks.PROFILE_NAME == load.PROFILE_NAME


def test_profile_edit_is_validated_again(hooked: Path) -> None:
    repo = discover(hooked)
    head_manifest(repo, "implement")
    write(hooked, ".correx.toml", (hooked / ".correx.toml").read_text().replace(
        '["/src/**"]', '["/src/**", "/tests/**"]'))
    git(hooked, "commit", "-q", "--no-verify", "-am", "widen")
    assert head_manifest(repo, "implement").patterns == ("/src/**", "/tests/**")
    assert len(cache_files(repo)) == 2


def test_a_step_manifest_is_compiled_once_and_never_for_other_patterns(hooked: Path) -> None:
    repo = discover(hooked)
    first = manifest_cache.compiled_manifest(repo, ("src/a.py",), "step 'S1'")
    (path,) = [p for p in cache_files(repo) if p.name.startswith("rules-")]
    assert json.loads(path.read_text())["writes"] == ["src/a.py"]
    again = manifest_cache.compiled_manifest(repo, ("src/a.py",), "step 'S1'")
    assert again == first and again.allows("src/a.py") and not again.allows("src/b.py")
    record = json.loads(path.read_text())  # a record for other patterns under that name
    path.write_text(json.dumps({**record, "writes": ["src/**"],
                                "rules": [list(r) for r in compile_rules(("src/**",))]}))
    other = manifest_cache.compiled_manifest(repo, ("src/a.py",), "step 'S1'")
    assert not other.allows("src/b.py")
