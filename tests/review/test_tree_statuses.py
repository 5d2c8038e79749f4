"""`git correx log` answered from statuses kept by note content: the lines and problems a
fold of the notes from nothing gives (by the libgit2 engine, with nothing stored),
refreshed by every new verification, and no click, pydantic or pygit2 once stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gitcorrex.cli.log_render import log_output
from gitcorrex.review.log import log_commits
from tests.conftest import REPO_ROOT, git, in_process, nothing_stored, run_correx, write
from tests.ledger_facts import verify_tree
from tests.review.test_log import commit_file

LIGHT_IMPORTS = """
import sys
from gitcorrex.cli.boundary import CONCLUSION_CODES
from gitcorrex.cli.startup import run_startup
ended = run_startup(["log", "--json"])
code = None if ended is None else int(CONCLUSION_CODES[ended])
# typing too: 3 ms of a ~50 ms command, for annotations only
heavy = sorted(m for m in ("click", "pydantic", "pygit2", "typing") if m in sys.modules)
print(code, heavy, file=sys.stderr)
"""


def full_output(repo: Path, *, as_json: bool) -> tuple[str, str]:
    """What `log` says when nothing is stored: every note folded anew, read in-process."""
    handle = in_process(repo)
    with nothing_stored(handle):
        result = log_commits(handle, revisions=[], limit=None, verify_signatures=False)
    return log_output(result, as_json=as_json)


def history(repo: Path) -> tuple[str, str]:
    _, passing = commit_file(repo, "a.txt", "a\n", "add a")
    _, failing = commit_file(repo, "b.txt", "b\n", "add b")
    commit_file(repo, "c.txt", "c\n", "add c")
    verify_tree(repo, passing, "pass", seconds=1)
    verify_tree(repo, failing, "fail", seconds=2)
    return passing, failing


def test_stored_statuses_print_what_a_fold_from_nothing_prints(repo: Path) -> None:
    history(repo)
    for args, as_json in ((["log"], False), (["log", "--json"], True)):
        for _ in range(2):  # the second run answers from the stored statuses
            result = run_correx(repo, *args)
            assert result.code == 0, result
            assert (result.stdout, result.stderr) == full_output(repo, as_json=as_json)


def test_a_new_verification_shows_in_the_next_log(repo: Path) -> None:
    _, failing = history(repo)
    run_correx(repo, "log")
    verify_tree(repo, failing, "pass", seconds=3)
    result = run_correx(repo, "log")
    assert result.stdout.splitlines()[1].split()[1:3] == ["✓", "pass"]
    assert (result.stdout, result.stderr) == full_output(repo, as_json=False)


def test_ledger_problems_are_reported_on_every_run(repo: Path) -> None:
    passing, _ = history(repo)
    broken = git(repo, "notes", "--ref=correx", "show", passing) + "not json\n"
    note = repo / "broken-note"
    note.write_text(broken)
    git(repo, "notes", "--ref=correx", "add", "-f", "-F", str(note), passing)
    for _ in range(2):
        result = run_correx(repo, "log")
        assert "ledger problem" in result.stderr, result
        assert (result.stdout, result.stderr) == full_output(repo, as_json=False)


def test_a_stored_log_imports_neither_click_nor_pydantic_nor_pygit2(repo: Path) -> None:
    history(repo)
    write(repo, "untracked.txt", "x\n")
    run_correx(repo, "log")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run([sys.executable, "-c", LIGHT_IMPORTS], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.stderr.strip().splitlines()[-1] == "0 []", proc.stderr


def test_many_trees_are_listed_by_fanout_dir_with_the_same_result(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitcorrex.git import note_reads
    from gitcorrex.git.repository import discover

    history(repo)
    monkeypatch.setattr(note_reads, "MANY_SUBJECTS", 0)  # every log takes the dir listing
    listed = log_commits(discover(repo), revisions=[], limit=None,
                         verify_signatures=False)
    assert log_output(listed, as_json=True) == full_output(repo, as_json=True)
