"""The environment fingerprint: every observation records what ran its commands, and
`verify --reuse` (and `explain`) reuse a pass only in an equal environment, saying what
differed. Real processes: a stub `python3` first on PATH, a virtualenv whose installed set
changes, an ignored lockfile, declared and undeclared variables."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.events import RecordedEvent
from tests.conftest import CliResult, git, run_correx, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import counting, fields_of, notes_on, runs_counted, write_profile

REAL_PYTHON = shutil.which("python3") or "/usr/bin/python3"


def project(root: Path, counter: Path, environment: str = "") -> None:
    """One expectation running one counting `python3` command; `environment` is the text
    of an `[environment]` table (none: the defaults)."""
    write(root, ".gitignore", "ignored/\nnode_modules/\n")
    path = write_profile(root, {"count": counting(counter)}, {"a": ["count"]}, default="a",
                         commit=False)
    if environment:
        path.write_text(path.read_text() + "[environment]\n" + environment)


def stub_bin(tmp_path: Path) -> Path:
    """A directory holding a `python3` that passes without running anything."""
    stub = tmp_path / "stub-bin"
    stub.mkdir()
    write(stub, "python3", "#!/bin/sh\nexit 0\n").chmod(0o755)
    return stub


def with_path(first: Path) -> dict[str, str]:
    return {"PATH": f"{first}{os.pathsep}{os.environ['PATH']}"}


def verify(root: Path, *args: str, env: dict[str, str] | None = None) -> CliResult:
    result = run_correx(root, "verify", *args, env=env)
    assert result.code == 0, result
    return result


def recorded(result: CliResult) -> RecordedEvent:
    return RecordedEvent.model_validate(json.loads(result.stdout)["event"])


def test_a_stub_interpreters_pass_is_not_reused_under_the_real_one(
        repo: Path, outside: Path, tmp_path: Path) -> None:
    project(repo, outside / "runs")
    stub = stub_bin(tmp_path)
    stubbed = recorded(verify(repo, "--json", env=with_path(stub)))
    assert runs_counted(outside / "runs") == 0  # the stub "passed" without running anything
    programs = fields_of(stubbed).environment.programs  # type: ignore[union-attr]
    assert [(p.name, p.path) for p in programs] == [("python3", str(stub / "python3"))]
    result = verify(repo, "--reuse")
    assert runs_counted(outside / "runs") == 1, result  # the real interpreter ran
    assert f"pass {stubbed.id[:12]} not reused: another environment: python3: " \
           f"{stub / 'python3'} → " in result.stdout, result
    explained = run_correx(repo, "explain").stdout
    assert f"not reused here: another environment: python3: {stub / 'python3'} →" in explained
    assert "would be reused here" in explained  # the real interpreter's own pass


def test_a_program_changed_in_place_reruns(repo: Path, outside: Path, tmp_path: Path) -> None:
    """The same path with other bytes (an upgrade in place): the stored digest is keyed by
    the file's stat data, so the change is seen without hashing every run."""
    project(repo, outside / "runs")
    stub = stub_bin(tmp_path)
    verify(repo, env=with_path(stub))
    assert verify(repo, "--reuse", env=with_path(stub)).stdout.startswith("pass (reused ")
    write(stub, "python3", "#!/bin/sh\n# upgraded\nexit 0\n").chmod(0o755)
    result = verify(repo, "--reuse", env=with_path(stub))
    assert not result.stdout.startswith("pass (reused "), result
    assert f"python3: {stub / 'python3'} changed (sha256 " in result.stdout, result


def test_a_program_rewritten_in_place_with_its_mtime_restored_reruns(
        repo: Path, outside: Path, tmp_path: Path) -> None:
    """Same inode, same size, the old modification time put back (`touch -r`): the
    status-change time still moved, so the stored digest is not trusted."""
    project(repo, outside / "runs")
    stub = stub_bin(tmp_path)
    program = stub / "python3"
    verify(repo, env=with_path(stub))
    before = program.stat()
    with open(program, "r+b") as handle:  # the same inode, the same size
        handle.write(b"#!/bin/sh\nexit 1\n"[:before.st_size])
    os.utime(program, ns=(before.st_atime_ns, before.st_mtime_ns))
    result = run_correx(repo, "verify", "--reuse", env=with_path(stub))
    assert not result.stdout.startswith("pass (reused "), result
    assert f"python3: {program} changed (sha256 " in result.stdout, result


def test_a_pass_in_the_same_environment_is_reused(repo: Path, outside: Path) -> None:
    project(repo, outside / "runs")
    original = recorded(verify(repo, "--json"))
    result = verify(repo, "--reuse")
    assert result.stdout.startswith(f"pass (reused {original.id[:12]})"), result
    assert runs_counted(outside / "runs") == 1
    again = next(e for e in notes_on(repo, reference_key(repo)) if e.id != original.id)
    assert fields_of(again).environment == fields_of(original).environment


def fake_venv(tmp_path: Path) -> Path:
    """A virtualenv layout: pyvenv.cfg, bin/python3 (the real one), an empty site-packages."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    write(venv, "pyvenv.cfg", f"home = {Path(REAL_PYTHON).parent}\n")
    (venv / "bin" / "python3").symlink_to(REAL_PYTHON)
    return venv


def test_a_changed_installed_package_set_reruns(repo: Path, outside: Path,
                                               tmp_path: Path) -> None:
    project(repo, outside / "runs")
    venv = fake_venv(tmp_path)
    env = with_path(venv / "bin")
    verify(repo, env=env)
    assert verify(repo, "--reuse", env=env).stdout.startswith("pass (reused ")
    (venv / "lib" / "python3.11" / "site-packages" / "requests-2.32.0.dist-info").mkdir()
    result = verify(repo, "--reuse", env=env)
    assert runs_counted(outside / "runs") == 2, result
    assert f"packages in {venv}: 0 distribution(s)" in result.stdout, result
    assert "→ 1 distribution(s)" in result.stdout, result
    explained = run_correx(repo, "explain", env=env).stdout
    assert f"virtualenv {venv}: 1 distribution(s)" in explained
    assert f"not reused here: another environment: packages in {venv}" in explained


def test_a_changed_ignored_lockfile_reruns_and_a_tracked_one_is_read_from_the_tree(
        repo: Path, outside: Path) -> None:
    project(repo, outside / "runs")
    write(repo, "uv.lock", "version = 1\n")
    write(repo, "node_modules/.package-lock.json", '{"packages": {}}\n')  # ignored
    first = recorded(verify(repo, "--json"))
    locks = {lock.path: lock for lock in fields_of(first).environment.lockfiles}  # type: ignore[union-attr]
    assert locks["uv.lock"].source == "tree"
    assert locks["uv.lock"].digest == git(repo, "hash-object", "uv.lock").strip()
    assert locks["node_modules/.package-lock.json"].source == "worktree"
    write(repo, "node_modules/.package-lock.json", '{"packages": {"left-pad": {}}}\n')
    result = verify(repo, "--reuse")
    assert runs_counted(outside / "runs") == 2, result
    assert "lockfile node_modules/.package-lock.json: " in result.stdout, result
    explained = run_correx(repo, "explain").stdout
    assert "lockfile uv.lock: " in explained and "(tree)" in explained
    assert "not reused here: another environment: lockfile node_modules/" in explained


def test_a_declared_variable_changed_reruns_and_its_value_is_never_recorded(
        repo: Path, outside: Path) -> None:
    project(repo, outside / "runs", 'pass = ["DEPLOY_TOKEN"]\n')
    verify(repo, env={"DEPLOY_TOKEN": "s3cr3t-one"})
    assert verify(repo, "--reuse", env={"DEPLOY_TOKEN": "s3cr3t-one"}).stdout.startswith(
        "pass (reused ")
    result = verify(repo, "--reuse", env={"DEPLOY_TOKEN": "s3cr3t-two"})
    assert runs_counted(outside / "runs") == 2, result
    assert "variable DEPLOY_TOKEN: set (hash " in result.stdout, result
    explained = run_correx(repo, "explain", env={"DEPLOY_TOKEN": "s3cr3t-one"}).stdout
    assert "variables set: DEPLOY_TOKEN (hash " in explained
    assert "not reused here: another environment: variable DEPLOY_TOKEN" in explained
    ledger = git(repo, "log", "-p", "refs/notes/correx")
    assert "s3cr3t" not in ledger and "s3cr3t" not in explained


def test_an_unset_declared_variable_reruns(repo: Path, outside: Path) -> None:
    project(repo, outside / "runs", 'pass = ["DEPLOY_TOKEN"]\n')
    verify(repo, env={"DEPLOY_TOKEN": "x"})
    result = run_correx(repo, "verify", "--reuse", unset=("DEPLOY_TOKEN",))
    assert runs_counted(outside / "runs") == 2, result
    assert "variable DEPLOY_TOKEN: set (hash " in result.stdout and "→ unset" in result.stdout


def test_an_undeclared_variable_changed_is_reused(repo: Path, outside: Path) -> None:
    project(repo, outside / "runs", 'pass = ["DEPLOY_TOKEN"]\n')
    verify(repo, env={"UNRELATED_SETTING": "1"})
    result = verify(repo, "--reuse", env={"UNRELATED_SETTING": "2"})
    assert result.stdout.startswith("pass (reused "), result
    assert runs_counted(outside / "runs") == 1
    assert "would be reused here" in run_correx(
        repo, "explain", env={"UNRELATED_SETTING": "3"}).stdout


def test_a_pass_recorded_before_fingerprints_is_not_reused(repo: Path, outside: Path) -> None:
    """An observation without `environment` (an older git correx) says nothing about where
    it ran: `--reuse` runs, and says why."""
    from tests.ledger_facts import note_line

    project(repo, outside / "runs")
    original = recorded(verify(repo, "--json"))
    fields = dict(original.model_extra or {})
    del fields["environment"]
    git(repo, "update-ref", "-d", "refs/notes/correx")
    key = reference_key(repo)
    older = note_line(repo, key, original.kind, fields, state_key=key)
    result = verify(repo, "--reuse")
    assert runs_counted(outside / "runs") == 2, result
    assert f"pass {older[:12]} not reused: it was recorded without an environment " \
           "fingerprint (before fingerprints)" in result.stdout, result
    explained = run_correx(repo, "explain").stdout
    assert "environment: none recorded (before fingerprints)" in explained


def test_the_profiles_salt_is_part_of_the_fingerprint(repo: Path, outside: Path) -> None:
    project(repo, outside / "runs", 'salt = "2026-11"\n')
    event = recorded(verify(repo, "--json"))
    assert fields_of(event).environment.salt == "2026-11"  # type: ignore[union-attr]
    assert "  salt: 2026-11" in run_correx(repo, "explain").stdout


def test_a_program_version_is_recorded_when_the_profile_asks(repo: Path, outside: Path) -> None:
    project(repo, outside / "runs", 'versions = ["python3"]\n')
    event = recorded(verify(repo, "--json"))
    [program] = fields_of(event).environment.programs  # type: ignore[union-attr]
    assert program.version is not None and program.version.startswith("Python 3."), program


@pytest.mark.parametrize(("table", "key"), [('pass = ["NOT A NAME"]\n', "environment.pass"),
                                            ('lockfiles = ["../x.lock"]\n',
                                             "environment.lockfiles"),
                                            ('colour = "red"\n', "environment.colour")])
def test_a_bad_environment_table_is_refused_naming_the_key(
        repo: Path, outside: Path, table: str, key: str) -> None:
    project(repo, outside / "runs", table)
    result = run_correx(repo, "verify")
    assert result.code == 2 and key in result.stderr, result
    assert runs_counted(outside / "runs") == 0


def test_explain_of_a_tree_without_a_profile_reuses_nothing(
        make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={"README.md": "x\n"})
    result = run_correx(root, "explain", "HEAD")
    assert result.code == 0, result
    assert "no .correx.toml: no pass of it is reused" in result.stdout
    assert "0 observation(s)" in result.stdout


def test_explain_json_reads_back_through_its_model(repo: Path, outside: Path,
                                                  tmp_path: Path) -> None:
    from gitcorrex.verify.explain import Explanation

    project(repo, outside / "runs")
    verify(repo, env=with_path(stub_bin(tmp_path)))
    result = run_correx(repo, "explain", "--json")
    explained = Explanation.model_validate_json(result.stdout)
    [observed] = explained.observations
    assert not observed.reusable and "python3" in (observed.reason or "")
    assert explained.environment is not None
    assert explained.environment.digest != observed.environment.digest  # type: ignore[union-attr]


def test_the_fingerprint_is_taken_after_setup(repo: Path, outside: Path,
                                             tmp_path: Path) -> None:
    """Setup prepares what is tested (`pip install -e .`): the commands run in what it
    installed, so that is what the observation records, even after the reuse check looked."""
    from tests.verify.conftest import py

    venv = fake_venv(tmp_path)
    site = venv / "lib" / "python3.11" / "site-packages"
    install = py(f"import os; os.makedirs({str(site / 'app-1.0.dist-info')!r}, exist_ok=True)")
    write(repo, ".gitignore", "ignored/\n")
    write_profile(repo, {"count": counting(outside / "runs"), "install": install},
                  {"a": {"commands": ["count"], "setup": "install"}}, default="a",
                  commit=False)
    event = recorded(verify(repo, "--reuse", "--json", env=with_path(venv / "bin")))
    [venv_print] = [v for v in fields_of(event).environment.venvs  # type: ignore[union-attr]
                    if v.path == str(venv)]
    assert venv_print.count == 1, venv_print


def test_an_isolated_pass_is_reused_by_an_isolated_run_beside_a_local_virtualenv(
        repo: Path, outside: Path) -> None:
    """The throwaway worktree lacks the ignored `.venv` the work tree holds; both runs
    describe the environment from the work tree, so the second cites the first."""
    project(repo, outside / "runs")
    write(repo, ".gitignore", "ignored/\nnode_modules/\n.venv/\n")
    write(repo, ".venv/pyvenv.cfg", "home = /usr/bin\n")
    (repo / ".venv" / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    first = recorded(verify(repo, "--isolated", "--json"))
    assert "./.venv" in [v.path for v in fields_of(first).environment.venvs]  # type: ignore[union-attr]
    result = verify(repo, "--isolated", "--reuse")
    assert result.stdout.startswith(f"pass (reused {first.id[:12]})"), result
    assert runs_counted(outside / "runs") == 1
