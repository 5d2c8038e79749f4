"""The plain `verify` path (no pydantic, no pygit2) records exactly what the model path does.

The first `verify` of a profile runs the model path (it validates the profile and stores
the selection); later ones with the same profile bytes and options run the plain path. Each
test below compares the two, on real repositories and real processes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from gitcorrex import ledger
from gitcorrex.git.repository import discover_with_git
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.ledger_append import append_event_with_git, provenance_stamp
from gitcorrex.model.verification import VerificationFields
from tests.conftest import REPO_ROOT, CliResult, git, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import NOTES_REF, is_anchored, py, write_profile

Correx = Callable[..., CliResult]
VOLATILE = ("at", "id")


def note_lines(root: Path, oid: str) -> list[dict[str, Any]]:
    """The ledger lines on `oid` as git shows them, parsed as plain JSON."""
    body = git(root, "notes", f"--ref={NOTES_REF}", "show", oid)
    return [json.loads(line) for line in body.splitlines() if line]


def comparable(line: dict[str, Any]) -> dict[str, Any]:
    """A line without what differs between two runs: time, id, process, durations."""
    kept = {key: value for key, value in line.items() if key not in VOLATILE}
    kept["actor"] = {**line["actor"], "runtime": "-"}
    kept["commands"] = [{**command, "duration_ms": 0} for command in line["commands"]]
    return kept


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


def verify_twice(correx: Correx, root: Path, *args: str,
                 code: int) -> tuple[CliResult, CliResult]:
    """Verify the same state twice: the model path, then the plain one (checked)."""
    first = traced(root, "verify", "-q", *args)
    second = traced(root, "verify", "-q", *args)
    assert (first.code, second.code) == (code, code), (first, second)
    assert loaded(first, "pydantic") and loaded(first, "pygit2"), first
    assert not loaded(second, "pydantic") and not loaded(second, "pygit2"), second
    return first, second


@pytest.mark.parametrize(("command", "code"), [
    (py("print('ok')"), 0),
    (py("import sys; print('bad'); sys.exit(2)"), 1),
    (py("import os, signal; os.kill(os.getpid(), signal.SIGKILL)"), 1),
    ("no-such-command-here --flag", 3),
    ({"run": py("print('x')"), "requires": ["missing.txt"]}, 3),
    (py("import sys; sys.stdout.buffer.write(bytes(range(256)) * 9000)"), 0),
])
def test_plain_path_records_what_the_model_path_records(
        correx: Correx, make_repo: Callable[..., Path], command: object, code: int) -> None:
    root = make_repo(files={"src/a.py": "A = 1\n", "README.md": "x\n"})
    write_profile(root, {"c": command, "ok": py("pass")}, {"e": ["c", "ok"]}, default="e")
    write(root, "src/a.py", "A = 2\n")  # a dirty workspace: changed_paths is not empty
    key = reference_key(root)
    first, second = verify_twice(correx, root, code=code)
    lines = note_lines(root, key)
    assert len(lines) == 2
    assert comparable(lines[1]) == comparable(lines[0])
    assert lines[1]["changed_paths"] == ["src/a.py"]
    assert first.stdout == second.stdout


def test_plain_path_records_a_moved_workspace_and_anchors_its_state(
        correx: Correx, make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"touch": py("import uuid; open('moved.txt', 'w').write(str(uuid.uuid4()))"
                                     )}, {"e": ["touch"]}, default="e")
    assert correx(root, "verify", "-q").code == 3  # the model path stores the selection
    key = reference_key(root)
    result = traced(root, "verify", "-q")
    assert result.code == 3 and not loaded(result, "pydantic"), result
    line = note_lines(root, key)[-1]
    assert (line["result"], line["reason"]) == ("unavailable", "workspace_changed")
    assert line["state_after"] != key and is_anchored(root, line["state_after"])
    assert "moved.txt" in result.stdout


def test_a_changed_profile_is_never_run_from_the_stored_selection(
        correx: Correx, make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"c": py("pass")}, {"e": ["c"]}, default="e")
    verify_twice(correx, root, code=0)
    write_profile(root, {"c": py("import sys; sys.exit(1)")}, {"e": ["c"]}, default="e")
    result = traced(root, "verify", "-q")
    assert result.code == 1 and loaded(result, "pydantic"), result  # new bytes: model path


def test_each_expectation_is_stored_apart(correx: Correx, make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"good": py("pass"), "bad": py("import sys; sys.exit(1)")},
                  {"g": ["good"], "b": ["bad"]}, default="g")
    verify_twice(correx, root, "--expect", "g", code=0)
    verify_twice(correx, root, "--expect", "b", code=1)
    assert correx(root, "verify", "-q", "--expect", "g").code == 0


def test_setup_and_sessions_stay_on_the_model_path(correx: Correx,
                                                  make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"prep": py("pass"), "c": py("pass")},
                  {"e": {"setup": "prep", "commands": ["c"]}}, default="e")
    for _ in range(2):
        result = traced(root, "verify", "-q")
        assert result.code == 0 and loaded(result, "pydantic"), result
    kinds = [line["kind"] for line in note_lines(root, reference_key(root))]
    assert kinds.count("workspace_setup_observed") == 2


def test_the_plain_line_and_commit_equal_the_model_writers(make_repo: Callable[..., Path]) -> None:
    """The same observation, stamped at the same instant by the same process, written by
    `ledger.append_events` (pydantic, pygit2) and by `append_event_with_git`: the same line
    byte for byte, the same notes tree, a commit of the same shape."""
    root = make_repo(files={"README.md": "x\n"})
    repo = discover_with_git(root)
    key = git(root, "rev-parse", "HEAD^{tree}").strip()
    output = git(root, "hash-object", "-w", "--stdin", input=b"out\n").strip()
    values = observation(key, output)
    now = datetime(2026, 12, 3, 12, 0, 0, 123456, tzinfo=timezone.utc)
    provenance = current_provenance(repo)
    assert provenance_stamp(repo) == provenance.model_dump(mode="json")
    git(root, "notes", f"--ref={NOTES_REF}", "add", "-m", "an older note", output)
    old = git(root, "rev-parse", NOTES_REF).strip()
    draft = ledger.EventDraft(VerificationFields.model_validate(values), subjects=(key,),
                              stage="impl", state_key=key, anchors={output: "blob"})
    ledger.append_events(repo, [draft], now=now, provenance=provenance)
    by_model = git(root, "rev-parse", NOTES_REF).strip()
    git(root, "update-ref", NOTES_REF, old)
    line = append_event_with_git(repo, kind=VerificationFields.KIND, fields=values,
                                 subjects=[key], anchors={output: "blob"}, stage="impl",
                                 state_key=key, now=now,
                                 provenance=provenance.model_dump(mode="json"))
    by_git = git(root, "rev-parse", NOTES_REF).strip()
    assert git(root, "cat-file", "blob", f"{by_git}:{key[:2]}/{key[2:]}") == line + "\n"
    assert git(root, "rev-parse", f"{by_model}^{{tree}}") == git(root, "rev-parse",
                                                                 f"{by_git}^{{tree}}")
    assert commit_shape(root, by_git) == commit_shape(root, by_model)


def observation(key: str, output: str) -> dict[str, Any]:
    command = {"name": "c", "argv": ["true", "é"], "digest": "d" * 64, "exit_code": 0,
               "signal": None, "stop_reason": "exit", "duration_ms": 3,
               "output": {"size": 4, "sha256": "e" * 64, "tail": "out\udcff\n", "blob": output,
                          "truncated": False}}
    return {"expectation": "e", "result": "pass", "reason": None, "missing_path": None,
            "commands": [command], "writes": ["/src/**"], "state_after": key,
            "head_tree": key, "changed_paths": ["a\udcffb"], "changed_paths_omitted": 0,
            "profile": output, "isolated": False, "reused_from": None}


def commit_shape(root: Path, commit: str) -> str:
    return re.sub(r"> \d+ [+-]\d{4}\n", "> TIME\n", git(root, "cat-file", "commit", commit))


def test_concurrent_plain_verifications_lose_nothing(make_repo: Callable[..., Path]) -> None:
    """Six plain verifies of one state at once: each loses races on the ref (git's
    compare-and-swap), retries on the new tip, and every line is in the note."""
    root = make_repo(files={"README.md": "x\n"})
    write_profile(root, {"c": py("pass")}, {"e": ["c"]}, default="e")
    assert traced(root, "verify", "-q").code == 0  # the model path stores the selection
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get(
        "PYTHONPATH", "")}
    procs = [subprocess.Popen([sys.executable, "-X", "importtime", "-m", "gitcorrex", "verify",
                               "-q"], cwd=root, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(6)]
    results = [(proc.returncode, proc.communicate(timeout=120)[1].decode())
               for proc in procs]
    results = [(proc.returncode, err) for proc, (_, err) in zip(procs, results, strict=True)]
    assert [code for code, _ in results] == [0] * 6, results
    assert not any(re.search(r"\|\s+pydantic$", err, re.MULTILINE) for _, err in results)
    lines = note_lines(root, reference_key(root))
    assert len(lines) == 7 and len({line["id"] for line in lines}) == 7
    git(root, "fsck", "--no-progress")
