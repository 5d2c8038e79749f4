"""No command prints a raw control or bidi character taken from outside.

Every command runs, as a real process, in a repository whose path holds U+202E (a path
shown reversed), an OSC escape (`ESC ] 0 ; … BEL` sets a terminal's title), a C1 CSI and
a line separator; its plan file, its temporary directory, its hooks and some of its
files' names hold them too, and the git identity that records holds U+202E. Whatever a
command prints — text or `--json`, on stdout or stderr, a success or an error — must hold
none of those characters raw: each is escaped by the one escaper, model/printable.py (JSON: as
`\\uXXXX`); only a profile command's own output is shown verbatim. The table names every
command the CLI offers; a new command fails `test_the_table_names_every_command` until it
is added here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import click
import pytest

from gitcorrex.cli.commands import ALL
from gitcorrex.model.printable import printable
from tests.conftest import REPO_ROOT, git, write
from tests.plan.conftest import PROFILE, fixture

HOSTILE = "re\u202epo\x1b]0;owned\x07\u009b\u2028"
PLAN, SESSION = "{plan}", "{session}"

# Every leaf command (the words that name it, then its arguments), in the order they run.
COMMANDS: list[tuple[str, ...]] = [
    ("doctor",), ("doctor", "--json"), ("hooks", "status"), ("hooks", "install"),
    ("hooks", "install", "--json"), ("hooks", "status"), ("hooks", "status", "--json"),
    ("doctor",), ("doctor", "--json"),
    ("hooks", "install", "--agent", "claude-code"),
    ("hooks", "install", "--agent", "claude-code", "--print"),
    ("hooks", "install", "--agent", "claude-code", "--shared"),
    ("init",), ("init", "--json"), ("state",), ("state", "--json"),
    ("verify", "--expect", "full"), ("verify", "--expect", "full", "--json"),
    ("verify", "--expect", "full", "--isolated", "--json"),
    ("show",), ("show", "--json"), ("explain",), ("explain", "--json"), ("log",),
    ("log", "--json"), ("replay",),
    ("report",), ("attest", "HEAD"), ("check", "HEAD~1..HEAD", "--stage", "implement"),
    ("check", "HEAD~1..HEAD", "--json"), ("check", "HEAD~1..HEAD", "--require-test-integrity"),
    ("accept-tests", "--dry-run", "--reason", "r"), ("accept-tests", "--reason", "r", "--json"),
    ("agents", "history"), ("agents", "history", "--json"),
    ("assess", "write", "docs/x.md", "--stage", "implement"),
    ("gate", "--stage", "implement"), ("manifest", "lint"), ("manifest", "lint", "--json"),
    ("plan", "path"), ("plan", "path", "--json"), ("plan", "ground", PLAN),
    ("plan", "audit", PLAN), ("plan", "authorize", PLAN), ("plan", "validate", PLAN),
    ("plan", "lock", PLAN), ("plan", "lock", PLAN, "--json"),
    ("session", "list"), ("session", "list", "--json"), ("session", "status", SESSION),
    ("session", "status", SESSION, "--json"),
    ("session", "adopt", "--session", SESSION, "--reason", "r"),
    ("step", "start", "S1", "--session", SESSION),
    ("step", "review", "S1", "--session", SESSION, "--approve", "--reason", "r"),
    ("session", "clarify", "src/app.py", "--session", SESSION, "--reason", "r"),
    ("pause", "--session", SESSION, "--kind", "administrative", "--reason", "r"),
    ("resume", "--session", SESSION, "--reason", "r"),
    ("plan", "route", PLAN, "--step", "S1", "--split", "--reason", "r"),
    ("sync",), ("hook", "run", "pre-commit"), ("help", "doctor"), ("mcp",),
    ("hooks", "uninstall"), ("hooks", "uninstall", "--json"), ("demo",),
    ("watch", "start"), ("watch", "status"), ("watch", "status", "--json"), ("watch", "stop"),
]

# Run in a second repository under the same path, which has no profile yet.
IN_A_FRESH_REPOSITORY = {("init",), ("init", "--json")}
# Profile commands' own output is shown verbatim on stderr (docs/verify.md): the demo's failing
# test prints its traceback, which names the (hostile) temporary directory.
VERBATIM_STDERR = {("demo",)}


def _leaf_commands(commands: Iterable[click.Command], words: tuple[str, ...] = ()
                   ) -> set[tuple[str, ...]]:
    """The words naming every command that runs (groups opened), e.g. ("plan", "lock")."""
    found: set[tuple[str, ...]] = set()
    for command in commands:
        named = (*words, command.name or "")
        if isinstance(command, click.Group):
            found |= _leaf_commands(command.commands.values(), named)
        else:
            found.add(named)
    return found


def test_the_table_names_every_command() -> None:
    leaves = _leaf_commands(ALL)
    named = {words for entry in COMMANDS for words in (entry[:1], entry[:2]) if words in leaves}
    assert named == leaves


@pytest.mark.slow
def test_no_command_prints_a_raw_control_or_bidi_character_of_the_path(
        tmp_path: Path) -> None:
    base = tmp_path / HOSTILE
    root_dir = _hostile_repo(base)
    fresh = base / "fresh"
    fresh.mkdir()
    git(fresh, "init", "-q")
    write(fresh, "pyproject.toml", "[project]\nname = 'x'\n")
    plan = base / "plan.toml"
    shutil.copyfile(fixture("atomic_step.toml"), plan)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "TMPDIR": str(base / "tmp"),
           "GIT_AUTHOR_NAME": "Ada \u202eTester", "GIT_COMMITTER_NAME": "Ada \u202eTester"}
    (base / "tmp").mkdir()
    session = "none"
    raw: dict[str, list[str]] = {}
    for entry in COMMANDS:
        args = [str(plan) if arg == PLAN else session if arg == SESSION else arg
                for arg in entry]
        cwd = fresh if entry in IN_A_FRESH_REPOSITORY else root_dir
        out = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=cwd, env=env,
                             stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        shown = out.stdout if entry in VERBATIM_STDERR else out.stdout + out.stderr
        text = shown.decode("utf-8", "surrogateescape")
        if entry[:2] == ("plan", "lock") and out.returncode == 0 and len(entry) == 3:
            session = out.stdout.decode().split()[0]
        found = sorted({hex(ord(char)) for char in text if char not in "\n\t"
                        and printable(char) != char})
        if found:
            raw[" ".join(entry)] = found
    assert session != "none"
    assert raw == {}, "; ".join(sorted(raw))


def _hostile_repo(base: Path) -> Path:
    """A committed repository under `base` with the plan profile and a passing check."""
    root_dir = base / "repo"
    root_dir.mkdir(parents=True)
    git(root_dir, "init", "-q")
    for rel, content in {".correx.toml": PROFILE, "impl.txt": "good\n",
                         "check_impl.py": "import sys; sys.exit(0)\n",
                         "src/app.py": "def run():\n    return 1\n"}.items():
        write(root_dir, rel, content)
    git(root_dir, "add", "-A")
    git(root_dir, "commit", "-q", "-m", "initial")
    write(root_dir, "src/app.py", "def run():\n    return 2\n")
    write(root_dir, f"src/{HOSTILE}.py", "x = 1\n")
    write(root_dir, f"docs/{HOSTILE}.md", "outside the manifest\n")
    git(root_dir, "add", "-A")
    git(root_dir, "commit", "-q", "-m", "change")
    write(root_dir, f"{HOSTILE}.log", "untracked\n")
    return root_dir
