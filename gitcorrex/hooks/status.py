"""What is installed where: each hook file read back, for `hooks status` and `doctor`."""

from __future__ import annotations

import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

from gitcorrex.git import Repository, config_value
from gitcorrex.hooks import STAGE_CONFIG
from gitcorrex.hooks.location import locate_hooks
from gitcorrex.hooks.script_templates import ALL_HOOKS, HOOK_VERSION, read_script


@dataclass(frozen=True)
class HookFile:
    """One hook file. `state`: installed, outdated (ours, older version), foreign, absent,
    not-a-file. `chained_present`: whether the chained hook it names exists.
    `calls_correx`: a foreign hook that runs gitcorrex (the line `hooks install` prints when
    `core.hooksPath` is outside the repository)."""

    name: str
    path: str
    state: str
    version: int | None
    executable: bool
    python: str | None
    chained: str | None
    chained_present: bool
    calls_correx: bool = False

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class HooksStatus:
    hooks_dir: str
    hooks_path: str | None
    inside: bool
    stage: str | None
    hooks: list[HookFile]

    def as_dict(self) -> dict[str, object]:
        return {"hooks_dir": self.hooks_dir, "hooks_path": self.hooks_path,
                "inside": self.inside, "stage": self.stage,
                "hooks": [hook.as_dict() for hook in self.hooks]}


def hooks_status(repo: Repository, *, cwd: Path | None = None) -> HooksStatus:
    """The hooks git would run for the work tree at `cwd` (default: the repository's)."""
    location = locate_hooks(repo, cwd=cwd)
    hooks = [inspect_hook(location.path, name) for name in ALL_HOOKS]
    stage = config_value(repo, STAGE_CONFIG, cwd=cwd) or None
    return HooksStatus(str(location.path), location.hooks_path, location.inside, stage, hooks)


def inspect_hook(directory: Path, name: str) -> HookFile:
    """Read `directory/name` back; never raises for a missing or odd file."""
    path = directory / name
    try:
        info = os.stat(path)
    except OSError:
        return HookFile(name, str(path), "absent", None, False, None, None, False)
    if not stat.S_ISREG(info.st_mode):
        return HookFile(name, str(path), "not-a-file", None, False, None, None, False)
    try:
        data = path.read_bytes()
    except OSError:
        return HookFile(name, str(path), "not-a-file", None, False, None, None, False)
    script = read_script(data)
    executable = os.access(path, os.X_OK)
    if not script.is_ours:
        return HookFile(name, str(path), "foreign", None, executable, None, None, False,
                        calls_correx=b"from gitcorrex.cli import main" in data)
    state = "installed" if script.version == HOOK_VERSION else "outdated"
    chained_present = script.chained is not None and (
        (directory / script.chained).exists() or (directory / script.chained).is_symlink())
    return HookFile(name, str(path), state, script.version, executable, script.python,
                    script.chained, chained_present)
