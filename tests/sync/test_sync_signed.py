"""Signatures survive sharing: a synced event keeps the signer of the clone that recorded it,
and a merge made by `sync` is signed like any ledger commit when `correx.sign` is on."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.review.test_signatures import PRINCIPAL, configure_signing, ssh_key

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
REF = "refs/notes/correx"


def test_synced_status_shows_the_recording_clones_signer(
    shared_remote: Callable[[int], list[Path]], tmp_path: Path,
    correx: Callable[..., CliResult],
) -> None:
    signed, plain = shared_remote(2)
    configure_signing(signed, ssh_key(tmp_path, "key"), tmp_path)
    git(plain, "config", "gpg.ssh.allowedSignersFile", str(tmp_path / "allowed_signers"))
    head = git(plain, "rev-parse", "HEAD^{tree}").strip()
    other = git(plain, "mktree", input=b"").strip()  # the empty tree: a second state
    verify_tree(signed, head, "pass", seconds=1)
    verify_tree(plain, other, "pass", seconds=2)
    assert correx(plain, "sync").code == 0
    assert correx(signed, "sync").code == 0  # merges: a signed merge commit
    git(signed, "verify-commit", REF)
    assert len(git(signed, "rev-list", "--parents", "-n", "1", REF).split()) == 3
    assert correx(plain, "sync").code == 0
    result = correx(plain, "log", "-n", "1", "--verify-signatures", "--json")
    signer = json.loads(result.stdout)["commits"][0]["signer"]
    assert (signer["state"], signer["signer"]) == ("verified", PRINCIPAL)
    recorded_by = git(plain, "log", "-1", "--format=%ce", signer["ledger_commit"]).strip()
    assert recorded_by != PRINCIPAL  # the name shown came from the key, not this field


def test_the_signed_gate_accepts_a_pass_signed_in_another_clone_after_sync(
    shared_remote: Callable[[int], list[Path]], tmp_path: Path,
    correx: Callable[..., CliResult],
) -> None:
    signed, plain = shared_remote(2)
    configure_signing(signed, ssh_key(tmp_path, "key"), tmp_path)
    git(plain, "config", "gpg.ssh.allowedSignersFile", str(tmp_path / "allowed_signers"))
    head = git(plain, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(signed, head, "pass", seconds=1)
    verify_tree(plain, git(plain, "mktree", input=b"").strip(), "pass", seconds=2)  # diverge
    assert correx(signed, "sync").code == 0
    assert correx(plain, "sync").code == 0  # an unsigned merge in this clone
    gate = correx(plain, "check", "HEAD..HEAD", "--require-signed")
    assert gate.code == 0, gate
    assert f"verified signer {PRINCIPAL}" in gate.stdout
