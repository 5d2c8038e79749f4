"""Early precondition signals: repeated REFERENCE_EXISTS blocks of a build-critical path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.events import RecordedEvent, session_object_oid
from gitcorrex.model.preconditions import PreconditionFailed
from tests.conftest import REPO_ROOT
from tests.gates.conftest import Correx, recorded, start_step, state_key, write

PROFILE = ('version = 1\n[commands]\ntest = { run = "pytest", requires = ["pyproject.toml"] }\n'
           "[stages.fast]\nprecondition_threshold = 2\n")
MAKEFILE = "all: build\nbuild: src/main.c config.h\n\tcc -o app src/main.c\n"


def signals(root: Path) -> list[RecordedEvent]:
    return [e for e in recorded(root) if e.kind == "workspace_precondition_failed"]


def fields(event: RecordedEvent) -> PreconditionFailed:
    return PreconditionFailed.model_validate(event.model_extra)


def block_ids(root: Path) -> list[str]:
    return [e.id for e in recorded(root) if e.kind == "tool_call_assessed"]


def test_third_block_of_a_required_path_records_one_signal(make_repo: Callable[..., Path],
                                                           correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    for _ in (1, 2):
        result = correx(root, "assess", "read", "pyproject.toml", "notes.txt")
        assert result.code == 1 and "workspace_precondition_failed" not in result.stderr
    assert signals(root) == []
    third = correx(root, "assess", "read", "pyproject.toml", "notes.txt", "--json")
    assert third.code == 1, third
    [signal] = signals(root)
    assert '"preconditions": [' in third.stdout and signal.id in third.stdout
    recorded_fields = fields(signal)
    assert (recorded_fields.path, recorded_fields.source.value, recorded_fields.named_by,
            recorded_fields.attempts) == ("pyproject.toml", "profile_requires", "test", 3)
    assert recorded_fields.blocks == block_ids(root)
    assert signal.subjects == [state_key(root)] and signal.session is None
    fourth = correx(root, "assess", "read", "pyproject.toml", "notes.txt")
    assert fourth.code == 1 and "workspace_precondition_failed" not in fourth.stderr
    assert len(signals(root)) == 1  # never a second for the same path and state
    assert "✗ precondition failed: pyproject.toml (3 attempts; profile_requires test)" in \
        correx(root, "replay").stdout


def test_stage_threshold_and_a_path_a_makefile_names(make_repo: Callable[..., Path],
                                                     correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE, "Makefile": MAKEFILE})
    correx(root, "assess", "read", "config.h", "build", "--stage", "fast")
    result = correx(root, "assess", "read", "config.h", "build", "--stage", "fast")
    assert "config.h is still missing after 2 attempts" in result.stderr, result
    [signal] = signals(root)
    assert (fields(signal).source.value, fields(signal).named_by) == ("build_manifest",
                                                                     "Makefile")
    assert signal.stage == "fast"


def test_blocks_count_within_the_session_across_states(make_repo: Callable[..., Path],
                                                       correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    start_step(root, "run-1", "S2")
    correx(root, "assess", "read", "pyproject.toml")  # outside the session: not counted
    correx(root, "assess", "read", "pyproject.toml", "--session", "run-1")
    write(root, "src/new.py", "x = 1\n")  # a new state key; the session still counts
    correx(root, "assess", "read", "pyproject.toml", "--session", "run-1")
    assert signals(root) == []
    correx(root, "assess", "read", "pyproject.toml", "--session", "run-1")
    [signal] = signals(root)
    assert (signal.session, signal.step, fields(signal).attempts) == ("run-1", "S2", 3)
    assert signal.subjects == [state_key(root), session_object_oid("run-1")]
    correx(root, "assess", "read", "pyproject.toml", "--session", "run-1")
    assert len(signals(root)) == 1


def test_without_a_session_blocks_count_per_state_key(make_repo: Callable[..., Path],
                                                      correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    correx(root, "assess", "read", "pyproject.toml")
    correx(root, "assess", "read", "pyproject.toml")
    write(root, "src/new.py", "x = 1\n")
    correx(root, "assess", "read", "pyproject.toml")
    correx(root, "assess", "read", "pyproject.toml")
    assert signals(root) == []  # two on each state


def test_racing_blocks_record_exactly_one_signal(make_repo: Callable[..., Path],
                                                 correx: Correx) -> None:
    root = make_repo(files={".correx.toml": PROFILE})
    correx(root, "assess", "read", "pyproject.toml")
    correx(root, "assess", "read", "pyproject.toml")
    env = {"PYTHONPATH": str(REPO_ROOT)}
    procs = [subprocess.Popen([sys.executable, "-m", "gitcorrex", "assess", "read",
                               "pyproject.toml"], cwd=root, env={**os.environ, **env},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for _ in range(4)]
    assert [proc.wait(timeout=120) for proc in procs] == [1] * 4
    [signal] = signals(root)
    assert fields(signal).attempts >= 3


def test_an_invalid_profile_stops_the_signal_with_exit_2(make_repo: Callable[..., Path],
                                                         correx: Correx) -> None:
    root = make_repo(files={".correx.toml": "version = 1\n[stages.s]\nprecondition_threshold"
                                            " = 0\n"})
    result = correx(root, "assess", "read", "pyproject.toml")
    assert result.code == 2, result
    assert "stages.s.precondition_threshold: 0 is too small" in result.stderr


def test_no_profile_means_only_build_manifests_count(make_repo: Callable[..., Path],
                                                     correx: Correx) -> None:
    root = make_repo(files={"package.json": '{"main": "dist/index.js"}'})
    for _ in range(3):
        correx(root, "assess", "read", "dist/index.js", "pyproject.toml")
    [signal] = signals(root)
    assert (fields(signal).path, fields(signal).named_by) == ("dist/index.js", "package.json")


def test_claude_code_reads_count_and_say_stop_without_taking_claudes_session(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    """Claude's `session_id` is its conversation, not a correx session: the signal is
    recorded outside any session, and the deny's reason says stop."""
    root = make_repo(files={".correx.toml": PROFILE})
    body = json.dumps({"session_id": "agent-7", "tool_name": "Read", "cwd": str(root),
                       "hook_event_name": "PreToolUse",
                       "tool_input": {"file_path": "pyproject.toml"}}).encode()
    results = [correx(root, "assess", "--hook", "claude-code", input=body) for _ in range(3)]
    assert [r.code for r in results] == [0, 0, 0]
    reasons = [json.loads(r.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
               for r in results]
    assert "build prerequisite" not in reasons[1]
    assert "pyproject.toml is a build prerequisite (test) still missing after 3 attempts: " \
           "stop retrying" in reasons[2]
    [signal] = signals(root)
    assert signal.session is None
