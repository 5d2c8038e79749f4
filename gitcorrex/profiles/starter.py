"""`git correx init`: write a starter profile detected from the repository, never over one.

The file is created with O_EXCL, so an existing profile (or one created concurrently) is
left byte-for-byte alone; and the text is loaded before it is written, so `init` can never
leave behind a profile that `verify` would refuse.

A starter profile's first `verify` should pass when the suite passes: its commands avoid
writing build droppings where the ecosystem allows it (`python -B`), and the droppings the
ecosystem still writes (`node_modules/`, `target/` …) that git would add are named, and
with consent (`--exclude`) added to `.git/info/exclude` — never to a tracked file.

Environment directories (a virtualenv, `node_modules/`, a tool's cache) are never the
project: the untracked, un-ignored ones are always added to `.git/info/exclude`, so they
never enter the state key (docs/state-key.md#environment-directories).
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.errors import ConfigError
from gitcorrex.git import (
    Repository,
    append_excludes,
    unignored_patterns,
    untracked_environment_dirs,
)
from gitcorrex.model.record import Record
from gitcorrex.profiles.detect import detect_project
from gitcorrex.profiles.load import PROFILE_NAME, parse_profile
from gitcorrex.profiles.template import render_profile


class ExcludedEnvironment(Record):
    """An environment directory `init` excluded: its path (no trailing slash), what it holds."""

    path: str
    what: str


class InitResult(Record):
    """What `init` wrote and why; `detected` is None when the generic template was used.

    `gitignore` lists the ecosystem's build outputs, `unignored` those git would still add,
    `excluded` those written to `exclude_file` (with --exclude). `created` is False when an
    existing profile was kept (only with --exclude). `environments` are the environment
    directories excluded (always, with or without --exclude).
    """

    path: str
    created: bool
    detected: str | None
    evidence: str | None
    commands: dict[str, str]
    gitignore: list[str]
    unignored: list[str]
    excluded: list[str]
    exclude_file: str | None
    environments: tuple[ExcludedEnvironment, ...] = ()


def write_starter_profile(repo: Repository, *, exclude: bool = False) -> InitResult:
    """Create `.correx.toml` at the top level; an existing one is a ConfigError (exit 2),
    left unchanged — unless `exclude`, which then only adds the ignore lines."""
    path = repo.root / PROFILE_NAME
    detection = detect_project(repo.root)
    text = render_profile(detection).encode("utf-8")
    profile = parse_profile(text, source=PROFILE_NAME)
    created = _create(path, text, keep_existing=exclude)
    outputs = list(detection.outputs) if detection else []
    unignored = unignored_patterns(repo, outputs)
    excluded = unignored if exclude else []
    where = append_excludes(repo, excluded, why="build outputs (git correx init --exclude)") \
        if excluded else None
    environments = _exclude_environments(repo)
    where = where or (environments[1] if environments else None)
    return InitResult(
        path=str(path), created=created,
        detected=detection.ecosystem if detection else None,
        evidence=detection.evidence if detection else None,
        commands={name: spec.run for name, spec in profile.commands.items()} if created else {},
        gitignore=outputs, unignored=[p for p in unignored if p not in excluded],
        excluded=excluded, exclude_file=str(where) if where else None,
        environments=tuple(environments[0]) if environments else (),
    )


def _exclude_environments(repo: Repository) -> tuple[list[ExcludedEnvironment], Path] | None:
    """Exclude the untracked environment directories; what was excluded and where, or
    None when there were none."""
    found = untracked_environment_dirs(repo)
    if not found:
        return None
    where = append_excludes(repo, [found_dir.exclude_line for found_dir in found],
                            why="environment directories, never the project (git correx init)")
    return [ExcludedEnvironment(path=d.path, what=d.what) for d in found], where


def _create(path: Path, text: bytes, *, keep_existing: bool) -> bool:
    """True when the profile was written; False when one exists and is kept."""
    if path.exists() or path.is_symlink():
        if keep_existing:
            return False
        raise _exists(path)
    try:
        with path.open("xb") as handle:
            handle.write(text)
    except FileExistsError:
        if keep_existing:
            return False
        raise _exists(path) from None
    return True


def _exists(path: Path) -> ConfigError:
    return ConfigError(f"{path} already exists; init does not overwrite it",
                       hint="edit it, or remove it and run `git correx init` again")
