"""The environment fingerprint an observation carries: what ran the commands, besides the tree.

The same tree can pass under one interpreter and fail under another (a stub `python3` first
on PATH, a virtualenv missing a package, another libc). So a verification records, next to
the tree and the profile blob, what it ran in: each command's program as resolved on PATH
(absolute path and content digest; its `--version` where the profile asks), the installed
distributions of every Python virtualenv in play, the lockfiles found, OS, machine and libc,
and the declared environment variables — their values only as salted hashes, never in
clear. `digest` summarises all of it: a pass is reused only under an equal digest
(verify/reuse.py), and `differences` names what differs, component by component.

Written as plain JSON values by the verify path (runner/environment.py); read back through
these records. An observation recorded before fingerprints has none (`environment` absent).
"""

from __future__ import annotations

from gitcorrex.model.environment_key import fingerprint_digest as fingerprint_digest
from gitcorrex.model.record import Record


class ProgramPrint(Record):
    """One command's program: `name` as the profile wrote it (argv[0]), `path` as resolved
    (None: not found), `sha256` of its content, `version` its `--version` line when the
    profile asks for one (`[environment] versions`)."""

    name: str
    path: str | None
    sha256: str | None
    version: str | None


class VenvPrint(Record):
    """A Python virtualenv in play: its directory and a digest of the distributions
    installed in it (the names of its `*.dist-info`/`*.egg-info` entries: name + version)."""

    path: str
    packages: str
    count: int


class LockfilePrint(Record):
    """A lockfile: its path, its digest (the blob id when read from the state tree, else the
    sha256 of the work tree file) and where it was read (`tree` or `worktree`)."""

    path: str
    digest: str
    source: str


class PlatformPrint(Record):
    """Operating system, machine architecture and C library, as Python reports them."""

    os: str
    machine: str
    libc: str


class VariablePrint(Record):
    """A declared variable that was set: `value` is a salted hash of its value, never the
    value itself (a declared variable that was unset is absent)."""

    name: str
    value: str


class EnvironmentPrint(Record):
    """The whole fingerprint; `digest` is the sha256 of every other field's canonical JSON."""

    digest: str
    programs: list[ProgramPrint]
    venvs: list[VenvPrint]
    lockfiles: list[LockfilePrint]
    platform: PlatformPrint | None
    variables: list[VariablePrint]
    salt: str | None


def differences(recorded: EnvironmentPrint, here: EnvironmentPrint) -> list[str]:
    """What differs from `recorded` to `here`, one readable line per component (the values
    of variables never shown); [] when the digests are equal."""
    if recorded.digest == here.digest:
        return []
    found = [*_program_changes(recorded.programs, here.programs),
             *_keyed_changes("packages in", _venvs(recorded), _venvs(here)),
             *_keyed_changes("lockfile", _locks(recorded), _locks(here)),
             *_platform_changes(recorded.platform, here.platform),
             *_variable_changes(recorded.variables, here.variables)]
    if recorded.salt != here.salt:
        found.append(f"salt: {recorded.salt} → {here.salt}")
    return found or [f"environment digest {recorded.digest[:12]} → {here.digest[:12]}"]


def _program_changes(before: list[ProgramPrint], after: list[ProgramPrint]) -> list[str]:
    old, new = {p.name: p for p in before}, {p.name: p for p in after}
    lines = []
    for name in sorted(old.keys() | new.keys()):
        was, now = old.get(name), new.get(name)
        if was is None or now is None:
            lines.append(f"{name}: {_where(was)} → {_where(now)}")
        elif was.path != now.path:
            lines.append(f"{name}: {was.path or 'not found'} → {now.path or 'not found'}")
        elif was.sha256 != now.sha256:
            lines.append(f"{name}: {now.path} changed (sha256 {_short(was.sha256)} → "
                         f"{_short(now.sha256)})")
        elif was.version != now.version:
            lines.append(f"{name}: version {was.version} → {now.version}")
    return lines


def _where(program: ProgramPrint | None) -> str:
    if program is None:
        return "not recorded"
    return program.path or "not found"


def _venvs(fingerprint: EnvironmentPrint) -> dict[str, str]:
    return {v.path: f"{v.count} distribution(s) ({v.packages[:12]})" for v in fingerprint.venvs}


def _locks(fingerprint: EnvironmentPrint) -> dict[str, str]:
    return {lock.path: lock.digest[:12] for lock in fingerprint.lockfiles}


def _keyed_changes(label: str, before: dict[str, str], after: dict[str, str]) -> list[str]:
    return [f"{label} {key}: {before.get(key, 'absent')} → {after.get(key, 'absent')}"
            for key in sorted(before.keys() | after.keys()) if before.get(key) != after.get(key)]


def _platform_changes(before: PlatformPrint | None, after: PlatformPrint | None) -> list[str]:
    if before is None or after is None:
        return [] if before == after else ["platform: recorded on one side only"]
    old, new = before.model_dump(), after.model_dump()
    return [f"{field}: {old[field]} → {new[field]}" for field in ("os", "machine", "libc")
            if old[field] != new[field]]


def _variable_changes(before: list[VariablePrint], after: list[VariablePrint]) -> list[str]:
    """A declared variable absent from a fingerprint was unset there."""
    old = {v.name: v.value for v in before}
    new = {v.name: v.value for v in after}
    return [f"variable {name}: {_state(old.get(name))} → {_state(new.get(name))}"
            for name in sorted(old.keys() | new.keys()) if old.get(name) != new.get(name)]


def _state(value: str | None) -> str:
    return "unset" if value is None else f"set (hash {value[:8]})"


def _short(digest: str | None) -> str:
    return "none" if digest is None else digest[:12]
