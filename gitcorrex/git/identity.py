"""Who writes to the ledger: the author and committer identities exactly as git forms them.

git reads `GIT_AUTHOR_*`/`GIT_COMMITTER_*` before `user.*`/`author.*`/`committer.*` config,
strips newlines, `<`, `>` and surrounding crud, and refuses an identity it cannot form
(`user.useConfigOnly`, an auto-detected address without a domain). libgit2 does none of
that: it wrote a newline in `user.name` into the ledger commit, which then no longer
parsed, and it ignored the environment CI sets. So we ask git itself (`git var`), once per
process and configuration, and hand libgit2 only what git produced. An identity git refuses,
or one with an empty email, is a ConfigError (exit 2) before anything is recorded.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from gitcorrex.errors import ConfigError, GitCommandError
from gitcorrex.git.background import in_background
from gitcorrex.git.config import file_stamp, user_config_files
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

IDENTITY_HINT = "set `git config user.name \"Your Name\"` and `git config user.email you@host`"
_ENV_KEYS = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
             "EMAIL", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM",
             "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS")


class Identity(NamedTuple):
    """A name and email as git would write them into a commit (never empty, no `<>`/LF)."""

    name: str
    email: str


class LedgerIdentity(NamedTuple):
    """The author (the person acting: event actors) and committer of ledger commits."""

    author: Identity
    committer: Identity


_CACHE: dict[tuple[object, ...], LedgerIdentity] = {}


def ledger_identity(repo: Repository) -> LedgerIdentity:
    """git's author and committer identities for `repo`; ConfigError (exit 2) when git
    refuses one. Cached until the environment or a config file git reads changes."""
    key = _cache_key(repo)
    found = _CACHE.get(key)
    if found is None:  # the two git processes overlap: ~2.5 ms instead of ~5 on a quiet host
        author = in_background(lambda: _git_ident(repo, "GIT_AUTHOR_IDENT"),
                               name="correx-identity")
        committer = _git_ident(repo, "GIT_COMMITTER_IDENT")
        found = LedgerIdentity(author=author(), committer=committer)
        _CACHE[key] = found
    return found


def _git_ident(repo: Repository, variable: str) -> Identity:
    """`git var GIT_*_IDENT` parsed: `Name <email> <time> <tz>`."""
    role = "author" if "AUTHOR" in variable else "committer"
    try:
        raw = run_git(["var", variable], cwd=repo.work_tree or repo.git_dir).stdout
    except GitCommandError as exc:
        reason = _last_fatal(exc.stderr) or "git cannot form one"
        raise ConfigError(f"no usable git {role} identity to record with: {reason}",
                          hint=IDENTITY_HINT) from exc
    text = raw.decode("utf-8", "replace").strip()
    name, _, rest = text.partition("<")
    email = rest.partition(">")[0]
    if not email.strip():
        raise ConfigError(f"the git {role} identity has an empty email ({name.strip()} <>)",
                          hint=IDENTITY_HINT)
    return Identity(name=name.strip(), email=email.strip())


def _last_fatal(stderr: str) -> str:
    """git's own reason ("unable to auto-detect email address …"), without its banner."""
    lines = [line for line in stderr.splitlines() if line.startswith("fatal: ")]
    return lines[-1].removeprefix("fatal: ").strip() if lines else ""


def _cache_key(repo: Repository) -> tuple[object, ...]:
    """What git's answer depends on: the environment and the config files it reads."""
    env = tuple(os.environ.get(name) for name in _ENV_KEYS)
    files = (str(repo.common_dir / "config"), *user_config_files())
    return (str(repo.common_dir), env, *(file_stamp(path) for path in files))
