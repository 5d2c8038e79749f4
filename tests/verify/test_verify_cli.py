"""`git correx verify` as a user runs it: pass, fail, progress, --json, refusals.

Every test runs the real CLI in a real repository; the recorded event is read back with
`git notes show` and checked against what git and the commands themselves say.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import Result, StopReason, VerificationFields
from tests.conftest import CliResult, git, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import (
    BUILD_OUT,
    FAIL_OUT,
    TEST_ERR,
    TEST_OUT,
    counting,
    fields_of,
    has_ledger,
    notes_on,
    only_event,
    py,
    runs_counted,
    write_profile,
)

Correx = Callable[..., CliResult]


def verified(correx: Correx, root: Path, *args: str, code: int = 0) -> VerificationFields:
    """Run verify, assert its exit code, return the fields of the one event it recorded."""
    result = correx(root, "verify", *args)
    assert result.code == code, result
    return fields_of(only_event(root, reference_key(root)))


def test_pass_exits_0_and_records_one_event_on_the_state_tree(project: Path,
                                                                correx: Correx) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    result = correx(project, "verify")
    assert result.code == 0, result
    key = reference_key(project)
    event = only_event(project, key)
    assert (event.kind, event.state_key, event.subjects) == (
        "workspace_verification_observed", key, [key])
    assert fields_of(event).result is Result.PASS
    assert result.stdout.startswith(f"pass: expectation 'test' on {key[:12]}")


def test_pass_records_the_expectation_and_each_command(project: Path, correx: Correx) -> None:
    fields = verified(correx, project)
    assert fields.expectation == "test"
    assert [c.name for c in fields.commands] == ["build", "test"]
    assert fields.commands[0].argv == ["python3", "-c", "print('building')"]
    assert all(c.stop_reason is StopReason.EXIT and c.exit_code == 0 and c.signal is None
               for c in fields.commands)
    assert all(c.duration_ms >= 0 for c in fields.commands)
    digests = [c.digest for c in fields.commands]
    assert len(set(digests)) == 2 and all(len(d) == 64 for d in digests)


def test_command_digests_are_stable_across_runs(project: Path, correx: Correx) -> None:
    first = verified(correx, project)
    write(project, "src/app.py", "VALUE = 2\n")
    second = verified(correx, project)
    assert [c.digest for c in first.commands] == [c.digest for c in second.commands]


def test_output_evidence_is_what_the_command_printed(project: Path, correx: Correx) -> None:
    build = verified(correx, project).commands[0]
    assert build.output is not None
    printed = BUILD_OUT.encode()
    digest = hashlib.sha256(printed).hexdigest()
    assert (build.output.size, build.output.sha256) == (len(printed), digest)
    assert (build.output.tail, build.output.truncated) == (BUILD_OUT, False)
    assert build.output.blob is not None
    assert git(project, "cat-file", "-p", build.output.blob) == BUILD_OUT


def test_a_long_output_is_recorded_with_its_tail(project: Path, correx: Correx) -> None:
    """2,000 characters: the recorded `tail` keeps the last 1,024 (where the error is) and
    the blob keeps everything."""
    long = py("print('progress ' * 240); print('FAILED: the last line')")
    write_profile(project, {"long": long}, {"long": ["long"]}, default="long")
    [command] = verified(correx, project).commands
    assert command.output is not None and command.output.size > 2000
    tail = command.output.tail
    assert len(tail) == 1024 and tail.startswith("…")
    assert tail.endswith("FAILED: the last line\n")
    assert command.output.blob is not None
    assert git(project, "cat-file", "-p", command.output.blob).startswith("progress ")


def test_stderr_is_merged_into_the_captured_output(project: Path, correx: Correx) -> None:
    test = verified(correx, project).commands[1]
    assert test.output is not None and test.output.blob is not None
    assert git(project, "cat-file", "-p", test.output.blob) == TEST_OUT + TEST_ERR
    assert test.output.sha256 == hashlib.sha256((TEST_OUT + TEST_ERR).encode()).hexdigest()


def test_state_after_equals_the_state_key(project: Path, correx: Correx) -> None:
    write(project, "notes.txt", "untracked\n")
    fields = verified(correx, project)
    assert fields.state_after == reference_key(project)


def test_changed_paths_are_measured_against_heads_tree(project: Path, correx: Correx) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    write(project, "new file.txt", "untracked\n")
    write(project, "ignored/cache.bin", "not part of the state\n")
    fields = verified(correx, project)
    assert fields.changed_paths == ["new file.txt", "src/app.py"]
    assert fields.head_tree == git(project, "rev-parse", "HEAD^{tree}").strip()
    assert fields.changed_paths_omitted == 0


def test_writes_are_the_stage_writes(project: Path, correx: Correx) -> None:
    fields = verified(correx, project, "--stage", "implement")
    assert fields.writes == ["/src/**", "/tests/**"]
    assert only_event(project, reference_key(project)).stage == "implement"


def test_writes_are_empty_without_a_stage(project: Path, correx: Correx) -> None:
    assert verified(correx, project).writes == []


def test_profile_is_the_blob_id_of_the_profile_file(project: Path, correx: Correx) -> None:
    fields = verified(correx, project)
    assert fields.profile == git(project, "hash-object", ".correx.toml").strip()


def test_json_output_parses_back_through_the_models(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--json")
    assert result.code == 0, result
    document = json.loads(result.stdout)
    event = RecordedEvent.model_validate(document["event"])
    fields = VerificationFields.model_validate(event.model_extra)
    assert (document["result"], fields.result) == ("pass", Result.PASS)
    assert document["state_key"] == event.state_key == reference_key(project)
    assert event == only_event(project, event.state_key)
    assert document["setup_event"] is None


def test_json_output_streams_nothing(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--json")
    assert result.code == 0, result
    assert result.stderr == ""


def test_fail_exits_1_and_records_later_commands_as_skipped(project: Path,
                                                             correx: Correx) -> None:
    fields = verified(correx, project, "--expect", "red", code=1)
    broken, test = fields.commands
    assert fields.result is Result.FAIL and fields.reason is None
    assert (broken.stop_reason, broken.exit_code) == (StopReason.EXIT, 2)
    assert (test.name, test.stop_reason, test.exit_code, test.output) == (
        "test", StopReason.SKIPPED, None, None)


def test_fail_names_the_failing_command(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--expect", "red")
    assert result.code == 1, result
    assert result.stdout.startswith("fail: command 'broken' exited 2")


def test_fail_streams_the_failing_output_verbatim(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--expect", "red")
    assert result.code == 1, result
    assert FAIL_OUT in result.stderr


def test_fail_prints_the_failing_output_with_quiet(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--expect", "red", "--quiet")
    assert result.code == 1, result
    assert result.stderr == FAIL_OUT


def test_fail_with_json_prints_the_output_on_stderr(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--expect", "red", "--json")
    assert result.code == 1, result
    assert result.stderr == FAIL_OUT
    assert json.loads(result.stdout)["result"] == "fail"


def test_progress_lines_go_to_stderr(project: Path, correx: Correx) -> None:
    result = correx(project, "verify")
    assert result.code == 0, result
    lines = result.stderr.splitlines()
    assert lines[0].startswith("[1/2] build … python3 -c")
    assert lines[1] == BUILD_OUT.rstrip()
    assert lines[2].startswith("[2/2] test … python3 -c")
    assert "[" not in result.stdout


def test_quiet_suppresses_progress_and_output(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--quiet")
    assert result.code == 0, result
    assert result.stderr == ""
    assert result.stdout.startswith("pass:")


def test_expectation_without_commands_records_nothing(project: Path, correx: Correx) -> None:
    result = correx(project, "verify", "--expect", "docs")
    assert result.code == 0, result
    assert "has no commands: nothing verified, nothing recorded" in result.stdout
    assert not has_ledger(project)


def test_expectation_without_commands_reports_no_result_in_json(project: Path,
                                                                correx: Correx) -> None:
    result = correx(project, "verify", "--expect", "docs", "--json")
    assert result.code == 0, result
    assert json.loads(result.stdout)["result"] is None
    assert json.loads(result.stdout)["event"] is None


def refused(correx: Correx, root: Path, *args: str) -> str:
    """Run verify expecting exit 2 with nothing recorded; return stderr."""
    result = correx(root, "verify", *args)
    assert result.code == 2, result
    assert result.stdout == ""
    if (root / ".git").exists():
        assert not has_ledger(root)
    return result.stderr


def test_missing_profile_says_to_run_init(repo: Path, correx: Correx) -> None:
    stderr = refused(correx, repo)
    assert "no .correx.toml" in stderr and "git correx init" in stderr


def test_unknown_expectation_is_refused(project: Path, correx: Correx) -> None:
    stderr = refused(correx, project, "--expect", "nope")
    assert 'unknown expectation "nope"' in stderr and "docs, none, red, test" in stderr


def test_unknown_stage_is_refused(project: Path, correx: Correx) -> None:
    stderr = refused(correx, project, "--stage", "deploy")
    assert 'unknown stage "deploy"' in stderr and "[stages.deploy]" in stderr


def test_invalid_toml_is_refused_with_its_position(project: Path, correx: Correx) -> None:
    write(project, ".correx.toml", "version = 1\n[commands\n")
    stderr = refused(correx, project)
    assert ".correx.toml: line 2" in stderr and "invalid TOML" in stderr


def test_invalid_profile_value_names_the_key_path(project: Path, correx: Correx) -> None:
    write(project, ".correx.toml", 'version = 1\n[commands]\nb = { run = "x", timeout = "9q" }\n')
    assert "commands.b.timeout" in refused(correx, project)


def test_invalid_session_id_is_refused_before_anything_runs(project: Path, outside: Path,
                                                            correx: Correx) -> None:
    write_profile(project, {"count": counting(outside / "runs")}, {"count": ["count"]},
                  default="count")
    assert "invalid session id" in refused(correx, project, "--session", "no spaces")
    assert runs_counted(outside / "runs") == 0


def test_bare_repository_is_refused(tmp_path: Path, project: Path, correx: Correx) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(project), str(bare))
    assert "bare repository" in refused(correx, bare)


def test_outside_a_repository_is_refused(outside: Path, correx: Correx) -> None:
    assert "not inside a git repository" in refused(correx, outside)


def snapshot(root: Path) -> dict[str, bytes]:
    """The user's index, HEAD, refs and every work-tree file, byte for byte."""
    taken = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
             if p.is_file() and ".git" not in p.relative_to(root).parts}
    taken["<index>"] = (root / ".git" / "index").read_bytes()
    taken["<HEAD>"] = (root / ".git" / "HEAD").read_bytes()
    taken["<refs>"] = git(root, "for-each-ref", "refs/heads", "refs/tags").encode()
    return taken


def test_verify_leaves_index_head_and_files_unchanged(project: Path, correx: Correx) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    write(project, "staged.txt", "staged\n")
    git(project, "add", "staged.txt")
    write(project, "untracked.txt", "untracked\n")
    before = snapshot(project)
    assert correx(project, "verify").code == 0
    assert correx(project, "verify", "--expect", "red").code == 1
    assert snapshot(project) == before
    assert notes_on(project, reference_key(project))


def test_refused_arguments_leave_no_private_index_behind(project: Path, correx: Correx) -> None:
    """The first scan starts before the arguments are parsed; a refusal must delete it."""
    for args in (("--no-such-option",), ("--expect", "nope"), ("--help",), ("extra",)):
        result = correx(project, "verify", *args)
        assert result.code in (0, 2), result
        assert not list((project / ".git").glob("correx-index-*")), args
    assert not has_ledger(project)


def test_output_is_flushed_before_the_process_ends(project: Path) -> None:
    """The process ends without interpreter teardown (`os._exit`); the buffered output
    must still reach a pipe whole."""
    import subprocess
    import sys

    from tests.conftest import REPO_ROOT

    env = {**__import__("os").environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run([sys.executable, "-m", "gitcorrex", "verify", "--json"], cwd=project,
                          env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == "pass"
