"""`git correx init`: write a starter profile detected from the repository, never over one.

The file is created with O_EXCL, so an existing profile (or one created concurrently) is
left byte-for-byte alone; and the text is loaded before it is written, so `init` can never
leave behind a profile that `verify` would refuse.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from gitcorrex.errors import ConfigError
from gitcorrex.profiles.detect import detect_project
from gitcorrex.profiles.load import PROFILE_NAME, parse_profile
from gitcorrex.profiles.template import render_profile


class InitResult(BaseModel):
    """What `init` wrote and why; `detected` is None when the generic template was used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    detected: str | None
    evidence: str | None
    commands: dict[str, str]
    gitignore: list[str]


def write_starter_profile(root: Path) -> InitResult:
    """Create `root/.correx.toml`; an existing one is a ConfigError (exit 2), left unchanged."""
    path = root / PROFILE_NAME
    if path.exists() or path.is_symlink():
        raise _exists(path)
    detection = detect_project(root)
    text = render_profile(detection).encode("utf-8")
    profile = parse_profile(text, source=PROFILE_NAME)
    try:
        with path.open("xb") as handle:
            handle.write(text)
    except FileExistsError:
        raise _exists(path) from None
    return InitResult(
        path=str(path),
        detected=detection.ecosystem if detection else None,
        evidence=detection.evidence if detection else None,
        commands={name: spec.run for name, spec in profile.commands.items()},
        gitignore=list(detection.outputs) if detection else [],
    )


def _exists(path: Path) -> ConfigError:
    return ConfigError(f"{path} already exists; init does not overwrite it",
                       hint="edit it, or remove it and run `git correx init` again")
