"""The repository's salt for hashing declared variables' values in a fingerprint.

A fingerprint travels with the ledger to every clone, and a pass is reused only where the
fingerprint is equal (verify/reuse.py): so the value's hash must be the same on every
machine that runs the same thing, or a CI pass could never save a developer a run. Each
value is an HMAC-SHA256 under `git config correx.environmentSalt` when set, else under a
fixed, public salt. The default variables (`PYTHONPATH`, `NODE_OPTIONS`, `GOFLAGS`, …) are
not secrets; a declared variable that is one (a token, a password) could be confirmed by
anyone holding the ledger who guesses its value, unless the team sets the same private
`correx.environmentSalt` on its machines (git configuration, never in the ledger): clones
with different salts never see equal hashes, so their passes are not reused across each
other (a rerun, never a false reuse).
"""

from __future__ import annotations

from gitcorrex.git import Repository, config_value

SALT_CONFIG = "correx.environmentSalt"
PUBLIC_SALT = b"git correx environment fingerprint v1"


def repository_salt(repo: Repository) -> bytes:
    """The configured salt, else the public one every clone shares."""
    configured = config_value(repo, SALT_CONFIG)
    if configured:
        return configured.encode("utf-8", "surrogateescape")
    return PUBLIC_SALT
