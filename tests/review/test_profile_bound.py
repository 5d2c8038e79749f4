"""A pass counts for a tree only under the tree's own profile: `log`, `report` and `check
--require-pass` never count a pass whose `profile` blob is not the tree's `.correx.toml`.

The adversary appends a well-formed pass line (as a foreign writer, with `git notes`) that
ran another profile: the profile hidden from the key, or a weakened one swapped in during a
run. It is shown as what it is, a pass under another profile, and never as ✓.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import note_line, verification_draft
from tests.verify.conftest import profile_text

Correx = Callable[..., CliResult]
WEAK = profile_text({"test": "true"}, {"test": ["test"]}, default="test").encode()


def feature(project: Path) -> tuple[str, str]:
    """A commit on top of the project's; (its base, its tree)."""
    base = git(project, "rev-parse", "HEAD").strip()
    write(project, "src/feature.py", "FEATURE = 1\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "feature")
    return base, git(project, "rev-parse", "HEAD^{tree}").strip()


def foreign_pass(root: Path, tree: str, profile: bytes = WEAK, *, seconds: int = 0) -> str:
    """A pass of `tree` that ran `profile` (not the tree's), added with `git notes` as
    another writer would; its id."""
    blob = git(root, "hash-object", "-w", "--stdin", input=profile).strip()
    fields = verification_draft(in_process(root), tree, "pass").payload.line_fields()
    fields["profile"] = blob
    return note_line(root, tree, "workspace_verification_observed", fields, seconds=seconds,
                     state_key=tree)


def test_log_shows_a_pass_under_another_profile_as_what_it_is(project: Path,
                                                              correx: Correx) -> None:
    _, tree = feature(project)
    event = foreign_pass(project, tree)
    result = correx(project, "log", "-n", "1")
    assert result.code == 0, result
    assert "✓" not in result.stdout and " pass " not in result.stdout, result
    assert "≠ other_profile" in result.stdout, result
    status = json.loads(correx(project, "log", "-n", "1", "--json").stdout)["commits"][0]
    assert status["status"]["result"] == "other_profile"
    assert status["status"]["event"] == event


def test_check_require_pass_does_not_count_a_pass_under_another_profile(
        project: Path, correx: Correx) -> None:
    base, tree = feature(project)
    foreign_pass(project, tree)
    result = correx(project, "check", f"{base}..HEAD", "--require-pass")
    assert result.code == 1, result
    assert "✓" not in result.stdout, result
    document = json.loads(correx(project, "check", f"{base}..HEAD", "--require-pass",
                                 "--json").stdout)
    assert document["required_pass"]["result"] == "other_profile"


def test_report_does_not_count_a_pass_under_another_profile(project: Path,
                                                           correx: Correx) -> None:
    base, tree = feature(project)
    foreign_pass(project, tree)
    document = json.loads(correx(project, "report", f"{base}..HEAD", "--json").stdout)
    assert document["commits"][0]["status"]["result"] == "other_profile"
    markdown = correx(project, "report", f"{base}..HEAD").stdout
    assert "✓ 0 pass" in markdown, markdown
    assert "✓ verification pass" not in markdown, markdown
    assert "pass under another profile" in markdown, markdown


def test_the_trees_own_pass_still_counts_beside_a_foreign_one(project: Path,
                                                             correx: Correx) -> None:
    """A newer pass under another profile says nothing about this profile's commands: the
    newest verification under the tree's own profile decides."""
    base, _ = feature(project)
    assert correx(project, "verify", "--quiet").code == 0
    foreign_pass(project, git(project, "rev-parse", "HEAD^{tree}").strip(), seconds=10**9)
    assert correx(project, "check", f"{base}..HEAD", "--require-pass").code == 0
    assert "✓ pass" in correx(project, "log", "-n", "1").stdout


def test_a_stored_log_status_is_not_reused_for_another_profile(project: Path,
                                                              correx: Correx) -> None:
    """`log` keeps each status by note content; the same note on a tree whose profile
    differs is another question (the fold store's key holds the tree's profile)."""
    _, tree = feature(project)
    assert correx(project, "verify", "--quiet").code == 0
    assert "✓ pass" in correx(project, "log", "-n", "1").stdout
    note = git(project, "notes", "--ref", "correx", "show", tree)
    write(project, ".correx.toml", WEAK)
    git(project, "commit", "-qam", "weaker profile")
    weak_tree = git(project, "rev-parse", "HEAD^{tree}").strip()
    git(project, "notes", "--ref", "correx", "add", "-f", "-m", note.rstrip("\n"), weak_tree)
    assert "✓" not in correx(project, "log", "-n", "1").stdout


def test_show_marks_a_pass_under_another_profile(project: Path, correx: Correx) -> None:
    _, tree = feature(project)
    foreign_pass(project, tree)
    result = correx(project, "show", "HEAD")
    assert result.code == 0, result
    assert "≠ pass under another profile test" in result.stdout, result
    assert "✓" not in result.stdout, result
