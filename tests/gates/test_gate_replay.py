"""Gate facts in sessions, in `show` and `replay`, and in a bare repository."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.cli.root import run
from gitcorrex.model.gates import StaticAnalysisCompleted
from tests.gates.conftest import (
    Correx,
    artifact,
    git,
    profile,
    project,
    recorded,
    script_command,
    start_step,
    state_key,
)
from tests.replay.test_timeline import forbid_processes


def gated_project(make_repo: Callable[..., Path], marker: Path) -> Path:
    count = script_command(f"open({str(marker)!r}, 'a').write('x'); "
                           "print('src/app.py:3:1: W1 style'); raise SystemExit(2)")
    return project(make_repo, profile('[stages.s]\nproduces = ["brief"]\n'
                                      'ground_references = true\nstatic_analysis = ["lint"]\n',
                                      f"lint = {count}\n"))


def test_gate_facts_belong_to_the_session_and_its_active_step(
        make_repo: Callable[..., Path], correx: Correx, tmp_path: Path) -> None:
    root = gated_project(make_repo, tmp_path / "runs")
    start_step(root, "run-1", "S1")
    brief = artifact(root, "brief", {"requirements": ["edit src/app.py"]})
    result = correx(root, "gate", "--stage", "s", "--session", "run-1", "--artifact", brief)
    assert result.code == 1, result
    events = recorded(root)
    gates = [e for e in events if e.kind != "step_started"]
    assert [(e.kind, e.session, e.seq, e.step) for e in gates] == [
        ("stage_artifacts_checked", "run-1", 2, "S1"),
        ("brief_grounding_checked", "run-1", 3, "S1"),
        ("static_analysis_completed", "run-1", 4, "S1")]
    assert all(len(e.subjects) == 2 and e.subjects[0] == state_key(root) for e in gates)


def test_replay_shows_gate_results_from_the_ledger_alone_and_runs_nothing(
        make_repo: Callable[..., Path], correx: Correx, tmp_path: Path) -> None:
    marker = tmp_path / "runs"
    root = gated_project(make_repo, marker)
    ok = artifact(root, "brief", {"requirements": ["edit src/app.py"]})
    assert correx(root, "gate", "--stage", "s", "--artifact", ok).code == 1
    missing = artifact(root, "brief", {"requirements": ["edit src/missing.py"]})
    assert correx(root, "gate", "--stage", "s", "--artifact", missing).code == 1
    assert marker.read_text() == "x"  # static analysis ran once: grounding stopped the second
    bare = tmp_path / "ledger-only.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(bare, "fetch", "-q", str(root), "refs/notes/correx:refs/notes/correx")
    here = correx(root, "replay")
    there = correx(bare, "replay")
    assert here.code == there.code == 0
    assert here.stdout == there.stdout
    assert correx(root, "replay", "--json").stdout == correx(bare, "replay", "--json").stdout
    lines = [line.split("  by ")[0][22:] for line in here.stdout.splitlines()]
    assert lines == ["✓ artifacts brief=supplied",
                     "✓ brief grounding: 0 of 1 reference(s) missing",
                     "✗ static analysis: lint=2",
                     "✓ artifacts brief=supplied",
                     "✗ brief grounding: 1 of 1 reference(s) missing: src/missing.py"]
    assert marker.read_text() == "x"  # replay ran nothing
    shown = correx(root, "show")
    assert "✗ static analysis: lint=2" in shown.stdout
    full = json.loads(correx(bare, "replay", "--json").stdout)["events"]
    static = StaticAnalysisCompleted.model_validate(
        {k: v for k, v in full[2].items() if k in StaticAnalysisCompleted.model_fields})
    assert static.commands[0].findings[0].message == "W1 style"
    blob = static.commands[0].output.blob
    assert blob is not None
    assert git(bare, "cat-file", "blob", blob) == "src/app.py:3:1: W1 style\n"
    brief_blob = full[0]["artifacts"][0]["blob"]
    assert json.loads(git(bare, "cat-file", "blob", brief_blob)) == \
        {"requirements": ["edit src/app.py"]}


def test_bare_repository_records_a_static_analysis_no_op_that_passes(
        make_repo: Callable[..., Path], correx: Correx, tmp_path: Path) -> None:
    marker = tmp_path / "runs"
    root = gated_project(make_repo, marker)
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(bare))
    (tmp_path / "brief.json").write_text(json.dumps({"requirements": ["edit src/app.py"]}))
    result = correx(bare, "gate", "--stage", "s", "--artifact",
                    f"brief={tmp_path / 'brief.json'}")
    assert result.code == 0, result
    assert "✓ static_analysis: no work tree: nothing run" in result.stdout
    assert not marker.exists()
    events = recorded(bare)
    head_tree = git(bare, "rev-parse", "HEAD^{tree}").strip()
    assert [e.state_key for e in events] == [head_tree] * 3
    static = StaticAnalysisCompleted.model_validate(events[2].model_extra)
    assert (static.skipped, static.commands, static.clean) == ("no_workspace", [], True)


def test_replay_of_gate_facts_starts_no_process(make_repo: Callable[..., Path],
                                                correx: Correx, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = gated_project(make_repo, tmp_path / "runs")
    brief = artifact(root, "brief", {"requirements": ["edit src/app.py"]})
    assert correx(root, "gate", "--stage", "s", "--artifact", brief).code == 1
    forbid_processes(monkeypatch)
    monkeypatch.chdir(root)
    assert run(["replay"]) == 0
    out = capsys.readouterr().out
    assert "✗ static analysis: lint=2" in out and "✓ brief grounding" in out
