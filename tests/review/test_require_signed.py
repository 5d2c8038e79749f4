"""`check --require-pass --require-signed` (and `correx.requireSigned`): a pass counts only
when the ledger commit that added it is signed by a key git trusts; a forged line counts not.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.review.test_require_pass import topic_commit
from tests.review.test_signatures import PRINCIPAL, configure_signing, ssh_key

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
Correx = Callable[..., CliResult]


def gate(correx: Correx, repo: Path, base: str, *flags: str) -> CliResult:
    return correx(repo, "check", f"{base}..HEAD", "--require-pass", *flags)


def test_a_pass_signed_by_an_allowed_key_counts(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, tree, "pass")
    result = gate(correx, repo, base, "--require-signed")
    assert result.code == 0, result
    assert f"verified signer {PRINCIPAL}" in result.stdout
    document = json.loads(gate(correx, repo, base, "--require-signed", "--json").stdout)
    assert document["required_pass"]["result"] == "pass"
    assert document["required_pass"]["signature"]["state"] == "verified"


def test_an_unsigned_pass_does_not_count(repo: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    verify_tree(repo, tree, "pass")
    assert gate(correx, repo, base).code == 0  # without signatures the line is believed
    result = gate(correx, repo, base, "--require-signed")
    assert result.code == 1, result
    assert tree[:12] in result.stdout and "is unsigned" in result.stdout
    git(repo, "config", "correx.requireSigned", "true")
    assert gate(correx, repo, base).code == 1


def test_a_pass_signed_by_a_key_not_in_the_allowed_signers_does_not_count(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "allowed"), tmp_path)  # allowed_signers: it
    git(repo, "config", "user.signingKey", str(ssh_key(tmp_path, "stranger")))
    verify_tree(repo, tree, "pass")
    result = gate(correx, repo, base, "--require-signed")
    assert result.code == 1, result
    assert "does not trust" in result.stdout


def test_a_forged_pass_after_a_signed_fail_neither_passes_nor_hides_the_fail(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, tree, "fail", seconds=1)
    git(repo, "config", "correx.sign", "false")  # whoever can push the ref appends a line
    verify_tree(repo, tree, "pass", seconds=2)
    assert gate(correx, repo, base).code == 0
    result = gate(correx, repo, base, "--require-signed")
    assert result.code == 1, result
    assert "✗ fail" in result.stdout
