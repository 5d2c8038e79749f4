"""`git correx state` begins its scan before the program loads (git/state_start.py).

The order is read from the process itself: a `sitecustomize` on PYTHONPATH installs an audit
hook that logs every git process the command starts and the import of the modules that load
after the early steps (the boundary, the start-up option parser). Every key is compared with
the definition run by git (tests/git/state_helpers.py).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from tests.conftest import git, run_correx, write
from tests.git.state_helpers import reference_key

LATER_MODULES = ("gitcorrex.cli.boundary", "gitcorrex.cli.option_parser")
AUDIT_HOOK = '''
import os, sys

def _log(event, args):
    if event in ("os.posix_spawn", "subprocess.Popen"):
        line = "spawn " + " ".join(str(arg) for arg in args[1])
    elif event == "import" and args[0] in {modules!r}:
        line = "import " + args[0]
    else:
        return
    with open(os.environ["CORREX_ORDER_LOG"], "a") as out:
        out.write(line + "\\n")

sys.addaudithook(_log)
'''


def _order_of_a_state_run(repo: Path, tmp_path: Path, cwd: Path | None = None) -> list[str]:
    """The spawns and imports of one `git correx state`, in order; its key is checked."""
    plant = tmp_path / "plant"
    plant.mkdir(exist_ok=True)
    (plant / "sitecustomize.py").write_text(AUDIT_HOOK.format(modules=set(LATER_MODULES)))
    log = tmp_path / "order.log"
    log.unlink(missing_ok=True)
    result = run_correx(cwd or repo, "state",
                        env={"PYTHONPATH": str(plant), "CORREX_ORDER_LOG": str(log)})
    assert result.code == 0, result
    assert result.stdout.strip() == reference_key(repo)
    return log.read_text().splitlines()


def _position(lines: list[str], words: str) -> int:
    found = [number for number, line in enumerate(lines) if words in line]
    assert found, f"{words!r} not in {lines}"
    return found[0]


def _kept_index_ready(repo: Path) -> None:
    """Two runs: the first builds the kept index and its record, the second reuses them
    (and records git's untracked cache)."""
    for _ in range(2):
        assert run_correx(repo, "state").code == 0


def test_state_starts_its_scan_and_queries_before_the_boundary_and_parser_load(
        repo: Path, tmp_path: Path) -> None:
    write(repo, "src/app.py", "print('edited')\n")
    write(repo, "untracked.txt", "new\n")
    _kept_index_ready(repo)
    lines = _order_of_a_state_run(repo, tmp_path)
    later = min(_position(lines, f"import {module}") for module in LATER_MODULES)
    for query in ("status --porcelain=v2", "rev-parse -q --verify HEAD^{tree}",
                  "config -z --list --show-origin"):
        assert _position(lines, query) < later, lines
    assert sum("status --porcelain=v2" in line for line in lines) == 1, lines


def test_state_sees_an_edit_made_after_the_last_run_on_the_early_scan(
        repo: Path, tmp_path: Path) -> None:
    _kept_index_ready(repo)
    write(repo, "README.md", "edited after the last run\n")
    write(repo, "fresh/new.txt", "created after the last run\n")
    lines = _order_of_a_state_run(repo, tmp_path)
    assert _position(lines, "status --porcelain=v2") < _position(lines, "import gitcorrex")


def test_state_from_a_subdirectory_keys_the_whole_work_tree(repo: Path, tmp_path: Path) -> None:
    write(repo, "deep/er/file.txt", "x\n")
    _kept_index_ready(repo)
    lines = _order_of_a_state_run(repo, tmp_path, cwd=repo / "deep" / "er")
    assert any("status --porcelain=v2" in line for line in lines)


def test_a_decoy_git_directory_is_not_the_repository_git_finds(
        repo: Path, make_repo, tmp_path: Path) -> None:
    """The nearest `.git` with a HEAD, a kept index and a record that says "reuse me", but
    no object store: git skips it and finds the outer repository. The scan begun on the
    guess is thrown away; the key is the outer repository's."""
    decoy = make_repo("decoy-source", files={"a.txt": "decoy\n"})
    _kept_index_ready(decoy)
    inner = repo / "inner"
    inner.mkdir()
    os.rename(decoy / ".git", inner / ".git")
    objects = inner / ".git" / "objects"
    os.rename(objects, tmp_path / "decoy-objects")
    record_file = inner / ".git" / "correx" / "state-index.json"
    record = json.loads(record_file.read_text())
    record["pruning"] = [None, None]  # what the claim stamps for a missing object store
    record_file.write_text(json.dumps(record))
    assert git(inner, "rev-parse", "--show-toplevel").strip() == str(repo)
    _kept_index_ready(repo)
    lines = _order_of_a_state_run(repo, tmp_path, cwd=inner)
    assert not (inner / ".git" / "correx" / "state-index.json").exists()  # never reused
    scans = [number for number, line in enumerate(lines) if "status --porcelain=v2" in line]
    assert len(scans) == 2, lines  # on the guess, then on git's answer: both before loading
    assert scans[1] < _position(lines, "import gitcorrex.cli.boundary"), lines


@pytest.mark.parametrize("command", ["state", "verify"])
def test_bad_options_leave_the_kept_index_free(repo: Path, command: str) -> None:
    """`state --bogus` and `verify --bogus` began the scan before the options were read: it
    is closed (lock dropped, git waited for), and the next run keys on the kept index, not
    a copy."""
    _kept_index_ready(repo)
    assert run_correx(repo, command, "--bogus").code == 2
    owner = repo / ".git" / "correx" / "state-index.owner"
    with open(owner, "rb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody holds it
    assert run_correx(repo, "state").stdout.strip() == reference_key(repo)
    assert (repo / ".git" / "correx" / "state-index.json").exists()


def _order_of_a_verify_run(repo: Path, tmp_path: Path, *args: str,
                           cwd: Path | None = None) -> tuple[int, list[str]]:
    """The spawns and imports of one `git correx verify`, in order, and its exit code."""
    plant = tmp_path / "plant"
    plant.mkdir(exist_ok=True)
    (plant / "sitecustomize.py").write_text(AUDIT_HOOK.format(modules=set(LATER_MODULES)))
    log = tmp_path / "order.log"
    log.unlink(missing_ok=True)
    result = run_correx(cwd or repo, "verify", *args,
                        env={"PYTHONPATH": str(plant), "CORREX_ORDER_LOG": str(log)})
    return result.code, log.read_text().splitlines()


def _verifiable(repo: Path) -> str:
    """A profile whose expectation runs `true`, committed; the kept index made ready."""
    write(repo, ".correx.toml", 'version = 1\n[commands]\nnoop = "true"\n'
          '[expectations]\nnoop = ["noop"]\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "profile")
    _kept_index_ready(repo)
    return git(repo, "rev-parse", "HEAD^{tree}").strip()


def test_verify_starts_its_first_scan_before_the_boundary_and_parser_load(
        repo: Path, tmp_path: Path) -> None:
    """verify's first key is begun as `state`'s is: git's discovery asked once, the scan
    on the kept index started before the program loads; the second scan after `true`."""
    head = _verifiable(repo)
    code, lines = _order_of_a_verify_run(repo, tmp_path, "--expect", "noop")
    assert code == 0, lines
    later = min(_position(lines, f"import {module}") for module in LATER_MODULES)
    scans = [number for number, line in enumerate(lines) if "status --porcelain=v2" in line]
    assert len(scans) == 2 and scans[0] < later < scans[1], lines
    assert sum("--show-toplevel" in line for line in lines) == 1, lines  # one discovery
    assert scans[0] < _position(lines, "spawn true") < scans[1], lines
    notes = git(repo, "notes", "--ref", "refs/notes/correx", "show", head)
    assert '"result":"pass"' in notes and head == reference_key(repo)


def test_verify_from_a_subdirectory_keys_the_whole_work_tree(repo: Path,
                                                             tmp_path: Path) -> None:
    head = _verifiable(repo)
    write(repo, "deep/er/file.txt", "x\n")
    code, lines = _order_of_a_verify_run(repo, tmp_path, "--expect", "noop",
                                         cwd=repo / "deep" / "er")
    assert code == 0, lines
    key = reference_key(repo)
    assert key != head
    assert '"result":"pass"' in git(repo, "notes", "--ref", "refs/notes/correx", "show", key)


def test_verify_outside_a_repository_says_so(tmp_path: Path) -> None:
    """Discovery begun early and failing is reported by the regular path, as before."""
    outside = tmp_path / "nowhere"
    outside.mkdir()
    result = run_correx(outside, "verify", env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert result.code == 2, result
    assert "not inside a git repository" in result.stderr
