"""Trusted reuse across machines: clones sharing one ledger through a real `git daemon`.

A CI clone signs its ledger commits (ssh keys made here with ssh-keygen) and syncs; a
developer clone that lists the CI key reuses its pass without running anything (the
command writes a marker file next to the clone that ran it); an unsigned pass from another
writer, a pass signed by a key the developer does not list, and a foreign ledger put under
the ref by hand all run the commands, and `verify` says why.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gitcorrex.model.verification import VerificationFields
from tests.agents.conftest import claude, hook
from tests.conftest import CliResult, git, write
from tests.ledger_facts import verify_tree
from tests.sync.conftest import GitServer
from tests.trusted_writer import allowed_signers, ssh_key
from tests.verify.conftest import profile_text, py

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")

CI = "ci-runner@ci.example"
# the command leaves `<clone>.ran` beside the clone it ran in (outside every work tree)
MARKED = py("import os; open(os.path.join('..', os.path.basename(os.getcwd()) + '.ran'), "
            "'a').write('ran\\n')")
PROFILE = profile_text({"test": MARKED}, {"test": ["test"]}, default="test") + \
    "verify_before_stop = true\n"

Clones = Callable[..., list[Path]]


@pytest.fixture
def clones(git_server: GitServer, tmp_path: Path) -> Iterator[Clones]:
    """Factory: a served repository whose profile's one command marks where it ran, and a
    clone of it for each name."""

    def factory(*names: str) -> list[Path]:
        git(git_server.base, "init", "-q", "--bare", "shared.git")
        seed = tmp_path / "seed"
        seed.mkdir()
        git(seed, "init", "-q")
        write(seed, "app.py", "VALUE = 1\n")
        write(seed, ".correx.toml", PROFILE)
        git(seed, "add", "-A")
        git(seed, "commit", "-q", "-m", "initial")
        git(seed, "push", "-q", git_server.url_of("shared.git"), "HEAD:refs/heads/main")
        for name in names:
            git(tmp_path, "clone", "-q", git_server.url_of("shared.git"), name)
        return [tmp_path / name for name in names]

    yield factory


def ran_in(clone: Path) -> bool:
    return (clone.parent / f"{clone.name}.ran").exists()


def sign_as(clone: Path, key: Path) -> None:
    """Every ledger commit `clone` writes is signed with `key` (ssh)."""
    git(clone, "config", "gpg.format", "ssh")
    git(clone, "config", "user.signingKey", str(key))
    git(clone, "config", "correx.sign", "true")


def trust(clone: Path, signers: Path) -> None:
    git(clone, "config", "correx.trustedSigners", str(signers))


def verified_elsewhere(correx: Callable[..., CliResult], writer: Path) -> None:
    """`writer` runs the commands (they pass) and publishes its ledger."""
    ran = correx(writer, "verify", "--quiet")
    assert ran.code == 0 and ran_in(writer), ran
    assert correx(writer, "sync").code == 0


def reuse(correx: Callable[..., CliResult], clone: Path) -> tuple[CliResult, VerificationFields]:
    """`sync` then `verify --reuse --json` in `clone`: the result and the line it recorded."""
    assert correx(clone, "sync").code == 0
    result = correx(clone, "verify", "--reuse", "--json")
    assert result.code == 0, result
    event = json.loads(result.stdout)["event"]
    return result, VerificationFields.model_validate(
        {name: value for name, value in event.items()
         if name in VerificationFields.model_fields})


def test_a_signed_ci_pass_is_reused_by_a_clone_that_trusts_the_key(
        clones: Clones, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    ci, dev = clones("ci", "dev")
    key = ssh_key(tmp_path, "ci-key")
    sign_as(ci, key)
    trust(dev, allowed_signers(tmp_path / "trusted", key, CI))
    verify_tree(dev, git(dev, "mktree", input=b"").strip())  # dev's own line: sync merges
    verified_elsewhere(correx, ci)
    result, fields = reuse(correx, dev)
    assert not ran_in(dev), result  # the command did not run here
    trusted = fields.reused_trust
    assert trusted is not None and fields.reused_from is not None
    assert (trusted.basis.value, trusted.signer) == ("signed", CI)
    assert str(trusted.key).startswith("SHA256:")
    summary = json.loads(result.stdout)["summary"]
    assert f"signed by {CI}" in summary, summary


def test_show_and_report_say_whose_pass_was_reused_and_how_it_was_trusted(
        clones: Clones, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    ci, dev = clones("ci", "dev")
    key = ssh_key(tmp_path, "ci-key")
    sign_as(ci, key)
    trust(dev, allowed_signers(tmp_path / "trusted", key, CI))
    verified_elsewhere(correx, ci)
    reuse(correx, dev)
    again = correx(dev, "verify", "--reuse")  # now dev's own reuse line is the newest
    assert again.code == 0 and not ran_in(dev), again
    assert "written in the clone that reused it" in again.stdout, again
    shown = correx(dev, "show", "HEAD")
    assert shown.code == 0, shown
    assert f"signed by {CI} key SHA256:" in shown.stdout, shown
    assert "written in the clone that reused it" in shown.stdout, shown
    report = correx(dev, "report", "--format", "markdown")
    assert report.code == 0, report
    assert "in its own clone" in report.stdout, report


def test_an_unsigned_pass_from_another_writer_is_not_reused(
        clones: Clones, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    other, dev = clones("other", "dev")
    trust(dev, allowed_signers(tmp_path / "trusted", ssh_key(tmp_path, "ci-key"), CI))
    verified_elsewhere(correx, other)
    result, fields = reuse(correx, dev)
    assert ran_in(dev), result  # it ran
    assert fields.reused_from is None and fields.reused_trust is None
    summary = json.loads(result.stdout)["summary"]
    assert "not reused: pass" in summary and "on " in summary, summary
    assert "not trusted" in summary and "is unsigned" in summary, summary


def test_a_pass_signed_by_a_key_the_clone_does_not_trust_is_not_reused(
        clones: Clones, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    ci, dev = clones("ci", "dev")
    sign_as(ci, ssh_key(tmp_path, "rogue-key"))
    trust(dev, allowed_signers(tmp_path / "trusted", ssh_key(tmp_path, "ci-key"), CI))
    verified_elsewhere(correx, ci)
    result, fields = reuse(correx, dev)
    assert ran_in(dev), result
    assert fields.reused_from is None
    summary = json.loads(result.stdout)["summary"]
    assert "signed by a key git does not trust" in summary, summary


def test_a_foreign_ledger_put_under_the_ref_by_hand_is_not_own(
        clones: Clones, correx: Callable[..., CliResult]) -> None:
    """An adversary fetches another writer's unsigned ledger and points this clone's ledger
    ref at it (`git update-ref`): its pass did not come from this clone's writer, whatever
    its identity says, so it saves no run."""
    other, dev = clones("other", "dev")
    git(other, "config", "user.email", git(dev, "config", "user.email").strip())
    verified_elsewhere(correx, other)
    git(dev, "fetch", "-q", str(other), "+refs/notes/correx:refs/forged/correx")
    git(dev, "update-ref", "refs/notes/correx", "refs/forged/correx")
    result = correx(dev, "verify", "--reuse", "--json")
    assert result.code == 0, result
    assert ran_in(dev), result
    assert "not trusted" in json.loads(result.stdout)["summary"], result


def test_the_stop_gate_ends_the_turn_on_a_trusted_pass_only(
        clones: Clones, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    """The same change in three clones (one state key): an unsigned pass from another
    writer saves the developer's Stop gate nothing (it runs the check itself); on the next
    change a signed CI pass lets the agent end its turn with nothing run."""
    ci, dev, other = clones("ci", "dev", "other")
    key = ssh_key(tmp_path, "ci-key")
    sign_as(ci, key)
    trust(dev, allowed_signers(tmp_path / "trusted", key, CI))
    for clone in (dev, other):
        write(clone, "app.py", "VALUE = 2\n")
    verified_elsewhere(correx, other)
    assert correx(dev, "sync").code == 0
    stop = claude("Stop", dev)
    ended = hook(dev, "claude-code", stop)
    assert (ended.code, ended.stdout) == (0, ""), ended
    assert ran_in(dev)  # the unsigned pass was not taken: the gate ran the check
    (dev.parent / f"{dev.name}.ran").unlink()
    for clone in (ci, dev):
        write(clone, "app.py", "VALUE = 3\n")
    verified_elsewhere(correx, ci)
    assert correx(dev, "sync").code == 0
    allowed = hook(dev, "claude-code", stop)
    assert (allowed.code, allowed.stdout) == (0, ""), allowed
    assert not ran_in(dev)


def test_a_trusted_signed_merge_does_not_vouch_for_the_unsigned_pass_it_brought(
        clones: Clones, tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    """The CI clone (trusted key) unites an unsigned writer's pass into a merge it signs:
    the pass was still added by the unsigned commit below, so it saves no run."""
    other, ci, dev = clones("other", "ci", "dev")
    key = ssh_key(tmp_path, "ci-key")
    sign_as(ci, key)
    trust(dev, allowed_signers(tmp_path / "trusted", key, CI))
    verify_tree(ci, git(ci, "mktree", input=b"").strip())  # ci's own line: sync merges
    verified_elsewhere(correx, other)
    assert correx(ci, "sync").code == 0
    signers = str(tmp_path / "trusted")  # the merge is signed by the trusted key
    git(ci, "-c", f"gpg.ssh.allowedSignersFile={signers}", "verify-commit", "refs/notes/correx")
    assert len(git(ci, "rev-list", "--parents", "-n", "1", "refs/notes/correx").split()) == 3
    result, fields = reuse(correx, dev)
    assert ran_in(dev) and fields.reused_from is None, result
    assert "is unsigned" in json.loads(result.stdout)["summary"], result
