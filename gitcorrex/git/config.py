"""Reading git configuration one way: through the git binary, exactly as git resolves it.

Why the binary and not libgit2: libgit2 (1.9) honours includes and per-worktree config but
neither `git -c` (GIT_CONFIG_PARAMETERS) nor GIT_CONFIG_COUNT/KEY_n/VALUE_n, which git hands
to every hook it runs (`git -c correx.stage=docs commit`). A value read two ways differed
between a hook and the command it chains to; and a hook must not pay ~70 ms to import pygit2
just to learn that no stage is selected.

Cost: one `git config --list` (~2 ms) per process and directory, however many keys are read.
The snapshot is reused until the environment that shapes it, or a file it came from (or the
user's global file), changes: git rewrites config through a lock and a rename, so a new inode,
mtime or size means a change. Keys match as git spells them canonically (section and name in
lower case, a subsection as written), so `core.hooksPath` and `core.hookspath` are one key.
"""

from __future__ import annotations

import os

from gitcorrex.git.process import decode_path, run_git

TYPE_CHECKING = False  # no `pathlib` at run time: `state` asks for the config before it loads
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from gitcorrex.git.process import GitResult
    from gitcorrex.git.repository import Repository
    from gitcorrex.git.spawn import SpawnedGit

LIST_ARGS = ("config", "-z", "--list", "--show-origin")
_ENV_NAMES = ("GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL",
              "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG", "GIT_DIR",
              "GIT_COMMON_DIR", "HOME", "XDG_CONFIG_HOME")
Stamp = tuple[int, int, int]
Entry = tuple[str, str | None]


class ConfigSnapshot:
    """Every entry git reads from one directory, in git's order (a later one wins);
    a key written without `= value` has the value None (`git config --get` prints "")."""

    __slots__ = ("_last", "entries", "stamps")

    def __init__(self, entries: tuple[Entry, ...], stamps: dict[str, Stamp]) -> None:
        self.entries = entries
        self.stamps = stamps
        self._last = {name: value or "" for name, value in entries}

    def value(self, key: str) -> str | None:
        """The value `git config --get KEY` prints; None when the key is unset."""
        return self._last.get(canonical_key(key))

    def values(self, keys: Iterable[str]) -> dict[str, str]:
        """key → value for each of `keys` that is set; an unset key is absent."""
        found = {key: self.value(key) for key in keys}
        return {key: value for key, value in found.items() if value is not None}

    def matching(self, pattern: str) -> list[str]:
        """Entries whose key matches `pattern`, as `git config -z --get-regexp` prints them
        ("key\\nvalue", or "key" alone), in git's order."""
        import re

        match = re.compile(pattern).search
        return [name if value is None else f"{name}\n{value}"
                for name, value in self.entries if match(name)]

    def is_current(self) -> bool:
        """Whether every file the snapshot depends on is as it was when read."""
        return all(file_stamp(path) == stamp for path, stamp in self.stamps.items())


_SNAPSHOTS: dict[tuple[str, tuple[str | None, ...]], ConfigSnapshot] = {}


def read_config(where: Path, *, asked: GitResult | None = None) -> ConfigSnapshot:
    """The configuration git sees when run in `where` (a work tree or a git dir); `asked`:
    git's answer to `LIST_ARGS` there, when the caller started it already (state_start.py).

    A config file git cannot parse is a ConfigError (exit 2) quoting git's reason; any other
    failure of git is a GitCommandError (exit 3)."""
    cache_key = (str(where), _environment())
    cached = _SNAPSHOTS.get(cache_key)
    if asked is None and cached is not None and cached.is_current():
        return cached
    result = run_git(LIST_ARGS, cwd=where, check=False) if asked is None else asked
    if result.returncode != 0:
        stderr = decode_path(result.stderr)
        from gitcorrex.errors import GitCommandError  # only when git refused
        from gitcorrex.git.config_faults import config_file_error

        raise config_file_error(stderr) or GitCommandError(["git", *LIST_ARGS],
                                                           result.returncode, stderr)
    snapshot = _parse(decode_path(result.stdout), where)
    _SNAPSHOTS[cache_key] = snapshot
    return snapshot


def config_value(repo: Repository, key: str, *, cwd: Path | None = None) -> str | None:
    """One value as git sees it from `cwd` (default: the repository); None when unset."""
    return read_config(cwd or config_home(repo)).value(key)


def config_flag(repo: Repository, key: str) -> bool:
    """A boolean key as git spells one (`true`/`yes`/`on`/`1`); unset means off, and a
    value that is no boolean is a configuration error (exit 2), never a silent off."""
    value = config_value(repo, key)
    if value is None or value.lower() in ("false", "no", "off", "0", ""):
        return False
    if value.lower() in ("true", "yes", "on", "1"):
        return True
    from gitcorrex.errors import ConfigError

    raise ConfigError(f"git config {key}: {value!r} is not a boolean",
                      hint=f"`git config {key} true` or `false`")


def config_values(repo: Repository, keys: Iterable[str], *,
                  asked: GitResult | None = None) -> dict[str, str]:
    """Several values from one snapshot; a key that is unset is absent from the result.
    `asked`: `begin_read_config`'s answer from the repository's `config_home`."""
    return read_config(config_home(repo), asked=asked).values(keys)


def begin_read_config(where: Path | str) -> SpawnedGit | None:
    """`read_config(where)`'s git, started now for a caller that has other work before it
    can ask (its answer goes to `asked=`); None when it cannot start here."""
    from gitcorrex.git.spawn import spawn_git

    try:
        return spawn_git(LIST_ARGS, cwd=str(where), check=False)
    except OSError:
        return None


def config_home(repo: Repository) -> Path:
    """Where git runs to read the repository's configuration: the work tree (its worktree
    config counts), else the git dir."""
    return repo.work_tree or repo.git_dir


def set_config_value(repo: Repository, key: str, value: str) -> None:
    """Write one value to the repository's own config, through git (which locks the file)."""
    run_git(["config", key, value], cwd=config_home(repo))


def set_config_if_unset(repo: Repository, key: str, value: str) -> None:
    """Write `value` when `key` is unset. Another process may hold the config lock right now,
    setting the same value: a refused write is not an error, the next call checks again."""
    if config_value(repo, key) is None:
        run_git(["config", key, value], cwd=config_home(repo), check=False)


def canonical_key(key: str) -> str:
    """`Section.Sub.Section.Name` → `section.Sub.Section.name`, git's own spelling."""
    section, _, rest = key.partition(".")
    middle, _, name = rest.rpartition(".")
    if not middle:
        return key.lower()
    return f"{section.lower()}.{middle}.{name.lower()}"


def file_stamp(path: str) -> Stamp:
    """(inode, mtime, size) of `path`; zeros for a file that is absent."""
    try:
        info = os.stat(path)
    except OSError:
        return (0, 0, 0)
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def _parse(out: str, where: Path) -> ConfigSnapshot:
    """`--show-origin -z` output: origin and entry alternate, each ended by NUL."""
    fields = out.split("\0")
    entries: list[Entry] = []
    files = set(user_config_files())
    for origin, record in zip(fields[0::2], fields[1::2], strict=False):
        name, newline, value = record.partition("\n")
        entries.append((name, value if newline else None))
        if origin.startswith("file:"):
            files.add(os.path.join(where, origin.removeprefix("file:")))
    return ConfigSnapshot(tuple(entries), {path: file_stamp(path) for path in files})


def user_config_files() -> list[str]:
    """The user's files git reads even while they are absent (so creating one counts)."""
    home = os.environ.get("HOME", "")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config")]
    configured = os.environ.get("GIT_CONFIG_GLOBAL")
    return [configured, *files] if configured else files


def _environment() -> tuple[str | None, ...]:
    """The variables that change what git reads, `GIT_CONFIG_KEY_n`/`VALUE_n` included."""
    names = list(_ENV_NAMES)
    count = os.environ.get("GIT_CONFIG_COUNT", "")
    if count.isdigit():
        for index in range(int(count)):
            names += [f"GIT_CONFIG_KEY_{index}", f"GIT_CONFIG_VALUE_{index}"]
    return tuple(os.environ.get(name) for name in names)
