"""`git correx gate` end to end: real repositories, real static analysis processes."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.gates import (
    ArtifactsChecked,
    BriefEchoMismatch,
    BriefGroundingChecked,
    StaticAnalysisCompleted,
)
from tests.gates.conftest import (
    Correx,
    artifact,
    gate_fields,
    git,
    kinds,
    profile,
    project,
    recorded,
    script_command,
    state_key,
)

LINT_FAIL = script_command("print('src/app.py:1:5: E1 bad name'); print('other'); "
                           "raise SystemExit(1)")
LINT_OK = script_command("print('all clean')")


def test_failing_static_analysis_fails_the_gate_with_the_output_verbatim(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, profile('[stages.impl]\nstatic_analysis = ["lint", "ok"]\n',
                                      f"lint = {LINT_FAIL}\nok = {LINT_OK}\n"))
    result = correx(root, "gate", "--stage", "impl")
    assert result.code == 1, result
    assert "static analysis 'lint' is not clean:\nsrc/app.py:1:5: E1 bad name\nother\n" \
        in result.stderr
    assert "'ok'" not in result.stderr  # only non-clean output is fed back
    assert "✗ static_analysis: 2 command(s), 1 not clean" in result.stdout
    [event] = recorded(root)
    fields = StaticAnalysisCompleted.model_validate(event.model_extra)
    assert event.kind == "static_analysis_completed" and event.state_key == state_key(root)
    assert event.stage == "impl" and event.subjects == [state_key(root)]
    assert not fields.clean and [c.exit_code for c in fields.commands] == [1, 0]
    lint = fields.commands[0]
    assert lint.name == "lint" and lint.stop_reason.value == "exit"
    assert [(f.path, f.line, f.column, f.message) for f in lint.findings] == \
        [("src/app.py", 1, 5, "E1 bad name")]
    assert lint.output.tail.startswith("src/app.py:1:5") and lint.output.blob is not None
    assert fields.state_after == event.state_key


def test_passing_static_analysis_passes_and_is_recorded(make_repo: Callable[..., Path],
                                                        correx: Correx) -> None:
    root = project(make_repo, profile(f'[stages.impl]\nstatic_analysis = ["ok", {LINT_OK}]\n',
                                      f"ok = {LINT_OK}\n"))
    result = correx(root, "gate", "--stage", "impl", "--json")
    assert result.code == 0, result
    document = json.loads(result.stdout)
    assert document["passed"] and document["failed_gate"] is None
    assert document["feedback"] is None
    fields = gate_fields(document["gates"][0]["event"], StaticAnalysisCompleted)
    assert fields.clean and [c.name for c in fields.commands] == ["ok", None]
    assert fields.commands[1].argv[0] == sys.executable  # an operator command line


def test_ruff_as_static_analysis(make_repo: Callable[..., Path], correx: Correx) -> None:
    pytest.importorskip("ruff")
    ruff = json.dumps(f"{shlex.quote(sys.executable)} -m ruff check --no-cache "
                      "--select F401 --output-format concise src")
    root = project(make_repo, profile(f"[stages.impl]\nstatic_analysis = [{ruff}]\n"),
                   {"src/app.py": "import os\nVALUE = 1\n"})
    failed = correx(root, "gate", "--stage", "impl")
    assert failed.code == 1, failed
    assert "src/app.py:1:8: F401" in failed.stderr
    fields = StaticAnalysisCompleted.model_validate(recorded(root)[0].model_extra)
    assert [(f.path, f.line, f.column) for f in fields.commands[0].findings] == \
        [("src/app.py", 1, 8)]
    (root / "src/app.py").write_text("VALUE = 1\n")
    passed = correx(root, "gate", "--stage", "impl")
    assert passed.code == 0, passed
    assert [StaticAnalysisCompleted.model_validate(e.model_extra).clean
            for e in recorded(root)] == [False, True]


def test_timeout_and_missing_program_are_not_clean(make_repo: Callable[..., Path],
                                                   correx: Correx) -> None:
    sleep = script_command("import time; time.sleep(30)")
    root = project(make_repo, profile(
        '[stages.impl]\nstatic_analysis = ["slow", "no-such-program-xyz --check"]\n',
        f"slow = {{ run = {sleep}, timeout = 1 }}\n"))
    result = correx(root, "gate", "--stage", "impl", "--json")
    assert result.code == 1, result
    fields = gate_fields(json.loads(result.stdout)["gates"][0]["event"], StaticAnalysisCompleted)
    assert [c.stop_reason.value for c in fields.commands] == ["timeout", "not_found"]
    assert all(c.exit_code is None for c in fields.commands)


def test_static_analysis_that_changes_the_workspace_fails(make_repo: Callable[..., Path],
                                                          correx: Correx) -> None:
    fixer = script_command("open('src/app.py', 'w').write('VALUE = 2\\n')")
    root = project(make_repo, profile('[stages.impl]\nstatic_analysis = ["fix"]\n',
                                      f"fix = {fixer}\n"))
    before = state_key(root)
    result = correx(root, "gate", "--stage", "impl")
    assert result.code == 1, result
    assert "static analysis changed the workspace" in result.stderr
    [event] = recorded(root)
    fields = StaticAnalysisCompleted.model_validate(event.model_extra)
    assert fields.clean and event.state_key == before
    assert fields.state_after == state_key(root) != before


def test_gates_run_in_order_and_stop_at_the_first_failure(make_repo: Callable[..., Path],
                                                          correx: Correx,
                                                          tmp_path: Path) -> None:
    marker = tmp_path / "static-ran"
    touch = script_command(f"open({str(marker)!r}, 'a').write('x')")
    root = project(make_repo, profile(
        '[stages.s]\nproduces = ["brief", "brief_echo"]\nground_references = true\n'
        'brief_echo = true\nstatic_analysis = ["touch"]\n', f"touch = {touch}\n"))
    good = {"requirements": ["retry in src/app.py", "test it in tests/test_app.py"]}
    echo_ok = {"requirements": ["retry in src/app.py", "test it in tests/test_app.py"]}
    steps = [
        # (brief, restatement, failing gate, gates that ran)
        (None, echo_ok, "produces", ["produces"]),
        ({"requirements": ["edit src/gone.py"]}, echo_ok, "grounding",
         ["produces", "grounding"]),
        (good, {"requirements": ["retry in src/app.py"]}, "echo",
         ["produces", "grounding", "echo"]),
        (good, echo_ok, None, ["produces", "grounding", "echo", "static_analysis"]),
    ]
    for brief, restated, failing, ran in steps:
        args = [artifact(root, "brief_echo", restated)]
        if brief is not None:
            args.append(artifact(root, "brief", brief))
        result = correx(root, "gate", "--stage", "s", "--json",
                        *[f"--artifact={a}" for a in args])
        document = json.loads(result.stdout)
        assert [g["gate"] for g in document["gates"]] == ran, result
        assert document["failed_gate"] == failing
        assert result.code == (0 if failing is None else 1)
        assert marker.exists() is (failing is None)
    assert kinds(root) == [
        "stage_artifacts_checked",
        "stage_artifacts_checked", "brief_grounding_checked",
        "stage_artifacts_checked", "brief_grounding_checked", "brief_echo_mismatch",
        "stage_artifacts_checked", "brief_grounding_checked", "static_analysis_completed"]


def test_produces_names_the_missing_and_the_unparsable(make_repo: Callable[..., Path],
                                                       correx: Correx) -> None:
    root = project(make_repo, profile('[stages.a]\nproduces = ["brief", "plan"]\n'))
    result = correx(root, "gate", "--stage", "a", "--artifact",
                    artifact(root, "brief", "{not json"), "--artifact",
                    artifact(root, "notes", {"x": 1}))
    assert result.code == 1, result
    assert "artifact 'brief' not_json" in result.stderr
    assert "artifact 'plan' missing: not supplied: pass --artifact plan=FILE" in result.stderr
    fields = ArtifactsChecked.model_validate(recorded(root)[0].model_extra)
    assert [(a.name, a.declared, a.status.value) for a in fields.artifacts] == [
        ("brief", True, "not_json"), ("plan", True, "missing"), ("notes", False, "supplied")]


@pytest.mark.parametrize("document", [[], {"requirements": "x"}, {"requirements": [1]}, {}])
def test_a_brief_needs_a_requirements_list_of_strings(make_repo: Callable[..., Path],
                                                       correx: Correx,
                                                       document: object) -> None:
    root = project(make_repo, profile('[stages.a]\nproduces = ["brief"]\n'))
    result = correx(root, "gate", "--stage", "a", "--artifact", artifact(root, "brief",
                                                                          document))
    assert result.code == 1, result
    assert "artifact 'brief' bad_shape" in result.stderr


def test_grounding_checks_the_state_tree_not_the_file_system(make_repo: Callable[..., Path],
                                                             correx: Correx) -> None:
    root = project(make_repo, profile('[stages.a]\nproduces = ["brief"]\n'
                                      'ground_references = true\n'))
    (root / "out").mkdir()
    (root / "out/ignored.py").write_text("x\n")  # on disk, but ignored: not in the state
    (root / "src/new.py").write_text("x\n")      # untracked, not ignored: in the state
    brief = {"requirements": ["use src/new.py, src/app.py and out/ignored.py",
                              "not /etc/passwd.txt nor https://x.test/a.py nor app.py"]}
    result = correx(root, "gate", "--stage", "a", "--artifact", artifact(root, "brief", brief))
    assert result.code == 1, result
    assert result.stderr.startswith("Reference only files you have read.")
    assert "out/ignored.py  (brief: requirements[0])" in result.stderr
    event = recorded(root)[1]
    fields = BriefGroundingChecked.model_validate(event.model_extra)
    assert [(r.path, r.status.value) for r in fields.references] == [
        ("out/ignored.py", "absent"), ("src/new.py", "present"), ("src/app.py", "present")]
    assert fields.missing == 1 and not fields.passed
    assert set(fields.artifacts) == {"brief"}


def test_echo_records_only_a_mismatch(make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, profile('[stages.e]\nproduces = ["brief_echo"]\n'
                                      'brief_echo = true\nbrief_echo_threshold = 0.5\n'))
    original = artifact(root, "brief", {"requirements": ["retry failed deliveries twice"]})
    same = artifact(root, "brief_echo", {"requirements": ["retry failed deliveries"]})
    assert correx(root, "gate", "--stage", "e", "--artifact", original, "--artifact",
                  same).code == 0
    assert kinds(root) == ["stage_artifacts_checked"]
    wrong = artifact(root, "brief_echo", {"requirements": ["retry in src/extra.py"]})
    result = correx(root, "gate", "--stage", "e", "--artifact", original, "--artifact", wrong)
    assert result.code == 1, result
    assert "dropped requirement 0: 'retry failed deliveries twice' (best coverage 1/8, " \
           "needs 0.5)" in result.stderr
    assert "file not named by the brief: src/extra.py" in result.stderr
    event = recorded(root)[-1]
    fields = BriefEchoMismatch.model_validate(event.model_extra)
    assert fields.threshold == "0.5" and fields.hallucinated_files == ["src/extra.py"]
    artifacts = ArtifactsChecked.model_validate(recorded(root)[-2].model_extra)
    blobs = {a.name: a.blob for a in artifacts.artifacts}
    assert (fields.brief, fields.restatement) == (blobs["brief"], blobs["brief_echo"])


@pytest.mark.parametrize(("threshold", "original", "restated"), [
    ("0.1", "alpha b c d e", "alpha f g h i j"),  # 1 shared of 10: exactly 0.1
    ("0.2", "alpha beta gamma", "alpha delta epsilon"),  # 1 of 5: exactly 0.2
])
def test_echo_threshold_written_as_a_toml_float_is_met_exactly_at_its_edge(
        make_repo: Callable[..., Path], correx: Correx, threshold: str, original: str,
        restated: str) -> None:
    """TOML reads 0.1 as the nearest binary float, a hair above 1/10: the threshold is the
    decimal the profile spells, so a coverage of exactly 1/10 keeps the requirement."""
    root = project(make_repo, profile(f'[stages.e]\nproduces = ["brief_echo"]\n'
                                      f'brief_echo = true\nbrief_echo_threshold = {threshold}\n'))
    brief = artifact(root, "brief", {"requirements": [original]})
    echo = artifact(root, "brief_echo", {"requirements": [restated]})
    result = correx(root, "gate", "--stage", "e", "--artifact", brief, "--artifact", echo)
    assert result.code == 0, result
    assert "1 requirement(s), 0 dropped" in result.stdout
    assert "brief_echo_mismatch" not in kinds(root)


def test_no_gates_configured_records_nothing(make_repo: Callable[..., Path],
                                             correx: Correx) -> None:
    root = project(make_repo, profile("[stages.plain]\nwrites = []\n"))
    result = correx(root, "gate", "--stage", "plain")
    assert result.code == 0, result
    assert "configures no gates" in result.stdout
    assert kinds(root) == []


def test_a_reference_inside_a_submodule_is_unknown_and_does_not_block(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    root = project(make_repo, profile('[stages.a]\nground_references = true\n'))
    inner = root / "vendor" / "lib"  # an embedded repository: its commit is not ours
    inner.mkdir(parents=True)
    git(inner, "init", "-q")
    (inner / "x.py").write_text("x\n")
    git(inner, "add", "x.py")
    git(inner, "commit", "-q", "-m", "inner")
    brief = {"requirements": ["see vendor/lib/x.py and vendor/lib and src/app.py"]}
    result = correx(root, "gate", "--stage", "a", "--artifact", artifact(root, "brief", brief))
    assert result.code == 0, result
    fields = BriefGroundingChecked.model_validate(recorded(root)[1].model_extra)
    assert [(r.path, r.status.value) for r in fields.references] == [
        ("vendor/lib/x.py", "unknown"), ("src/app.py", "present")]
