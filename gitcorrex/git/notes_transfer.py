"""Fetching and pushing ledger refs with explicit refspecs: nothing forced blindly, no config.

Refs on the remote: the shared ledger `<ref>` and one writer ref per clone under
`<ref>-writers/<id>`. Fetch, in one `git fetch`: `<ref>:refs/notes/remotes/<remote>/<name>`
(a fast-forward of the tracking ref only, never `+refs/notes/*`, which would overwrite
unpushed local notes) and `+<ref>-writers/*:refs/notes/remotes/<remote>/<name>-writers/*`
with `--prune` (compaction retires writer refs; their tracking refs go with them; tracking
refs are only ever read and united, so forcing them loses nothing). Push: commit ids to
refs, without force or with an explicit lease, one porcelain report per ref
(git/push_report.py). The user's `remote.*.fetch` / `remote.*.push` are never read or written.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygit2

from gitcorrex.errors import GitCommandError, UnavailableError, UsageError
from gitcorrex.git.config import config_value
from gitcorrex.git.process import GitResult, decode_path, run_git
from gitcorrex.git.push_report import RefStatus, parse_push_report
from gitcorrex.git.repository import Repository

_MISSING_REF = "couldn't find remote ref"
# A server at capacity drops or stalls connections; the next round usually gets through.
_TRANSIENT = ("Connection reset by peer", "Connection timed out", "hung up unexpectedly",
              "early EOF", "read error", "Broken pipe")


# A git killed by SIGPIPE wrote into a connection the other end had closed: the same broken
# connection, told by a signal instead of words (-13 from a signal, 141 through a shell).
_SIGPIPE_STATUSES = (-signal.SIGPIPE, 128 + signal.SIGPIPE)


class TransientTransportError(GitCommandError):
    """The connection to the remote broke (reset, timed out, a pipe closed): worth another
    round."""

    @property
    def reason(self) -> str:
        """One line for the round's record: git's last words, or the signal that ended it."""
        if self.status in _SIGPIPE_STATUSES:
            return f"git {self.argv[1]} was killed by SIGPIPE"
        return (self.stderr.strip().splitlines() or ["?"])[-1]


def _failure(argv: list[str], status: int, stderr: str) -> GitCommandError:
    broken = status in _SIGPIPE_STATUSES or any(w in stderr for w in _TRANSIENT)
    return (TransientTransportError if broken else GitCommandError)(argv, status, stderr)
_FETCH = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
          "--prune"]


@dataclass(frozen=True)
class RemoteLedgers:
    """What a fetch found on the remote: the shared tip and each writer's tip, by writer id."""

    shared: str | None
    writers: dict[str, str] = field(default_factory=dict)

    @property
    def tips(self) -> list[str]:
        """Every distinct tip, sorted (the shared one included)."""
        found = set(self.writers.values()) | ({self.shared} if self.shared else set())
        return sorted(found)

    @property
    def ref_count(self) -> int:
        return len(self.writers) + (1 if self.shared else 0)


@dataclass(frozen=True)
class RefUpdate:
    """Push `new` (None: delete) to `ref`; `lease` set: only if the remote still holds it
    (`""`: only if the remote has no such ref) — `--force-with-lease`, git's compare-and-swap."""

    ref: str
    new: str | None
    lease: str | None = None


def writers_namespace(ref: str) -> str:
    """`<ref>-writers/`: where each clone publishes its own copy of the ledger."""
    return f"{ref}-writers/"


def tracking_ref(repo: Repository, remote: str, ref: str) -> str:
    """`refs/notes/remotes/<remote>/<name>` for a configured remote; exit 2 otherwise."""
    if config_value(repo, f"remote.{remote}.url") is None:
        raise UsageError(f"no remote named {remote!r} in this repository",
                         hint="name a remote from `git remote -v`, or `git remote add NAME URL`")
    tracking = f"refs/notes/remotes/{remote}/{ref.removeprefix('refs/notes/')}"
    if not pygit2.reference_is_valid_name(tracking):
        raise UsageError(f"remote name {remote!r} cannot name a ref ({tracking})",
                         hint="rename the remote with `git remote rename`")
    return tracking


def fetch_ledgers(repo: Repository, remote: str, ref: str, tracking: str) -> RemoteLedgers:
    """Fetch the shared ref and every writer ref into their tracking refs (see module doc)."""
    writers = f"+{writers_namespace(ref)}*:{writers_namespace(tracking)}*"
    result = _fetch(repo, [remote, f"{ref}:{tracking}", writers])
    stderr = decode_path(result.stderr)
    shared_missing = result.returncode != 0 and _MISSING_REF in stderr
    if shared_missing:  # a fresh remote, or only writer refs so far
        result = _fetch(repo, [remote, writers])
        stderr = decode_path(result.stderr)
    if result.returncode != 0 and "non-fast-forward" in stderr:
        raise UnavailableError(
            f"{remote}'s {ref} was rewritten: it no longer contains {tracking}",
            hint=f"if that is intended, `git update-ref -d {tracking}` and sync again",
        )
    if result.returncode != 0:
        raise _failure(["git", *_FETCH, remote], result.returncode, stderr)
    handle = repo.shared_libgit2()
    shared = None if shared_missing else handle.references.get(tracking)
    return RemoteLedgers(None if shared is None else str(shared.target),
                         _tips_under(handle, writers_namespace(tracking)))


def push_refs(repo: Repository, remote: str, updates: Sequence[RefUpdate],
              tracking: dict[str, str]) -> dict[str, RefStatus]:
    """Push `updates` in one `git push` (not atomic: each ref stands alone); status per ref.

    A ref the remote accepted moves its tracking ref (`tracking[ref]`) to what the remote
    now holds, as git does for branches. A failure that is no per-ref rejection (the remote
    is unreachable) raises GitCommandError.
    """
    args = ["push", "--porcelain", remote]  # --quiet hides the statuses of a success
    args += [f"--force-with-lease={u.ref}:{u.lease}" for u in updates if u.lease is not None]
    args += [f"{u.new or ''}:{u.ref}" for u in updates]
    result = run_git(args, cwd=repo.work_tree or repo.git_dir, check=False)
    report = decode_path(result.stdout + result.stderr)
    statuses = parse_push_report(decode_path(result.stdout))
    if any(update.ref not in statuses for update in updates):
        raise _failure(["git", *args], result.returncode, report)
    for update in updates:
        if statuses[update.ref].is_accepted and update.ref in tracking:
            _move_tracking(repo, tracking[update.ref], update.new)
    return statuses


def _fetch(repo: Repository, args: list[str]) -> GitResult:
    return run_git([*_FETCH, *args], cwd=repo.work_tree or repo.git_dir, check=False)


def _tips_under(handle: pygit2.Repository, prefix: str) -> dict[str, str]:
    tips: dict[str, str] = {}
    for name in handle.references:
        if name.startswith(prefix):
            tips[name.removeprefix(prefix)] = str(handle.references[name].target)
    return tips


def _move_tracking(repo: Repository, tracking: str, new: str | None) -> None:
    refs = repo.shared_libgit2().references
    if new is not None:
        refs.create(tracking, pygit2.Oid(hex=new), force=True)
    elif tracking in refs:
        refs.delete(tracking)
