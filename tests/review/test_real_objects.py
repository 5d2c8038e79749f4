"""Signatures are judged on the real ledger objects: `refs/replace/*` and grafts change
nothing `check --require-signed` or `log --verify-signatures` concludes.

Whoever can write the repository (or push `refs/replace/*` to it) can make git show one
object in place of another, and grafts (`info/grafts`, `.git/shallow`) can make git and
libgit2 show a commit with other parents. Each attack below once made a forged line count
as signed, or hid a signed result, until every reader judged the real objects.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, write
from tests.ledger_facts import verify_tree
from tests.review.test_require_pass import topic_commit
from tests.review.test_signatures import PRINCIPAL, REF, configure_signing, ssh_key

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
Correx = Callable[..., CliResult]


def gate(correx: Correx, repo: Path, base: str) -> CliResult:
    return correx(repo, "check", f"{base}..HEAD", "--require-pass", "--require-signed")


def tip(repo: Path) -> str:
    return git(repo, "rev-parse", REF).strip()


def head_signer(correx: Correx, repo: Path) -> tuple[object, object]:
    """(ledger commit, state) `log --verify-signatures` shows for HEAD's status."""
    result = correx(repo, "log", "-n", "1", "--verify-signatures", "--json")
    assert result.code == 0, result
    signer = json.loads(result.stdout)["commits"][0]["signer"]
    return signer["ledger_commit"], signer["state"]


def unsigned_copy(repo: Path, commit: str, tree: str | None = None) -> str:
    """A commit like `commit` (its tree, or `tree`; its parents) with no signature."""
    parents = git(repo, "log", "-1", "--format=%P", commit).split()
    args = [arg for parent in parents for arg in ("-p", parent)]
    return git(repo, "commit-tree", tree or f"{commit}^{{tree}}", *args, "-m", "forged").strip()


def test_a_forged_pass_replaced_by_a_signed_commit_is_still_unsigned(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, tree, "fail", seconds=1)
    signed = tip(repo)
    git(repo, "config", "correx.sign", "false")  # whoever can push the ref appends a line
    verify_tree(repo, tree, "pass", seconds=2)
    forged = tip(repo)
    git(repo, "replace", forged, signed)  # git now shows the signed commit in its place
    result = gate(correx, repo, base)
    assert result.code == 1, result
    assert "✗ fail" in result.stdout
    assert head_signer(correx, repo) == (forged, "unsigned")


def test_a_signed_pass_replaced_by_an_unsigned_copy_still_counts(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, tree, "pass")
    signed = tip(repo)
    git(repo, "replace", signed, unsigned_copy(repo, signed))
    result = gate(correx, repo, base)
    assert result.code == 0, result
    assert f"verified signer {PRINCIPAL}" in result.stdout
    assert head_signer(correx, repo) == (signed, "verified")


def test_a_signed_fail_replaced_by_a_commit_without_it_is_still_read(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, tree, "pass", seconds=1)
    older = tip(repo)
    verify_tree(repo, tree, "fail", seconds=2)
    newer = tip(repo)  # the signed fail, replaced by a commit holding only the older pass
    git(repo, "replace", newer, unsigned_copy(repo, newer, tree=f"{older}^{{tree}}"))
    result = gate(correx, repo, base)
    assert result.code == 1, result
    assert "✗ fail" in result.stdout


def forged_pass_under_a_signed_commit(repo: Path, tmp_path: Path) -> tuple[str, str, str]:
    """A signed fail, a forged (unsigned) pass on the same tree, then a signed line on
    another tree on top: (base, the signed fail, the signed commit on top)."""
    base, tree = topic_commit(repo)
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    verify_tree(repo, tree, "fail", seconds=1)
    signed_fail = tip(repo)
    git(repo, "config", "correx.sign", "false")
    verify_tree(repo, tree, "pass", seconds=2)
    git(repo, "config", "correx.sign", "true")
    verify_tree(repo, git(repo, "rev-parse", f"{base}^{{tree}}").strip(), "pass", seconds=3)
    return base, signed_fail, tip(repo)


def test_a_graft_cannot_make_a_signed_commit_introduce_a_forged_pass(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, signed_fail, on_top = forged_pass_under_a_signed_commit(repo, tmp_path)
    write(repo, ".git/info/grafts", f"{on_top} {signed_fail}\n")  # the forged one skipped
    result = gate(correx, repo, base)
    assert result.code == 1, result
    assert "✗ fail (a signed pass is required)" in result.stdout


def test_a_shallow_boundary_cannot_make_a_signed_commit_introduce_a_forged_pass(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    base, _, on_top = forged_pass_under_a_signed_commit(repo, tmp_path)
    write(repo, ".git/shallow", f"{on_top}\n")  # git and libgit2 see no parents above it
    result = gate(correx, repo, base)
    assert result.code == 1, result
    assert "✗ fail (a signed pass is required)" in result.stdout


def test_a_ledger_cut_below_a_signed_commit_vouches_for_nothing_under_it(
        repo: Path, tmp_path: Path, correx: Correx) -> None:
    """A shallow fetch of the ledger: the commit that added the forged pass is absent, so
    who added it cannot be known — never the signer of the boundary commit above it."""
    base, _, on_top = forged_pass_under_a_signed_commit(repo, tmp_path)
    forged = git(repo, "log", "-1", "--format=%P", on_top).strip()
    write(repo, ".git/shallow", f"{on_top}\n")
    (repo / ".git" / "objects" / forged[:2] / forged[2:]).unlink()
    result = gate(correx, repo, base)
    assert result.code == 1, result
    assert "cannot be traced to the ledger commit that added it" in result.stdout
    assert "fetch all of it" in result.stdout
