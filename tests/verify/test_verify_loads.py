"""One `verify` path, whatever it is asked: what it loads, and what it records.

The first `verify` of a profile validates it (pydantic) and stores its selection; later
ones with the same profile bytes and options read the stored selection and load neither
pydantic nor pygit2. Either way the line recorded is the one the payload model reads back,
and the `--json` document names the very line in the note. Real repositories, real
processes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gitcorrex.model.payload_lines import read_line
from gitcorrex.model.verification import SetupFields, VerificationFields
from tests.conftest import REPO_ROOT, CliResult, git, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import NOTES_REF, is_anchored, py, write_profile

Correx = Callable[..., CliResult]


def note_lines(root: Path, oid: str) -> list[dict[str, Any]]:
    """The ledger lines on `oid` as git shows them, parsed as plain JSON."""
    body = git(root, "notes", f"--ref={NOTES_REF}", "show", oid)
    return [json.loads(line) for line in body.splitlines() if line]


def traced(root: Path, *args: str) -> CliResult:
    """`git correx ARGS` as run_correx runs it, with `-X importtime` (not inherited by the
    commands verify runs, so their output is not changed)."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get(
        "PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "gitcorrex", *args],
                          cwd=root, env=env, capture_output=True, check=False, timeout=120)
    return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                     proc.stderr.decode("utf-8", "replace"))


def loaded(result: CliResult, module: str) -> bool:
    """Whether the run imported `module` (`-X importtime` lists every import)."""
    return re.search(rf"\|\s+{re.escape(module)}$", result.stderr, re.MULTILINE) is not None


def fits(line: dict[str, Any]) -> None:
    """The line reads back into its payload class (the writer builds no model)."""
    payload = SetupFields if line["kind"] == SetupFields.KIND else VerificationFields
    read_line(json.dumps(line).encode(), payload)


@pytest.mark.parametrize(("command", "code"), [
    (py("print('ok')"), 0),
    (py("import sys; print('bad'); sys.exit(2)"), 1),
    (py("import os, signal; os.kill(os.getpid(), signal.SIGKILL)"), 1),
    ("no-such-command-here --flag", 3),
    ({"run": py("print('x')"), "requires": ["missing.txt"]}, 3),
    (py("import sys; sys.stdout.buffer.write(bytes(range(256)) * 9000)"), 0),
])
def test_a_stored_selection_verifies_without_models_or_libgit2(
        make_repo: Callable[..., Path], command: object, code: int) -> None:
    root = make_repo(files={"src/a.py": "A = 1\n", "README.md": "x\n"})
    write_profile(root, {"c": command, "ok": py("pass")}, {"e": ["c", "ok"]}, default="e")
    write(root, "src/a.py", "A = 2\n")  # a dirty workspace: changed_paths is not empty
    first, second = traced(root, "verify", "-q"), traced(root, "verify", "-q")
    assert (first.code, second.code) == (code, code), (first, second)
    assert loaded(first, "pydantic"), first  # the profile validated once, then stored
    assert not loaded(second, "pydantic") and not loaded(second, "pygit2"), second
    assert not loaded(second, "dataclasses"), second  # it loads `inspect`: ~6 ms
    lines = note_lines(root, reference_key(root))
    assert len(lines) == 2 and lines[1]["changed_paths"] == ["src/a.py"]
    for line in lines:
        fits(line)
    assert first.stdout == second.stdout


def test_json_names_the_line_recorded_in_the_note(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"c": py("print('hi')")}, {"e": ["c"]}, default="e")
    assert traced(root, "verify", "-q").code == 0
    result = traced(root, "verify", "--json")
    assert result.code == 0, result
    event = json.loads(result.stdout)["event"]
    assert note_lines(root, reference_key(root))[-1] == event


def test_a_moved_workspace_is_recorded_and_its_state_anchored(
        make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"touch": py("import uuid; open('moved.txt', 'w').write(str(uuid.uuid4()))"
                                     )}, {"e": ["touch"]}, default="e")
    assert traced(root, "verify", "-q").code == 3  # validates and stores the selection
    key = reference_key(root)
    result = traced(root, "verify", "-q")
    assert result.code == 3 and not loaded(result, "pydantic"), result
    line = note_lines(root, key)[-1]
    assert (line["result"], line["reason"]) == ("unavailable", "workspace_changed")
    assert line["state_after"] != key and is_anchored(root, line["state_after"])
    assert "moved.txt" in result.stdout


def test_a_changed_profile_is_validated_again(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"c": py("pass")}, {"e": ["c"]}, default="e")
    assert traced(root, "verify", "-q").code == 0
    write_profile(root, {"c": py("import sys; sys.exit(1)")}, {"e": ["c"]}, default="e")
    result = traced(root, "verify", "-q")
    assert result.code == 1 and loaded(result, "pydantic"), result  # new bytes: validated
    write(root, ".correx.toml", "version = 1\n[commands]\nc = 3\n")
    broken = traced(root, "verify", "-q")
    assert broken.code == 2 and ".correx.toml" in broken.stderr, broken


def test_each_expectation_is_stored_apart(correx: Correx, make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"good": py("pass"), "bad": py("import sys; sys.exit(1)")},
                  {"g": ["good"], "b": ["bad"]}, default="g")
    for expect, code in (("g", 0), ("b", 1), ("g", 0), ("b", 1)):
        assert traced(root, "verify", "-q", "--expect", expect).code == code
    assert correx(root, "verify", "-q", "--expect", "g").code == 0


def test_setup_runs_on_the_same_path(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"prep": py("pass"), "c": py("pass")},
                  {"e": {"setup": "prep", "commands": ["c"]}}, default="e")
    results = [traced(root, "verify", "-q") for _ in range(2)]
    assert [result.code for result in results] == [0, 0], results
    assert not loaded(results[1], "pydantic"), results[1]
    lines = note_lines(root, reference_key(root))
    assert [line["kind"] for line in lines].count("workspace_setup_observed") == 2
    for line in lines:
        fits(line)


@pytest.mark.slow
def test_concurrent_verifications_lose_nothing(make_repo: Callable[..., Path]) -> None:
    """Six verifies of one state at once: each loses races on the ref (git's
    compare-and-swap), retries on the new tip, and every line is in the note."""
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"c": py("pass")}, {"e": ["c"]}, default="e")
    assert traced(root, "verify", "-q").code == 0  # stores the selection
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get(
        "PYTHONPATH", "")}
    procs = [subprocess.Popen([sys.executable, "-X", "importtime", "-m", "gitcorrex", "verify",
                               "-q"], cwd=root, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(6)]
    errors = [proc.communicate(timeout=120)[1].decode() for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * 6, errors
    assert not any(re.search(r"\|\s+pydantic$", err, re.MULTILINE) for err in errors)
    lines = note_lines(root, reference_key(root))
    assert len(lines) == 7 and len({line["id"] for line in lines}) == 7
    git(root, "fsck", "--no-progress")


def test_a_dirty_workspace_is_diffed_against_head_once(
        make_repo: Callable[..., Path], tmp_path: Path) -> None:
    """The observation's changed paths, its anchor's weight and the environment-directory
    warning all ask for HEAD's tree against the key: one `git diff-tree` answers all three."""
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"c": py("pass")}, {"e": ["c"]}, default="e")
    assert traced(root, "verify", "-q").code == 0
    write(root, "src/new.py", "VALUE = 2\n")
    write(root, "env/pyvenv.cfg", "home = /usr/bin\n")
    trace = tmp_path / "trace.txt"
    env = {**os.environ, "GIT_TRACE": str(trace),
           "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", "verify"], cwd=root, env=env,
                          capture_output=True, check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert "env" in proc.stderr.decode()  # the environment directory was looked for
    line = note_lines(root, reference_key(root))[-1]
    assert line["changed_paths"] == ["env/pyvenv.cfg", "src/new.py"]
    assert is_anchored(root, reference_key(root))
    assert trace.read_text().count("built-in: git diff-tree -r -z --raw") == 1
