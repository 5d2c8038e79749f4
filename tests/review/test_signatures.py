"""`correx.sign`: ledger commits signed with the user's git setup; the signer shown by
`log --verify-signatures` is the verified key's principal, never the committer field."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.trusted_writer import ssh_key

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
REF = "refs/notes/correx"
PRINCIPAL = "release-signer@ci.example"


def configure_signing(repo: Path, key: Path, tmp_path: Path, *, allowed: bool = True) -> None:
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingKey", str(key))
    git(repo, "config", "correx.sign", "true")
    if allowed:
        signers = tmp_path / "allowed_signers"
        signers.write_text(f"{PRINCIPAL} {key.with_suffix('.pub').read_text()}")
        git(repo, "config", "gpg.ssh.allowedSignersFile", str(signers))


def head_status(correx: Callable[..., CliResult], repo: Path) -> dict[str, object]:
    result = correx(repo, "log", "-n", "1", "--verify-signatures", "--json")
    assert result.code == 0, result
    signer: dict[str, object] = json.loads(result.stdout)["commits"][0]["signer"]
    return signer


def test_signed_ledger_commit_shows_the_verified_principal(
    repo: Path, tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip())
    git(repo, "verify-commit", REF)  # git itself accepts the signature
    signer = head_status(correx, repo)
    assert signer["state"] == "verified" and signer["signer"] == PRINCIPAL
    assert str(signer["key"]).startswith("SHA256:")
    assert signer["ledger_commit"] == git(repo, "rev-parse", REF).strip()
    text = correx(repo, "log", "-n", "1", "--verify-signatures").stdout
    assert f"verified signer {PRINCIPAL}" in text and "ada@example.test" in text


def test_committer_field_never_names_the_signer(
    repo: Path, tmp_path: Path, correx: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", PRINCIPAL)  # the committer claims to be the signer
    verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip())
    assert git(repo, "log", "-1", "--format=%ce", REF).strip() == PRINCIPAL
    signer = head_status(correx, repo)
    assert signer == {"ledger_commit": git(repo, "rev-parse", REF).strip(),
                      "state": "unsigned", "signer": None, "key": None}


def test_signature_git_cannot_check_is_unverifiable(
    repo: Path, tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path, allowed=False)
    verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip())
    signer = head_status(correx, repo)
    assert (signer["state"], signer["signer"]) == ("unverifiable", None)


def test_the_signer_is_that_of_the_commit_that_recorded_the_status(
    repo: Path, tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree, seconds=1)
    unsigned = git(repo, "rev-parse", REF).strip()
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    other = git(repo, "hash-object", "-w", "--stdin", input=b"other\n").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{other},other.txt")
    verify_tree(repo, git(repo, "write-tree").strip(), seconds=2)  # a signed, later commit
    signer = head_status(correx, repo)
    assert (signer["ledger_commit"], signer["state"]) == (unsigned, "unsigned")


def test_signing_that_fails_records_nothing_and_exits_2(
    make_repo: Callable[..., Path], tmp_path: Path, correx: Callable[..., CliResult]
) -> None:
    repo = make_repo(files={".correx.toml": 'version = 1\n[commands]\nok = "true"\n'
                            '[expectations]\nok = ["ok"]\n[defaults]\nexpectation = "ok"\n'})
    configure_signing(repo, tmp_path / "missing-key", tmp_path, allowed=False)
    result = correx(repo, "verify", "--quiet")
    assert result.code == 2, result
    assert "correx.sign" in result.stderr
    assert subprocess.run(["git", "rev-parse", "-q", "--verify", REF], cwd=repo,
                          capture_output=True).returncode == 1
