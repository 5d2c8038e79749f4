"""Whose pass `verify --reuse` may reuse, in one clone: what "own" means, and the
`correx.trustedSigners` setting (across clones: tests/sync/test_sync_trusted_reuse.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.verification import TrustBasis
from tests.conftest import CliResult, git
from tests.git.state_helpers import reference_key
from tests.trusted_writer import PRINCIPAL, sign_ledger_tip
from tests.verify.conftest import fields_of, runs_counted
from tests.verify.test_verify_modes import counted_project, verify

Correx = Callable[..., CliResult]


def test_an_own_pass_is_reused_and_says_it_was_written_here(
        repo: Path, outside: Path, correx: Correx) -> None:
    counted_project(repo, outside / "runs")
    verify(correx, repo)
    reused = fields_of(verify(correx, repo, "--reuse"))
    assert reused.reused_trust is not None
    assert reused.reused_trust.basis is TrustBasis.OWN
    assert reused.reused_trust.signer is None and runs_counted(outside / "runs") == 1


def test_a_pass_added_with_git_notes_in_this_clone_is_not_own(
        repo: Path, outside: Path, correx: Correx) -> None:
    """The same identity, the same clone, but not git correx's writer: a line `git notes`
    added (as an agent with a shell could) is another writer's, and it is unsigned."""
    from tests.ledger_facts import note_line

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    forged = note_line(repo, key, original.kind, dict(original.model_extra or {}),
                       state_key=key)
    result = correx(repo, "verify", "--reuse")
    assert result.code == 0, result
    assert runs_counted(outside / "runs") == 2
    assert f"not reused: pass {forged[:12]} by Ada Tester <ada@example.test> on testhost " \
           "not trusted" in result.stdout, result
    assert "is unsigned" in result.stdout, result


def test_a_pass_signed_by_a_listed_key_is_reused_with_its_signer(
        repo: Path, outside: Path, correx: Correx) -> None:
    from tests.ledger_facts import note_line

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    note_line(repo, key, original.kind, dict(original.model_extra or {}), state_key=key)
    signed = sign_ledger_tip(repo, outside)
    reused = fields_of(verify(correx, repo, "--reuse"))
    trusted = reused.reused_trust
    assert trusted is not None and trusted.basis is TrustBasis.SIGNED
    assert (trusted.signer, trusted.ledger_commit) == (PRINCIPAL, signed)
    assert runs_counted(outside / "runs") == 1


def test_trusted_signers_replaces_the_allowed_signers_file(
        repo: Path, outside: Path, correx: Correx) -> None:
    """`correx.trustedSigners` (relative: to the work tree) is the list every trust
    judgement checks: a key only in `gpg.ssh.allowedSignersFile` then counts for nothing."""
    from tests.ledger_facts import note_line

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    note_line(repo, key, original.kind, dict(original.model_extra or {}), state_key=key)
    sign_ledger_tip(repo, outside)
    (repo / "ignored").mkdir()
    (repo / "ignored" / "nobody").write_text("")  # ignored: not part of the state key
    git(repo, "config", "correx.trustedSigners", "ignored/nobody")
    result = correx(repo, "verify", "--reuse", "--json")
    assert result.code == 0, result
    assert runs_counted(outside / "runs") == 2
    assert "signed by a key git does not trust" in json.loads(result.stdout)["summary"]


def test_a_trusted_signers_file_that_is_not_there_is_exit_2(
        repo: Path, outside: Path, correx: Correx) -> None:
    from tests.ledger_facts import note_line

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    note_line(repo, key, original.kind, dict(original.model_extra or {}), state_key=key)
    git(repo, "config", "correx.trustedSigners", str(outside / "missing"))
    result = correx(repo, "verify", "--reuse")
    assert result.code == 2, result
    assert "correx.trustedSigners" in result.stderr and "missing" in result.stderr, result
    assert runs_counted(outside / "runs") == 1


def test_a_foreign_writers_name_cannot_start_a_line_of_the_summary(
        repo: Path, outside: Path, correx: Correx) -> None:
    """Any writer sets its own name: a line break (or a bidi override) in it is printed
    escaped, on the refusal's own line, never as a line of ours."""
    from tests.ledger_facts import note_line

    counted_project(repo, outside / "runs")
    original = verify(correx, repo)
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    note_line(repo, key, original.kind, dict(original.model_extra or {}), state_key=key,
              actor_extra={"name": "Mallory\npass (reused x): forged \u202eevil",
                           "host": "h\nhost"})
    result = correx(repo, "verify", "--reuse")
    assert result.code == 0, result
    assert not any(line.startswith("pass (reused") for line in result.stdout.splitlines())
    assert "Mallory\\npass (reused x): forged \\u202eevil" in result.stdout, result
    assert "on h\\nhost not trusted" in result.stdout, result
