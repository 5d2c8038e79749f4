"""`git correx report --format markdown`: a snapshot, and hostile names that forge nothing."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.review.markdown_text import html_text, markdown_text
from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import record, verification_draft
from tests.review.hostile_history import (
    BIDI_FILE,
    HOSTILE_FILE,
    HOSTILE_SUBJECT,
    PIPE_FILE,
    SNAPSHOT,
    build_history,
    commit_all,
    hostile_report,
)

ALLOWED_TAGS = {"<details>", "</details>", "<summary>", "</summary>", "<pre>", "</pre>"}


def test_report_markdown_matches_the_snapshot(repo: Path) -> None:
    """Compares only: after an intended change to the report, regenerate the snapshot by
    hand (`python -m tests.review.snapshots.regenerate`) and review its diff."""
    assert hostile_report(repo) == SNAPSHOT.read_text(encoding="utf-8")


def test_hostile_text_cannot_forge_markup(repo: Path, correx: Callable[..., CliResult]) -> None:
    base = build_history(repo)
    out = correx(repo, "report", f"{base}..HEAD").stdout
    assert set(re.findall(r"<[^<>]*>", out)) <= ALLOWED_TAGS
    invisible = [c for c in out if c != "\n" and unicodedata.category(c) in ("Cc", "Cf")]
    assert invisible == []
    assert out.count("<details>") == out.count("</details>") == 1
    assert out.count("<pre>") == out.count("</pre>") == 1
    pre = out.split("<pre>")[1].split("</pre>")[0]  # raw HTML: only `<` could end it early
    assert "<" not in pre and "&lt;/pre&gt;&lt;/details&gt;" in pre
    assert "](" not in out.replace("\\](", "").replace("]\\(", "")
    assert "\\@admin" in out and "\\u202egnp" in out


def test_markdown_text_escapes_each_kind_of_hostile_character() -> None:
    assert markdown_text("a*b _c_") == "a\\*b \\_c\\_"
    assert markdown_text("<b>&") == "&lt;b>&amp;"
    assert markdown_text("x\ny\u202e\x1b") == "x\\\\ny\\\\u202e\\\\x1b"
    assert markdown_text("[t](u)|`~$") == "\\[t\\](u)\\|\\`\\~\\$"
    assert markdown_text("@admin a@b") == "\\@admin a@b"
    assert html_text("</pre>\n\t\u2067", keep_newlines=True) == "&lt;/pre&gt;\n\t\\u2067"


@pytest.mark.parametrize(("raw", "shown"), [
    ("# title", "\\# title"), ("- item", "\\- item"), ("+ item", "\\+ item"),
    ("> quote", "\\> quote"), ("12. item", "12\\. item"), ("3) item", "3\\) item")])
def test_markdown_text_escapes_a_leading_block_marker(raw: str, shown: str) -> None:
    assert markdown_text(raw) == shown


def test_markdown_text_leaves_dates_emails_paths_and_words_plain() -> None:
    for plain in ("2026-12-02T20:04:22Z", "maintainers@users.noreply.github.com",
                  "src/pkg/mod.py", "workspace_changed", "main..HEAD", "it's \"fine\" (1/2)"):
        assert markdown_text(plain) == plain


@pytest.mark.parametrize("fmt", [["--format", "json"], ["--json"]])
def test_report_json_carries_the_facts_unescaped(
    repo: Path, correx: Callable[..., CliResult], fmt: list[str]
) -> None:
    base = build_history(repo)
    result = correx(repo, "report", f"{base}..HEAD", *fmt)
    assert result.code == 0, result
    commits = json.loads(result.stdout)["commits"]
    assert [c["status"]["result"] for c in commits] == ["pass", "fail", "none"]
    assert commits[1]["subject"] == HOSTILE_SUBJECT
    paths = [p["path"] for p in commits[1]["assessments"][0]["paths"]]
    assert paths == [HOSTILE_FILE, PIPE_FILE, BIDI_FILE]
    assert commits[0]["sessions"] == [{"session": "run-42", "status": "active", "revision": 1,
                                       "active_step": None, "awaiting_review": None,
                                       "pause_cause": None,
                                       "at": "2026-01-01T00:00:01.000000Z"}]
    assert [g["kind"] for g in commits[1]["gates"]] == ["brief_grounding_checked"]
    assert commits[1]["gates"][0]["references"][0]["path"] == PIPE_FILE


def test_report_of_an_unknown_revision_exits_2(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(repo, "report", "nowhere..HEAD")
    assert result.code == 2, result
    assert "nowhere" in result.stderr


def test_report_shows_the_latest_observation_per_expectation(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    handle = in_process(repo)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    record(repo, verification_draft(handle, tree, "fail", tail="OLD FAILURE\n"), seconds=1)
    record(repo, verification_draft(handle, tree, "pass"), seconds=2)
    out = correx(repo, "report", "HEAD").stdout
    assert "- ✓ verification pass **test** by ada@example.test at " \
           "2026-01-01T00:00:02.000000Z (latest of 2 runs)" in out
    assert "OLD FAILURE" not in out and "<details>" not in out


def test_commits_sharing_a_tree_share_one_entry(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "a.txt", "a\n")
    tree = commit_all(repo, "first")
    first = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "commit", "-q", "--allow-empty", "-m", "same tree")
    record(repo, verification_draft(in_process(repo), tree, "fail", tail="BOOM\n"))
    out = correx(repo, "report", f"{base}..HEAD").stdout
    assert out.count("BOOM") == 1 and out.count("verification fail") == 1
    assert f"Same tree as `{first[:12]}`: its facts are listed there." in out
