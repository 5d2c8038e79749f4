"""Installing and removing our hook scripts, keeping any foreign hook running.

A foreign hook is never overwritten: it is kept under a fresh name (`pre-commit.correx-chained`,
or `….2` if that exists) and our script runs it first, stopping if it fails. Writes are
atomic (temporary file in the same directory, then rename) and the foreign hook is first
hard-linked to its new name, so at no instant is there no hook. Re-installing rewrites only
what differs; uninstalling puts the chained hook back under its own name.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository
from gitcorrex.hooks.location import locate_hooks, writable_location
from gitcorrex.hooks.script_templates import (
    ALL_HOOKS,
    COMMIT_HOOKS,
    PUSH_HOOK,
    chained_name,
    read_script,
    render_script,
)

SCRIPT_MODE = 0o755


@dataclass(frozen=True)
class HookAction:
    """What happened to one hook: installed, chained, updated, unchanged (install);
    restored, removed, not-ours, absent (uninstall). `chained`: the kept foreign hook."""

    name: str
    path: str
    action: str
    chained: str | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class HooksResult:
    hooks_dir: str
    actions: list[HookAction]

    def as_dict(self) -> dict[str, object]:
        return {"hooks_dir": self.hooks_dir, "actions": [a.as_dict() for a in self.actions]}


def install_hooks(repo: Repository, *, python: str, pre_push: bool) -> HooksResult:
    """Install pre-commit and pre-merge-commit (and pre-push) running `python`."""
    names = (*COMMIT_HOOKS, PUSH_HOOK) if pre_push else COMMIT_HOOKS
    directory = writable_location(repo, python=python, names=names).path
    directory.mkdir(parents=True, exist_ok=True)
    actions = [_install_one(directory, name, python) for name in names]
    return HooksResult(str(directory), actions)


def uninstall_hooks(repo: Repository) -> HooksResult:
    """Remove every hook of ours, restoring the hook each one chained; foreign hooks stay."""
    location = locate_hooks(repo)
    if not location.inside:
        raise ConfigError(f"core.hooksPath is {location.hooks_path!r}, outside this repository: "
                          "git correx installed nothing there",
                          hint="remove the `gitcorrex` lines you added to those hooks by hand")
    actions = [_uninstall_one(location.path, name) for name in ALL_HOOKS]
    return HooksResult(str(location.path), actions)


def _install_one(directory: Path, name: str, python: str) -> HookAction:
    path = directory / name
    existing = _read_hook(path)
    if existing is None:
        _write_atomic(path, render_script(name, python=python, chained=None))
        return HookAction(name, str(path), "installed")
    script = read_script(existing)
    if script.is_ours:  # keep its chain, unless the chained hook is gone (the fix doctor names)
        chained = script.chained if _present(directory, script.chained) else None
        wanted = render_script(name, python=python, chained=chained)
        if existing == wanted and _mode(path) == SCRIPT_MODE:
            return HookAction(name, str(path), "unchanged", chained)
        _write_atomic(path, wanted)
        return HookAction(name, str(path), "updated", chained)
    chained = chained_name(name, set(os.listdir(directory)))
    temp = _prepare(path, render_script(name, python=python, chained=chained))
    try:
        _keep_foreign(path, directory / chained)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return HookAction(name, str(path), "chained", chained)


def _uninstall_one(directory: Path, name: str) -> HookAction:
    path = directory / name
    existing = _read_hook(path)
    if existing is None:
        return HookAction(name, str(path), "absent")
    script = read_script(existing)
    if not script.is_ours:
        return HookAction(name, str(path), "not-ours")
    if _present(directory, script.chained):
        os.replace(directory / str(script.chained), path)
        return HookAction(name, str(path), "restored", script.chained)
    path.unlink()
    return HookAction(name, str(path), "removed")


def _present(directory: Path, name: str | None) -> bool:
    """Whether hook file `name` exists in `directory` (a dangling symlink counts)."""
    return name is not None and ((directory / name).exists() or (directory / name).is_symlink())


def _read_hook(path: Path) -> bytes | None:
    """The hook's bytes; None when there is none; b"" for a dangling symlink (foreign)."""
    if path.is_dir():
        raise ConfigError(f"{path} is a directory, not a hook script",
                          hint="move it away, then run `git correx hooks install` again")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b"" if path.is_symlink() else None


def _keep_foreign(path: Path, target: Path) -> None:
    """Give the foreign hook its chained name without ever removing the original first:
    a hard link (the symlink itself, if it is one), else — on file systems without hard
    links — a rename (for an instant there is then no hook at all)."""
    try:
        os.link(path, target, follow_symlinks=False)
    except FileExistsError:
        raise ConfigError(f"{target} appeared while installing",
                          hint="another install ran at the same time: run it again") from None
    except OSError:
        os.rename(path, target)


def _write_atomic(path: Path, data: bytes) -> None:
    os.replace(_prepare(path, data), path)


def _prepare(path: Path, data: bytes) -> str:
    """The complete script in a temporary file next to `path`, mode 0755, flushed to disk."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".correx-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, SCRIPT_MODE)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return temp


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777
