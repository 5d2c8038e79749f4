"""A configuration file git cannot parse, told apart from every other git failure.

git refuses to run at all while a config file it reads is malformed (`fatal: bad config
line 3 in file …`, `bad boolean config value …`). That is the operator's file to fix, so it
is a ConfigError (exit 2) in git's own words, whichever git process met it first —
discovery or a config read — never the exit 3 of an unavailable git.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError

_MARKS = ("bad config", "config value")


def config_file_error(stderr: str) -> ConfigError | None:
    """The ConfigError for git's complaint about a config file; None for any other failure."""
    for line in stderr.splitlines():
        reason = line.removeprefix("fatal: ").strip()
        if line.startswith("fatal: ") and any(mark in reason for mark in _MARKS):
            return ConfigError(f"git cannot read its configuration: {reason}",
                               hint="fix the file it names (`git config --edit` for this "
                                    "repository's own) and try again")
    return None
