"""The repository's salt for hashing declared variables' values in a fingerprint.

A fingerprint travels with the ledger to every clone; a plain hash of a short secret (a
token, a password someone declared) could be found by trying values. So each value is an
HMAC under a salt the ledger never holds: `git config correx.environmentSalt` when set (set
the same value on CI and developer machines whose passes should compare equal), else a
random one made once per clone and kept in `<common dir>/correx/environment-salt`. Two
clones with different salts never see equal variable hashes: their passes are not reused
across each other when a declared variable is set (a rerun, never a false reuse).
"""

from __future__ import annotations

import secrets

from gitcorrex.git import Repository, config_value, read_local_state, write_local_state

SALT_CONFIG = "correx.environmentSalt"
SALT_FILE = "environment-salt"


def repository_salt(repo: Repository) -> bytes:
    """The configured salt, else this clone's (made now if it has none)."""
    configured = config_value(repo, SALT_CONFIG)
    if configured:
        return configured.encode("utf-8", "surrogateescape")
    kept = read_local_state(repo, SALT_FILE)
    if kept and kept.strip():
        return kept.strip().encode("ascii")
    write_local_state(repo, SALT_FILE, secrets.token_hex(32) + "\n")
    kept = read_local_state(repo, SALT_FILE)  # a concurrent first run may have won
    return (kept or secrets.token_hex(32)).strip().encode("ascii")
