"""Real projects for `git correx verify` and `show`: a profile of tiny python3 commands.

Commands are `python3 -c …` one-liners written into `.correx.toml`, so every test runs real
processes in a real repository, fast and without a shell. Events are read back with git's
own `git notes show`, never through the code under test.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import VerificationFields
from tests.conftest import git, write

NOTES_REF = "refs/notes/correx"

Command = str | Mapping[str, object]


def py(code: str) -> str:
    """A profile `run` value executing `code` with python3 (argv split like a shell)."""
    return shlex.join(["python3", "-c", code])


def toml_value(value: object) -> str:
    """Strings, lists and inline tables; JSON strings and arrays are valid TOML."""
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def profile_text(commands: Mapping[str, Command], expectations: Mapping[str, object], *,
                 default: str | None = None,
                 stages: Mapping[str, Mapping[str, object]] | None = None) -> str:
    """A `.correx.toml` from plain data."""
    lines = ["version = 1", "[commands]"]
    lines += [f"{name} = {toml_value(spec)}" for name, spec in commands.items()]
    lines.append("[expectations]")
    lines += [f"{name} = {toml_value(spec)}" for name, spec in expectations.items()]
    if default is not None:
        lines += ["[defaults]", f"expectation = {toml_value(default)}"]
    for stage, policy in (stages or {}).items():
        lines.append(f"[stages.{stage}]")
        lines += [f"{key} = {toml_value(value)}" for key, value in policy.items()]
    return "\n".join(lines) + "\n"


BUILD_OUT = "building\n"
TEST_OUT = "testing\n"
TEST_ERR = "warning on stderr\n"
FAIL_OUT = "FAILED: test_sum expected 3, got 4\n"

COMMANDS: dict[str, Command] = {
    "build": py(f"print({BUILD_OUT.rstrip()!r})"),
    "test": py("import sys; print('testing', flush=True); "
               f"sys.stderr.write({TEST_ERR!r})"),
    "broken": py(f"import sys; print({FAIL_OUT.rstrip()!r}); sys.exit(2)"),
}
EXPECTATIONS: dict[str, object] = {
    "test": ["build", "test"],
    "red": ["broken", "test"],
    "docs": [],
}
STAGES = {"implement": {"build_expectation": "test", "writes": ["/src/**", "/tests/**"]}}


def write_profile(root: Path, commands: Mapping[str, Command] | None = None,
                  expectations: Mapping[str, object] | None = None, *,
                  default: str | None = "test", commit: bool = True) -> Path:
    """Write (and by default commit) a profile; stages come only with the standard one."""
    standard = expectations is None
    text = profile_text(COMMANDS if commands is None else commands,
                        EXPECTATIONS if standard else expectations,
                        default=default, stages=STAGES if standard else None)
    path = write(root, ".correx.toml", text)
    if commit:
        git(root, "add", ".correx.toml")
        git(root, "commit", "-q", "-m", "profile")
    return path


@pytest.fixture
def project(make_repo: Callable[..., Path]) -> Path:
    """A committed project with the standard profile and a .gitignore for `ignored/`."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            ".gitignore": "ignored/\n"})
    write_profile(root)
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside every repository, for files commands count their runs in."""
    path = tmp_path / "outside"
    path.mkdir()
    return path


def counting(counter: Path, code: str = "") -> str:
    """A command that appends one line to `counter` (outside the repo), then runs `code`."""
    return py(f"open({str(counter)!r}, 'a').write('ran\\n'); {code or 'pass'}")


def runs_counted(counter: Path) -> int:
    """How many times a `counting` command ran."""
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def notes_on(root: Path, oid: str) -> list[RecordedEvent]:
    """The events in the ledger note on `oid`, read by git itself; [] when there is none."""
    listed = git(root, "notes", f"--ref={NOTES_REF}", "list")
    if oid not in {line.split()[1] for line in listed.splitlines()}:
        return []
    body = git(root, "notes", f"--ref={NOTES_REF}", "show", oid)
    return [RecordedEvent.model_validate_json(line) for line in body.splitlines() if line]


def only_event(root: Path, oid: str) -> RecordedEvent:
    """The single event on `oid` (fails the test when there are more or none)."""
    events = notes_on(root, oid)
    assert len(events) == 1, events
    return events[0]


def fields_of(event: RecordedEvent) -> VerificationFields:
    """The kind-specific fields, validated by the model the writer uses."""
    return VerificationFields.model_validate(event.model_extra)


def has_ledger(root: Path) -> bool:
    """Whether anything was ever recorded (the notes ref exists)."""
    return bool(git(root, "for-each-ref", NOTES_REF).strip())


def is_anchored(root: Path, oid: str) -> bool:
    """Whether the ledger's notes tree holds `anchors/<ab>/<rest>` = `oid` (keeps it alive)."""
    entry = git(root, "ls-tree", NOTES_REF, f"anchors/{oid[:2]}/{oid[2:]}")
    return entry.split("\t")[0].split()[-1:] == [oid]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
