"""The first steps of `git correx state`, taken before the rest of the program loads.

A state key waits for one `git status` over the whole work tree (`state_scan.py`: ~60 ms on
50,000 files), and `git status --porcelain` itself takes ~88 ms: the ~28 ms left are what a
Python process may spend around the scan. Interpreter start-up and the console script's own
`import re` take ~17 ms of them; loading the program (`pathlib`, `subprocess`, the state
modules, the boundary: ~13 ms more) before the scan started did not fit, and neither did
the two queries a measurement asks beside the scan (HEAD's tree, the settings) started
after those imports: on two cores, `git status`'s two threads starve a Python process that
is still loading. So `main` calls `begin_state` first, with nothing loaded but `os`,
`signal`, `select` and three small modules (`json`, `fcntl` and the claim's modules load
while git answers the first question), and it starts:

1. git's discovery (`discovery.py`), asked from here as `repository.discover` asks;
2. while git answers, on a guess of its answer (`guess_repository`: the nearest `.git`
   directory, when no variable moves discovery), or else on its answer: the worktree's
   kept index claimed (`state_index_claim.py`), exactly as `open_state_index` claims it;
3. when the claim says the index is reused as it is, carries git's untracked cache and no
   watcher is configured: the scan on it (`state_scan.begin_scan`, the scan the probe
   would begin), then `rev-parse HEAD^{tree}` and `config --list` in the work tree (the
   probe's two queries, `HEAD_TREE_ARGS` and `config.LIST_ARGS`), none waited for.

A guess is kept only when git's answer names the same git dir, common dir and work tree:
git started in that work tree then finds what git started here found (same environment,
same config). On any difference everything begun on the guess is closed unused — the
claim deleted that index's record, so its next use rebuilds it — and the steps begin
again on git's answer.

The rest of the program loads while git works. `StateProbe` adopts what was begun: the claim
goes to `open_state_index`, the scan where the probe would have begun its own, the answers
where it would have asked (`head_tree_oid`, `content_settings`). Whatever is not adopted —
the arguments were not a state invocation after all, discovery failed — is closed: its git
processes waited for, the lock dropped. Nothing is reported from here: a failure leaves the
regular path to run again and report it.
"""

from __future__ import annotations

import os

from gitcorrex.git.discovery import DISCOVERY_ARGS, discovered_dirs
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.spawn import SpawnedGit, spawn_git

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from gitcorrex.git.process import GitResult
    from gitcorrex.git.repository import Repository
    from gitcorrex.git.state_index_claim import KeptClaim

    Scan = Callable[[], list[bytes] | None]

HEAD_TREE_ARGS = ("rev-parse", "-q", "--verify", "HEAD^{tree}")
# Variables that move git's discovery, or the index: with any of them set, no guess.
GUESS_SPOILERS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
                  "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM")


def head_tree_oid(root: Path, asked: GitResult | None = None) -> str | None:
    """HEAD's tree as hex; None when HEAD is unborn (no commit yet). `asked`: git's answer
    to `HEAD_TREE_ARGS` in `root`, started already."""
    result = run_git(HEAD_TREE_ARGS, cwd=root, check=False) if asked is None else asked
    if result.returncode == 0:
        return result.stdout.decode("ascii").strip()
    if result.returncode == 1 and not result.stdout:
        return None
    from gitcorrex.errors import GitCommandError  # loaded by the first failure

    raise GitCommandError(["git", *HEAD_TREE_ARGS], result.returncode,
                          decode_path(result.stderr))


class StateStart:
    """What `begin_state` began: git's `discovery` answer (from the current directory), the
    kept index `claim`ed for that repository, and the `scan`, `head` and `settings` queries
    running in its work tree (each None when not begun, or once adopted)."""

    __slots__ = ("claim", "discovery", "head", "index_stamp", "scan", "settings")

    def __init__(self, discovery: GitResult | None) -> None:
        self.discovery = discovery
        self.claim: KeptClaim | None = None
        self.scan: Scan | None = None
        self.head: SpawnedGit | None = None
        self.settings: SpawnedGit | None = None
        self.index_stamp: list[int] | None = None

    def adopt(self, repo: Repository) -> StateStart | None:
        """What was begun for `repo`, handed over (this one keeps nothing); None, after
        closing it, when nothing was claimed or the claim is another repository's."""
        from gitcorrex.git.state_index_claim import HOME, INDEX_NAME

        taken = StateStart(None)
        for name in ("claim", "scan", "head", "settings"):
            setattr(taken, name, getattr(self, name))
            setattr(self, name, None)
        claim = taken.claim
        if claim is None or claim.index != os.path.join(repo.git_dir, HOME, INDEX_NAME):
            taken.close()
            return None
        taken.index_stamp = claim.index_stamp
        return taken

    def take_claim(self) -> KeptClaim | None:
        """The claim, now the caller's (`open_state_index` owns its lock from here)."""
        claim, self.claim = self.claim, None
        return claim

    def take_scan(self) -> tuple[list[int] | None, Scan] | None:
        """The scan, now the caller's, with the kept index's stamp from before it began."""
        scan, self.scan = self.scan, None
        return None if scan is None else (self.index_stamp, scan)

    def close(self) -> None:
        """Release what nobody adopted: wait for its git processes (none may outlive us
        holding the lock), then drop the lock."""
        waiting = [self.scan, *(git.wait for git in (self.head, self.settings) if git)]
        claim, self.claim = self.claim, None
        self.scan = self.head = self.settings = None
        try:
            for wait in waiting:
                if wait is not None:
                    try:
                        wait()
                    except Exception:  # an answer nobody asked for
                        continue
        finally:
            if claim is not None:
                os.close(claim.lock_fd)


def begin_state() -> StateStart | None:
    """Ask where the repository is and, when its kept index can be reused, begin the scan
    and the queries on it; None when git cannot even be started (the regular path says so).
    The scan begins on a guess (`guess_repository`) while git answers; on any mismatch with
    git's answer the guess is closed, unused, and everything begins again on the answer."""
    try:
        asking = spawn_git(DISCOVERY_ARGS, check=False)
    except OSError:
        return None
    guess = guess_repository()
    started = _begin_on(StateStart(None), guess[0], guess[0], guess[1]) if guess else None
    discovery = asking.wait()
    found = discovered_dirs(discovery.stdout) if discovery.returncode == 0 else None
    if started is not None:
        if guess and found and found[:3] == (guess[0], guess[0], guess[1]):
            started.discovery = discovery
            return started
        started.close()  # its record was deleted when claimed: that index is rebuilt next
    start = StateStart(discovery)
    if found is None or found[2] is None or os.environ.get("GIT_INDEX_FILE"):
        return start
    return _begin_on(start, found[0], found[1], found[2])


def guess_repository() -> tuple[str, str] | None:
    """The git dir and work tree git will most likely find from here: the nearest `.git`
    directory holding a HEAD, in a main work tree (no `commondir`); None where git's answer
    depends on more (a `.git` file, an environment variable that moves discovery)."""
    if any(os.environ.get(name) for name in GUESS_SPOILERS):
        return None
    try:
        here = os.getcwd()
    except OSError:
        return None
    while True:
        dot = os.path.join(here, ".git")
        if os.path.isfile(os.path.join(dot, "HEAD")):
            return None if os.path.lexists(os.path.join(dot, "commondir")) else (dot, here)
        if os.path.lexists(dot):
            return None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def watcher_on_here() -> bool:
    """Whether the repository git will most likely find from here (`guess_repository`)
    has the watcher on (`git correx watch start`); False where that takes more than a
    guess. Asked only to decide whether to start a resident process for the next verify:
    the watched key is then mostly the interpreter's start-up and imports."""
    from gitcorrex.git.state_index_claim import HOME, WATCH_FILE

    guess = guess_repository()
    return guess is not None and os.path.exists(os.path.join(guess[0], HOME, WATCH_FILE))


def _begin_on(start: StateStart, git_dir: str, common_dir: str, work_tree: str) -> StateStart:
    """Claim `git_dir`'s kept index and, when it is reused as it is, begin the scan and the
    queries in `work_tree`; whatever fails is closed and left to the regular path."""
    from gitcorrex.git.config import LIST_ARGS
    from gitcorrex.git.state_index_claim import (
        HOME,
        WATCH_FILE,
        claim_kept_index,
        has_untracked_cache,
    )
    from gitcorrex.git.state_scan import begin_scan

    try:
        start.claim = claim = claim_kept_index(git_dir, common_dir,
                                               os.path.join(git_dir, "index"))
        if (claim is not None and has_untracked_cache(claim.record)
                and not os.path.exists(os.path.join(git_dir, HOME, WATCH_FILE))):
            start.scan = begin_scan(work_tree, {"GIT_INDEX_FILE": claim.index},
                                    (claim.lock_fd,))
            start.head = spawn_git(HEAD_TREE_ARGS, cwd=work_tree, check=False)
            start.settings = spawn_git(LIST_ARGS, cwd=work_tree, check=False)
    except Exception:
        start.close()
        return StateStart(start.discovery)
    return start
