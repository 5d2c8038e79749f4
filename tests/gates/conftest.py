"""A committed project with a profile of gated stages, artifacts, and ledger readers."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from gitcorrex.ledger import append_events
from gitcorrex.model.events import Actor, Provenance, RecordedEvent, ToolVersions
from tests.conftest import CliResult, git, in_process, run_correx, write
from tests.ledger_facts import raw_draft

Correx = Callable[..., CliResult]
PYTHON = shlex.quote(sys.executable)
M = TypeVar("M", bound=BaseModel)
PROVENANCE = Provenance(
    actor=Actor(name="Ada Tester", email="ada@example.test", host="testhost", runtime="1-ab"),
    tool=ToolVersions(correx="0.1.0", git="2.39.5", libgit2="1.9.7"))


def script_command(body: str) -> str:
    """A profile command line running `python -c body` (TOML basic string, escaped)."""
    return json.dumps(f"{PYTHON} -c {shlex.quote(body)}")


def profile(stages: str, commands: str = "") -> str:
    return f"version = 1\n[commands]\n{commands}\n{stages}"


def project(make_repo: Callable[..., Path], profile_text: str,
            extra: dict[str, str] | None = None) -> Path:
    files = {"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
             "tests/test_app.py": "def test(): pass\n", ".correx.toml": profile_text,
             ".gitignore": "/out/\n", **(extra or {})}
    return make_repo(files=files)


def artifact(root: Path, name: str, document: object) -> str:
    """Write an artifact under the ignored out/ directory; returns `name=out/<name>.json`."""
    text = document if isinstance(document, str) else json.dumps(document)
    write(root, f"out/{name}.json", text)
    return f"{name}=out/{name}.json"


def recorded(root: Path) -> list[RecordedEvent]:
    result = run_correx(root, "replay", "--json")
    assert result.code == 0, result
    return [RecordedEvent.model_validate(e) for e in json.loads(result.stdout)["events"]]


def kinds(root: Path) -> list[str]:
    return [event.kind for event in recorded(root)]


def state_key(root: Path) -> str:
    return run_correx(root, "state").stdout.strip()


__all__ = ["git", "write"]


def gate_fields(document: dict[str, object], model: type[M]) -> M:
    """A gate event of `gate --json`, its kind fields validated by the writer's model."""
    return model.model_validate(RecordedEvent.model_validate(document).model_extra)


STEP_STARTED = {"writes": [], "expectation_docs": False, "baseline": "a" * 40}


def start_step(root: Path, session: str, step: str) -> None:
    """A `step_started` fact, as the session commands record it (envelope step)."""
    append_events(in_process(root),
                  [raw_draft(kind="step_started", subjects=(), fields=STEP_STARTED,
                              session=session, step=step)],
                  now=datetime(2026, 1, 1, tzinfo=timezone.utc), provenance=PROVENANCE)
