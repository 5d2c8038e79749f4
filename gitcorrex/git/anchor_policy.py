"""Whether the ledger anchors workspace trees: `git config correx.anchorStates` (default true).

An anchored tree keeps the verified state alive through `git gc` and travels wherever the
ledger ref is pushed, uncommitted files included. Set it to false where such states must
not be published: trees are then left unanchored (a local `git gc` may prune the ones no
commit holds), and blobs (session objects, command output) are still anchored.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError
from gitcorrex.git.config import config_value
from gitcorrex.git.repository import Repository

ANCHOR_STATES_CONFIG = "correx.anchorStates"


def anchors_states(repo: Repository) -> bool:
    """The config value as a boolean; unset means true, anything but a boolean is exit 2."""
    value = config_value(repo, ANCHOR_STATES_CONFIG)
    if value is None or value.lower() in ("true", "yes", "on", "1", ""):
        return True
    if value.lower() in ("false", "no", "off", "0"):
        return False
    raise ConfigError(f"git config {ANCHOR_STATES_CONFIG}: {value!r} is not a boolean",
                      hint=f"`git config {ANCHOR_STATES_CONFIG} false` (or true)")
