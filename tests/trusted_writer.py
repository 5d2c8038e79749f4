"""Another writer the repository trusts: a ledger commit signed by a key in its allowed signers.

A line added with `git notes` (tests/ledger_facts.py `note_line`) comes from a ledger commit
this clone's writer did not make, so `verify --reuse` and the Stop gate do not reuse it
unless it is signed by an allowed signer (verify/reuse_trust.py). Tests that are about
another binding (the state key, the profile) sign it, so the binding under test is the only
reason left to refuse it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import git

PRINCIPAL = "ci-runner@ci.example"
REF = "refs/notes/correx"


def ssh_key(directory: Path, name: str) -> Path:
    """A fresh ed25519 key pair without passphrase: `directory/name` and `.pub`."""
    key = directory / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
                   check=True)
    return key


def allowed_signers(path: Path, key: Path, principal: str = PRINCIPAL) -> Path:
    """An ssh allowed signers file listing `key` for `principal`."""
    path.write_text(f"{principal} {key.with_suffix('.pub').read_text()}")
    return path


def sign_ledger_tip(repo: Path, keys: Path) -> str:
    """Re-make the ledger tip as the same commit signed by a key `repo` trusts (listed in
    `gpg.ssh.allowedSignersFile`), as a CI runner's signed ledger commit arrives; the new
    tip. The repository's own signing settings are left as they were."""
    key = ssh_key(keys, "trusted-writer")
    git(repo, "config", "gpg.ssh.allowedSignersFile",
        str(allowed_signers(keys / "allowed_signers", key)))
    tip = git(repo, "rev-parse", REF).strip()
    parents = git(repo, "rev-list", "--parents", "-n", "1", tip).split()[1:]
    tree = git(repo, "rev-parse", f"{tip}^{{tree}}").strip()
    args = ["-c", "gpg.format=ssh", "-c", f"user.signingKey={key}", "commit-tree", "-S", tree,
            "-m", "git correx: record 1 event(s)"]
    for parent in parents:
        args += ["-p", parent]
    signed = git(repo, *args).strip()
    git(repo, "update-ref", REF, signed, tip)
    return signed
