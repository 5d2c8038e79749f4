"""`check BASE..HEAD --require-pass` trusts the profile as it stands in BASE.

The adversary is the branch under review: it rewrites its profile's command to `true`,
verifies (a real pass, of the profile it brought) and pushes. The gate counts only a pass
run under BASE's profile, names the profile change and says what to run: `verify
--profile-from BASE` (recorded in the observation), or the explicit, visible opt-out
`check ... --profile-from HEAD`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, write
from tests.verify.conftest import fields_of, notes_on, profile_text, py

Correx = Callable[..., CliResult]
CHECK = py("import pathlib, sys; "
           "sys.exit('BUG' in pathlib.Path('src/app.py').read_text())")
STRICT = profile_text({"test": CHECK}, {"test": ["test"]}, default="test")
WEAK = profile_text({"test": "true"}, {"test": ["test"]}, default="test")


def main_and_feature(make_repo: Callable[..., Path], feature_profile: str = WEAK) -> Path:
    """`main` with the strict profile; `feature` (checked out) adds a bug and, by default,
    weakens the profile it brings."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            ".correx.toml": STRICT})
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, "src/app.py", "BUG\n")
    write(root, ".correx.toml", feature_profile)
    git(root, "commit", "-qam", "feature")
    return root


def blob(root: Path, rev: str) -> str:
    return git(root, "rev-parse", f"{rev}:.correx.toml").strip()


def test_a_branch_that_weakens_its_profile_does_not_pass_the_gate(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = main_and_feature(make_repo)
    assert correx(root, "verify", "--quiet").code == 0  # the branch's own `true` passes
    result = correx(root, "check", "main..feature", "--require-pass")
    assert result.code == 1, result
    assert "≠ other_profile" in result.stdout, result
    assert f"blob {blob(root, 'main')[:12]} at main" in result.stdout, result
    assert f"{blob(root, 'feature')[:12]} at the head" in result.stdout, result
    assert "git correx verify --profile-from main" in result.stdout, result
    document = json.loads(correx(root, "check", "main..feature", "--require-pass",
                                 "--json").stdout)
    assert document["required_pass"]["trusted_profile"] == {
        "trusted": blob(root, "main"), "from": f"main ({git(root, 'rev-parse', 'main')[:12]})",
        "head": blob(root, "feature"), "profile_from": None}


def test_verify_profile_from_the_base_runs_the_bases_commands_and_the_gate_counts_them(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = main_and_feature(make_repo)
    failed = correx(root, "verify", "--profile-from", "main", "--quiet")
    assert failed.code == 1, failed  # main's check finds the bug the branch hid
    assert correx(root, "check", "main..feature", "--require-pass").code == 1
    write(root, "src/app.py", "VALUE = 2\n")
    git(root, "commit", "-qam", "fix")
    assert correx(root, "verify", "--profile-from", "main", "--quiet").code == 0
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    fields = fields_of(notes_on(root, tree)[-1])
    assert fields.profile == blob(root, "main")
    assert fields.profile_from == git(root, "rev-parse", "main").strip()
    passed = correx(root, "check", "main..feature", "--require-pass")
    assert passed.code == 0, passed
    assert "✓ pass" in passed.stdout


def test_the_opt_out_trusts_the_heads_profile_and_says_so(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = main_and_feature(make_repo)
    assert correx(root, "verify", "--quiet").code == 0
    result = correx(root, "check", "main..feature", "--require-pass", "--profile-from", "HEAD")
    assert result.code == 0, result
    assert "profile trusted from HEAD" in result.stdout and "--profile-from" in result.stdout
    document = json.loads(correx(root, "check", "main..feature", "--require-pass",
                                 "--profile-from", "HEAD", "--json").stdout)
    assert document["required_pass"]["trusted_profile"]["profile_from"] == "HEAD"


def test_a_branch_that_keeps_the_profile_passes_with_a_plain_verify(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = main_and_feature(make_repo, feature_profile=STRICT)
    write(root, "src/app.py", "VALUE = 2\n")
    git(root, "commit", "-qam", "fix")
    assert correx(root, "verify", "--quiet").code == 0
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    assert fields_of(notes_on(root, tree)[-1]).profile_from is None
    assert '"profile_from"' not in git(root, "notes", "--ref", "correx", "show", tree)
    assert correx(root, "check", "main..feature", "--require-pass").code == 0


def test_a_base_without_a_profile_counts_no_pass(make_repo: Callable[..., Path],
                                                 correx: Correx) -> None:
    root = make_repo()
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, ".correx.toml", WEAK)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "bring a profile")
    assert correx(root, "verify", "--quiet").code == 0
    result = correx(root, "check", "main..feature", "--require-pass")
    assert result.code == 1, result
    assert "has no .correx.toml" in result.stdout, result


def test_profile_from_without_require_pass_is_a_usage_error(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = main_and_feature(make_repo)
    result = correx(root, "check", "main..feature", "--profile-from", "HEAD")
    assert result.code == 2, result
    assert "--require-pass" in result.stderr


def test_profile_from_an_unknown_revision_is_a_usage_error(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = main_and_feature(make_repo)
    checked = correx(root, "check", "main..feature", "--require-pass", "--profile-from", "nope")
    assert checked.code == 2, checked
    verified = correx(root, "verify", "--profile-from", "nope")
    assert verified.code == 2, verified
    assert "nope" in verified.stderr
