"""Every observation counts: a tree that both failed and passed under the same profile and
environment is marked flaky in `report` and `log`; reuses fold into the run they cite; an
assessment probe outside a session is not shown as a failure. Real `verify`, `assess`,
`report` and `log` processes on a real repository."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.verification import Reason, Result, VerificationFields
from gitcorrex.review.observation_runs import Observed, flaky
from tests.conftest import CliResult, git
from tests.verify.conftest import outside, py, write_profile

__all__ = ["outside"]  # the fixture, registered here


def exit_from(outside: Path) -> str:
    """A command that exits with the number written in `outside`/code (outside the repo)."""
    return py(f"import sys; sys.exit(int(open({str(outside / 'code')!r}).read()))")


def flaky_project(make_repo: Callable[..., Path], outside: Path) -> Path:
    root = make_repo(files={"README.md": "hello\n"})
    write_profile(root, {"test": exit_from(outside)}, {"test": ["test"]})
    return root


def verify_with(root: Path, outside: Path, code: int, correx: Callable[..., CliResult],
                *args: str) -> CliResult:
    (outside / "code").write_text(str(code))
    return correx(root, "verify", "--quiet", *args)


def test_a_tree_that_failed_then_passed_is_marked_flaky(
        make_repo: Callable[..., Path], outside: Path, correx: Callable[..., CliResult]) -> None:
    root = flaky_project(make_repo, outside)
    assert verify_with(root, outside, 1, correx).code == 1
    assert verify_with(root, outside, 0, correx).code == 0
    report = correx(root, "report", "HEAD").stdout
    assert "⚠ 1 flaky" in report
    assert "| ✓ pass ⚠ flaky |" in report
    assert "(latest of 2 runs) (⚠ flaky: failed 1×, passed 1× under the same profile" in report
    log = correx(root, "log", "-n", "1")
    assert "✓ pass" in log.stdout and "[flaky: failed 1×, passed 1×" in log.stdout, log
    status = json.loads(correx(root, "log", "-n", "1", "--json").stdout)["commits"][0]
    assert status["status"]["flaky"].startswith("flaky: failed 1×, passed 1×")


def test_a_tree_that_only_passed_is_not_flaky(
        make_repo: Callable[..., Path], outside: Path, correx: Callable[..., CliResult]) -> None:
    root = flaky_project(make_repo, outside)
    for _ in range(2):
        assert verify_with(root, outside, 0, correx).code == 0
    report = correx(root, "report", "HEAD").stdout
    assert "flaky" not in report and "(latest of 2 runs)" in report
    status = json.loads(correx(root, "log", "-n", "1", "--json").stdout)["commits"][0]
    assert "flaky" not in status["status"]


def test_reuses_fold_into_the_run_they_cite(
        make_repo: Callable[..., Path], outside: Path, correx: Callable[..., CliResult]) -> None:
    root = flaky_project(make_repo, outside)
    assert verify_with(root, outside, 0, correx).code == 0
    (outside / "code").write_text("1")  # a reuse runs nothing: this would fail if it ran
    for _ in range(6):
        assert correx(root, "verify", "--quiet", "--reuse").code == 0
    report = correx(root, "report", "HEAD").stdout
    lines = [line for line in report.splitlines() if "verification" in line]
    assert len(lines) == 1, report
    # one run, no more; each reuse trusted as this clone's own pass
    assert lines[0].endswith("(reused ×6 by ada@example.test in its own clone)"), lines[0]
    assert "flaky" not in report


def observed(result: Result, environment: str | None, reused: str | None = None) -> Observed:
    fields = VerificationFields(
        expectation="test", result=result,
        reason=Reason.TIMEOUT if result is Result.UNAVAILABLE else None, missing_path=None,
        commands=[], writes=[], state_after=None, head_tree=None, changed_paths=[],
        changed_paths_omitted=0, profile="a" * 40, isolated=False, reused_from=reused)
    return Observed(f"{result.value}-{environment}", fields, environment)


def test_flaky_needs_one_environment_that_both_failed_and_passed() -> None:
    split = flaky([observed(Result.PASS, "env-a"), observed(Result.FAIL, "env-b")])
    assert split is not None and split.by_environment and split.label != "flaky"
    assert flaky([observed(Result.PASS, None), observed(Result.FAIL, "env-b")]) is None
    found = flaky([observed(Result.PASS, "env-b"), observed(Result.FAIL, "env-a"),
                   observed(Result.FAIL, "env-b")])
    assert found is not None and (found.failed, found.passed, found.environment) == \
        (1, 1, "env-b")
    assert "the same profile and environment" in found.describe()


def test_unavailable_runs_and_reuses_make_nothing_flaky() -> None:
    assert flaky([observed(Result.PASS, None), observed(Result.UNAVAILABLE, None)]) is None
    assert flaky([observed(Result.FAIL, None), observed(Result.PASS, None, "x" * 40)]) is None
    unknown = flaky([observed(Result.FAIL, None), observed(Result.PASS, None)])
    assert unknown is not None and "environment not recorded" in unknown.describe()


def test_a_probe_outside_a_session_is_not_a_failure(
        project: Path, correx: Callable[..., CliResult]) -> None:
    assert correx(project, "verify", "--quiet").code == 0
    assert correx(project, "assess", "write", "docs/x.md", "--stage", "implement").code == 1
    report = correx(project, "report", "HEAD").stdout
    assert "⊘ prevented (a probe outside a session, not a failure): PATH_OUTSIDE_MANIFEST" \
        in report
    assert "✗ BLOCK" not in report and "✗ 0 fail" in report and "| ✓ pass |" in report


def test_a_blocked_write_inside_a_session_is_still_shown_as_one(
        project: Path, correx: Callable[..., CliResult]) -> None:
    assert correx(project, "assess", "write", "docs/x.md", "--stage", "implement",
                  "--session", "run-1").code == 1
    report = correx(project, "report", "HEAD").stdout
    assert "✗ BLOCK PATH_OUTSIDE_MANIFEST (assess, write): docs/x.md" in report
    assert "prevented" not in report
    assert git(project, "status", "--porcelain") == ""


def test_environment_digest_reads_the_recorded_fingerprint_or_none() -> None:
    from gitcorrex.model.environment_key import environment_digest
    from gitcorrex.model.events import RecordedEvent

    envelope = {"v": 1, "id": "0" * 64, "kind": "workspace_verification_observed",
                "at": "2026-01-01T00:00:00.000000Z", "subjects": [],
                "actor": {"name": None, "email": None, "host": "h", "runtime": "r"},
                "tool": {"correx": "0", "git": "0", "libgit2": "0"}}
    recorded = RecordedEvent.model_validate({**envelope, "environment": {"digest": "ab12"}})
    assert environment_digest(recorded) == "ab12"
    assert environment_digest(RecordedEvent.model_validate(envelope)) is None  # older line
    odd = RecordedEvent.model_validate({**envelope, "environment": {"digest": 7}})
    assert environment_digest(odd) is None


def test_a_reuse_citing_a_run_not_on_the_tree_says_so(
        repo: Path, correx: Callable[..., CliResult]) -> None:
    """Another writer's line claiming to reuse a run nobody recorded here is shown as what
    it is, never as the run itself."""
    from dataclasses import replace

    from tests.conftest import in_process
    from tests.ledger_facts import record, verification_draft

    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    draft = verification_draft(in_process(repo), tree, "pass")
    assert isinstance(draft.payload, VerificationFields)
    forged = draft.payload.model_copy(update={"reused_from": "f" * 64})
    record(repo, replace(draft, payload=forged))
    out = correx(repo, "report", "HEAD").stdout
    assert "(a reuse of ffffffffffff, a run not recorded on this tree)" in out



def test_a_tree_that_passed_in_one_environment_and_failed_in_another_is_marked(
        make_repo: Callable[..., Path], outside: Path) -> None:
    """Not luck: each environment decided the same way every time, and they disagree (a
    declared variable, PYTHONHASHSEED, differs). The newest verdict alone would hide it."""
    from tests.conftest import run_correx

    root = flaky_project(make_repo, outside)
    for seed, code in (("1", 1), ("1", 1), ("2", 0)):
        (outside / "code").write_text(str(code))
        ran = run_correx(root, "verify", "--quiet", env={"PYTHONHASHSEED": seed})
        assert ran.code == code, ran
    report = run_correx(root, "report", "HEAD").stdout
    assert "| ✓ pass ⚠ differs by environment |" in report, report
    assert "⚠ 1 differs by environment" in report and "flaky" not in report, report
    assert "passed 1× and failed 2× under the same profile, never both in one environment" \
        in report, report
    status = json.loads(run_correx(root, "log", "-n", "1", "--json").stdout)["commits"][0]
    assert status["status"]["flaky"].startswith("differs by environment: passed 1×"), status
