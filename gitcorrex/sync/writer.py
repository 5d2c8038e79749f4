"""This clone's writer id: the name of the one remote ref only this clone pushes to.

`git config correx.writer` when set (an operator may name a CI runner or an agent); else
one is made the first time the clone syncs — the host name, cut to ref-safe characters,
and 8 random hex digits — and stored in the repository's config, so it stays the same for
the clone's life. Two clones with one id (a copied `.git`, a config shared by hand) still
lose nothing: their pushes to that ref race as every clone's did on the shared ref, and the
loser fetches, unites and pushes again.
"""

from __future__ import annotations

import re
import secrets
import socket

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, config_value, set_config_value

KEY = "correx.writer"
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def writer_id(repo: Repository) -> str:
    """The configured id (checked), else a new one, stored (see the module doc)."""
    configured = config_value(repo, KEY)
    if configured is not None:
        if not _VALID.fullmatch(configured):
            raise ConfigError(
                f"git config {KEY}: {configured!r} cannot name a ref",
                hint="use 1-64 letters, digits, '-' or '_', starting with a letter or digit "
                     f"(or `git config --unset {KEY}` to get a generated one)",
            )
        return configured
    set_config_value(repo, KEY, new_writer_id(socket.gethostname()))
    return writer_id(repo)  # a concurrent first sync may have stored its own: use that


def new_writer_id(host: str) -> str:
    """`<host>-<8 hex>`: readable in `git ls-remote`, unique without coordination."""
    name = re.sub(r"[^a-z0-9-]+", "-", host.split(".")[0].lower()).strip("-")[:32]
    return f"{name or 'clone'}-{secrets.token_hex(4)}"
