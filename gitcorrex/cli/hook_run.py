"""`git correx hook run NAME [ARGS]`: what the installed hook scripts execute.

Click-free (answered by cli/startup.py as well as by the click command): a commit pays for
interpreter start-up, one `git rev-parse`, one `git config` and, with a stage selected,
one `git cat-file` and one `git diff-index`. It fails closed: every error exits non-zero
with a message, so git stops the commit rather than letting it through unchecked.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.cli.boundary import run_guarded
from gitcorrex.errors import UnavailableError, UsageError

if TYPE_CHECKING:
    from gitcorrex.git import PathChange, Repository
    from gitcorrex.hooks.commit_check import CommitCheck
    from gitcorrex.hooks.push_check import BlockedUpdate
    from gitcorrex.model.conclusion import Conclusion

HOOK_NAMES = ("pre-commit", "pre-merge-commit", "pre-push")


def run_hook(name: str, args: Sequence[str]) -> int:
    """Run hook `name` in the current directory; the exit code git acts on (boundary.py
    maps the check's conclusion and every failure; after a failure a line says that the
    commit was stopped)."""
    stopped = f"git correx: {name}: stopped, because the check could not run\n"
    return run_guarded(lambda: _run_importing(name, list(args)), stopped=stopped)


def _run_importing(name: str, args: list[str]) -> Conclusion:
    """A hook's interpreter that lacks a dependency is unavailable (3), not a bug."""
    try:
        return _run(name, args)
    except ImportError as exc:
        raise UnavailableError(
            f"{name}: {sys.executable} cannot import what the check needs ({exc})",
            hint="reinstall git-correx for it, or run `git correx hooks install` with the "
            "Python that has it") from exc


def _run(name: str, args: list[str]) -> Conclusion:
    from gitcorrex.git import discover

    if name not in HOOK_NAMES:
        raise UsageError(f"unknown hook {name!r}", hint=f"one of: {', '.join(HOOK_NAMES)}")
    repo = discover(Path.cwd())
    if name == "pre-push":
        return _pre_push(repo, args)
    import os

    from gitcorrex.hooks.commit_check import check_commit

    check = check_commit(repo, hook=name, session=os.environ.get("CORREX_SESSION") or None,
                         exempt=_own_hook_files)
    if check.blocked:
        from gitcorrex.clock import now_utc
        from gitcorrex.hooks.block_record import record_commit_block
        from gitcorrex.ledger.provenance import current_provenance

        event = record_commit_block(repo, check, clock=now_utc, provenance=current_provenance(repo))
        sys.stderr.write(commit_block_text(check, event.id))
    return check.conclusion


def _own_hook_files(repo: Repository, changes: list[PathChange]) -> list[PathChange]:
    """An agent host's hook file exactly as `hooks install --agent` writes it is correx's own:
    never a violation (imported only when a commit or push has paths to judge)."""
    from gitcorrex.agents.own_hook_files import without_own_hook_files

    return without_own_hook_files(repo, changes)


def _pre_push(repo: Repository, args: list[str]) -> Conclusion:
    from gitcorrex.hooks.push_check import check_push, parse_updates

    remote = args[0] if args else "origin"
    result = check_push(repo, remote=remote, updates=parse_updates(sys.stdin.buffer.read()),
                        exempt=_own_hook_files)
    if result.blocked:
        from gitcorrex.clock import now_utc
        from gitcorrex.hooks.block_record import record_push_block
        from gitcorrex.ledger.provenance import current_provenance

        provenance = current_provenance(repo)
        for blocked in result.blocked:
            events = record_push_block(repo, blocked, clock=now_utc, provenance=provenance)
            sys.stderr.write(push_block_text(blocked, remote, [event.id for event in events]))
    return result.conclusion


def commit_block_text(check: CommitCheck, event_id: str) -> str:
    """Every violation with its fix, then where the manifest came from and the record."""
    source = check.manifest.source if check.manifest is not None else f"stage {check.stage!r}"
    origin = "its declared writes, from the locked plan" if check.from_step else \
        ".correx.toml at HEAD"
    lines = [f"git correx: {check.hook}: blocked: {len(check.violations)} path(s) outside "
             f"the write manifest of {source} ({origin}):"]
    lines += [f"  {violation.describe()}" for violation in check.violations]
    lines.append("  a step's writes widen only by a re-plan; unstage a path with `git restore "
                 "--staged PATH`" if check.from_step else
                 "  the manifest is read from HEAD: editing .correx.toml in this commit does "
                 "not widen it; unstage a path with `git restore --staged PATH`")
    lines.append(f"  recorded: tool_call_assessed {event_id}")
    return "\n".join(lines) + "\n"


def push_block_text(blocked: BlockedUpdate, remote: str, event_ids: list[str]) -> str:
    """The range check's report for one ref update, as `git correx check` prints it."""
    from gitcorrex.cli.check_cmd import render_text

    report = blocked.report
    head = (f"git correx: pre-push: blocked: {blocked.update.local_ref} to {remote}'s "
            f"{blocked.update.remote_ref} ({report.base[:12]}..{report.head[:12]}):\n")
    body = "".join(f"  {line}\n" for line in render_text(report).splitlines())
    recorded = "".join(f"  recorded: tool_call_assessed {event_id}\n" for event_id in event_ids)
    return head + body + recorded
