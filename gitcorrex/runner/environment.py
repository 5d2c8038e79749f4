"""The environment a verification's commands run in, fingerprinted (model/environment.py).

What the profile's `[environment]` includes (model/profile_environment.py), for the
commands, the directory and the variables they run with:

- each command's program resolved on the PATH they get (as exec resolves it; a name with a
  `/` against the directory), its content digest (runner/file_digests.py: a `stat` when the
  file is unchanged), and its `--version` line for the programs the profile names;
- every Python virtualenv in play — a resolved program's, `$VIRTUAL_ENV`, `./.venv` — with
  a digest of its installed distributions;
- the lockfiles found at the top level: the blob id the state tree holds, else (an ignored
  file, such as `node_modules/.package-lock.json`) the work tree file's digest;
- OS, machine architecture, libc; the declared variables, each value as an HMAC under the
  repository's salt (runner/environment_salt.py), never in clear; the profile's `salt`.

Plain values only (no pydantic): the plain verify path writes them as they are.
"""

from __future__ import annotations

import fnmatch
import hashlib
import hmac
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from gitcorrex.git import Repository, lookup_objects
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.environment_key import fingerprint_digest
from gitcorrex.runner.file_digests import DigestCache, site_packages

# programs whose behaviour another program decides: `npm test` runs whatever `node` is
COMPANIONS = {"npm": "node", "npx": "node", "yarn": "node", "pnpm": "node",
              "cargo": "rustc", "uv": "python3", "poetry": "python3", "tox": "python3"}
VERSION_TIMEOUT_S = 10


class Argv(Protocol):
    @property
    def argv(self) -> Sequence[str]: ...


class EnvironmentSettings(Protocol):
    """The profile's `[environment]`: `EnvironmentPolicy`, or its stored copy
    (verify/selection.py `EnvironmentSettings`)."""

    @property
    def variables(self) -> Sequence[str]: ...
    @property
    def salt(self) -> str | None: ...
    @property
    def versions(self) -> Sequence[str]: ...
    @property
    def programs(self) -> Sequence[str]: ...
    @property
    def lockfiles(self) -> Sequence[str]: ...
    @property
    def packages(self) -> bool: ...
    @property
    def platform(self) -> bool: ...


def fingerprint(repo: Repository, *, commands: Sequence[Argv], policy: EnvironmentSettings,
                run_dir: Path, env: Mapping[str, str], state_key: str) -> dict[str, Any]:
    """The fingerprint (JSON values, `digest` included) of running `commands` in `run_dir`
    with `env`, on the state `state_key`."""
    cache = DigestCache(repo.common_dir)
    programs = [_program(name, cache, policy, run_dir, env)
                for name in program_names(commands, policy)]
    venvs = _venvs(programs, cache, run_dir, env) if policy.packages else []
    for program in programs:
        program.pop("resolved", None)
    values: dict[str, Any] = {
        "programs": programs,
        "venvs": venvs,
        "lockfiles": _lockfiles(repo, policy.lockfiles, cache, run_dir, state_key),
        "platform": platform_values() if policy.platform else None,
        "variables": _variables(repo, policy.variables, env),
        "salt": policy.salt,
    }
    cache.save()
    return {"digest": fingerprint_digest(values), **values}


def program_names(commands: Sequence[Argv], policy: EnvironmentSettings) -> list[str]:
    """argv[0] of each command, their companions, and the profile's `programs`, sorted."""
    names = {command.argv[0] for command in commands if command.argv}
    names |= {COMPANIONS[os.path.basename(name)] for name in names
              if os.path.basename(name) in COMPANIONS}
    return sorted(names | set(policy.programs))


def resolve_program(name: str, run_dir: Path, env: Mapping[str, str]) -> str | None:
    """Where exec finds `name`: a name with a `/` against `run_dir`, else the first
    executable file on `env`'s PATH (os.defpath when it has none); None when nowhere."""
    if "/" in name:
        path = os.path.normpath(os.path.join(run_dir, name))
        return path if _is_program(path) else None
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(os.path.abspath(os.path.join(run_dir, directory or ".")), name)
        if _is_program(path):
            return path
    return None


def platform_values() -> dict[str, str]:
    """OS, machine architecture and C library (glibc's version; "unknown" elsewhere)."""
    try:
        libc = os.confstr("CS_GNU_LIBC_VERSION") or "unknown"
    except (AttributeError, ValueError, OSError):
        libc = "unknown"
    machine = os.uname().machine if hasattr(os, "uname") else "unknown"
    return {"os": sys.platform, "machine": machine, "libc": libc}


def _is_program(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _program(name: str, cache: DigestCache, policy: EnvironmentSettings, run_dir: Path,
             env: Mapping[str, str]) -> dict[str, Any]:
    path = resolve_program(name, run_dir, env)
    version = None
    if path is not None and name in policy.versions:
        version = _version(path, run_dir, env)
    return {"name": name, "path": shown_path(path, run_dir),
            "sha256": cache.file_sha256(path) if path is not None else None,
            "version": version, "resolved": path}


def _version(path: str, run_dir: Path, env: Mapping[str, str]) -> str:
    """The first line `PATH --version` prints (the operator asked for it in the profile)."""
    from gitcorrex.runner.command import run_command

    outcome = run_command([path, "--version"], cwd=run_dir, timeout_s=VERSION_TIMEOUT_S,
                          env=env, output_cap=4096)
    lines = outcome.output.decode("utf-8", "replace").strip().splitlines()
    first = lines[0].strip() if lines else ""
    if outcome.stop_reason != "exit" or outcome.exit_code != 0:
        first = f"{first} (exit {outcome.exit_code}, {outcome.stop_reason})".strip()
    return bound_text(first, 200)


def _venvs(programs: list[dict[str, Any]], cache: DigestCache, run_dir: Path,
           env: Mapping[str, str]) -> list[dict[str, Any]]:
    """The virtualenvs in play: a resolved program's, `$VIRTUAL_ENV`, `./.venv`."""
    roots = {os.path.dirname(os.path.dirname(p["resolved"])) for p in programs
             if p["resolved"]}
    if env.get("VIRTUAL_ENV"):
        roots.add(os.path.abspath(env["VIRTUAL_ENV"]))
    roots.add(os.path.join(run_dir, ".venv"))
    found = []
    for root in sorted(roots):
        if os.path.isfile(os.path.join(root, "pyvenv.cfg")):
            packages, count = cache.installed_set(site_packages(root))
            found.append({"path": shown_path(root, run_dir), "packages": packages,
                          "count": count})
    return found


def shown_path(path: str | None, run_dir: Path) -> str | None:
    """`path` as recorded: relative (`./…`) inside the directory the commands ran in, so
    two checkouts with equal contents fingerprint equal; absolute elsewhere."""
    if path is None:
        return None
    inside = os.path.relpath(path, run_dir)
    if inside == os.pardir or inside.startswith(os.pardir + os.sep):
        return path
    return "./" + inside


def _lockfiles(repo: Repository, patterns: Sequence[str], cache: DigestCache, run_dir: Path,
               state_key: str) -> list[dict[str, Any]]:
    """Each lockfile found: the state tree's blob id where the tree holds it (it is part
    of the key then), else the work tree file's sha256 (an ignored or generated file)."""
    paths = sorted({path for pattern in patterns for path in _matches(run_dir, pattern)})
    if not paths:
        return []
    blobs = lookup_objects(repo, [f"{state_key}:{path}" for path in paths])
    found = []
    for path, blob in zip(paths, blobs, strict=True):
        if blob is not None and blob.kind == "blob":
            found.append({"path": path, "digest": blob.oid, "source": "tree"})
        elif (digest := cache.file_sha256(str(run_dir / path))) is not None:
            found.append({"path": path, "digest": digest, "source": "worktree"})
    return found


def _matches(run_dir: Path, pattern: str) -> list[str]:
    """Regular files matching `pattern` (a glob in its last component only)."""
    parent, _, last = pattern.rpartition("/")
    if not any(char in last for char in "*?["):
        return [pattern] if os.path.isfile(run_dir / pattern) else []
    try:
        names = os.listdir(run_dir / parent) if parent else os.listdir(run_dir)
    except OSError:
        return []
    prefix = f"{parent}/" if parent else ""
    return [prefix + name for name in fnmatch.filter(names, last)
            if os.path.isfile(run_dir / (prefix + name))]


def _variables(repo: Repository, names: Sequence[str],
               env: Mapping[str, str]) -> list[dict[str, str]]:
    """Each declared variable that is set: an HMAC of its value under the repository's
    salt (read only when one is set). An unset variable is absent."""
    found = [name for name in sorted(set(names)) if name in env]
    if not found:
        return []
    from gitcorrex.runner.environment_salt import repository_salt  # only when one is set

    salt = repository_salt(repo)
    return [{"name": name, "value": hmac.new(
        salt, f"{name}\0{env[name]}".encode("utf-8", "surrogateescape"),
        hashlib.sha256).hexdigest()} for name in found]
