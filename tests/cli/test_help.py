"""Help as users type it: `-h` listings with whole summaries, `git correx help [COMMAND]`,
usage errors that point at what works, and a reference generated from the commands."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, run_correx


def test_generated_reference_and_man_page_are_current() -> None:
    from gitcorrex.cli.reference import stale_files

    assert stale_files(REPO_ROOT) == [], "run: python -m gitcorrex.cli.reference --write"


def test_reference_check_reports_a_stale_file(tmp_path: Path) -> None:
    from gitcorrex.cli.reference import MAN, MARKDOWN, markdown_page, stale_files

    (tmp_path / "docs").mkdir()
    (tmp_path / MARKDOWN).write_text(markdown_page() + "edited by hand\n")
    assert stale_files(tmp_path) == [MARKDOWN, MAN]


def test_listing_shows_each_summary_whole(tmp_path: Path) -> None:
    result = run_correx(tmp_path, "-h")
    assert result.code == 0, result
    listing = " ".join(result.stdout.split("Commands:")[1].split())
    assert "..." not in listing.replace("PATH...", "")
    assert ("Judge `write` or `read` of PATH... (relative to the current directory, or "
            "absolute).") in listing
    assert "help Print the manual" in listing


def test_help_command_prints_one_commands_part(tmp_path: Path) -> None:
    result = run_correx(tmp_path, "help", "plan", "lock")
    assert result.code == 0, result
    assert result.stdout.startswith("Usage: git correx plan lock [OPTIONS] PLAN\n")
    assert "--replaces OLD" in result.stdout
    assert "Usage: git correx verify" not in result.stdout


def test_help_without_a_command_prints_the_whole_manual(tmp_path: Path) -> None:
    result = run_correx(tmp_path, "help")
    assert result.code == 0, result
    for part in ("git correx plan lock", "git correx sync", "EXIT STATUS", "FILES",
                 "EXAMPLES", ".correx.toml"):
        assert part in result.stdout


def test_help_for_an_unknown_command_is_a_usage_error(tmp_path: Path) -> None:
    result = run_correx(tmp_path, "help", "plan", "nope")
    assert result.code == 2, result
    assert "git correx has no command 'plan nope'" in result.stderr


def test_help_for_a_misspelt_command_names_the_close_ones(tmp_path: Path) -> None:
    result = run_correx(tmp_path, "help", "nosuch")
    assert result.code == 2, result
    assert "git correx has no command 'nosuch'" in result.stderr
    assert "no such command: git correx" not in result.stderr
    close = run_correx(tmp_path, "help", "veryfy")
    assert "did you mean `git correx help verify`?" in close.stderr, close


def test_usage_error_points_at_dash_h_and_help_not_dash_dash_help(tmp_path: Path) -> None:
    result = run_correx(tmp_path, "plan", "lok")
    assert result.code == 2, result
    assert "Try 'git correx plan -h' or 'git correx help plan'." in result.stderr
    assert "--help" not in result.stderr
    assert "No such command 'lok'" in result.stderr


def test_man_page_names_every_command_and_the_exit_codes() -> None:
    page = (REPO_ROOT / "man" / "git-correx.1").read_text()
    assert page.startswith(".TH GIT\\-CORREX 1")
    for section in (".SH SYNOPSIS", ".SH COMMANDS", ".SH EXIT STATUS", ".SH FILES",
                    ".SH EXAMPLES"):
        assert section in page
    assert ".SS git correx plan lock" in page and "\\-\\-replaces" in page


def test_man_page_is_ascii_and_renders_under_lang_c_without_warnings(tmp_path: Path) -> None:
    from gitcorrex.cli.reference import man_page

    page = tmp_path / "git-correx.1"
    page.write_text(man_page(), encoding="utf-8")
    assert page.read_bytes().isascii()
    assert "+ pass, x fail" in page.read_text()
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed")
    rendered = subprocess.run(["groff", "-man", "-Tascii", "-ww", str(page)],
                              env={**os.environ, "LANG": "C", "LC_ALL": "C"},
                              capture_output=True, check=False)
    assert rendered.returncode == 0
    assert rendered.stderr.decode() == ""
