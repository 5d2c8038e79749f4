"""One escaping for every terminal output: bidi and control characters and non-UTF-8 bytes
in paths reach no terminal raw, whichever command prints them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.printable import printable
from gitcorrex.review.markdown_text import markdown_text
from tests.conftest import REPO_ROOT, git, run_correx, write
from tests.ledger_facts import assessment_draft, record

RLO = "\u202e"
PROFILE = ('version = 1\n[commands]\nok = "true"\n[expectations]\ne = ["ok"]\n'
           '[defaults]\nexpectation = "e"\n[stages.impl]\nwrites = ["/src/**"]\n')


@pytest.mark.parametrize(("raw", "shown"), [
    ("plain/path.py", "plain/path.py"),
    (f"x{RLO}yp.exe", "x\\u202eyp.exe"),
    ("a\u2066b\u2069c\u200fd\u061ce", "a\\u2066b\\u2069c\\u200fd\\u061ce"),
    ("tab\there\nnl\x1b[31m\x7f\x85", "tab\\there\\nnl\\x1b[31m\\x7f\\x85"),
    (b"caf\xe9".decode("utf-8", "surrogateescape"), "caf\\xe9"),
    ("naïve/日本", "naïve/日本"),
])
def test_printable_escapes_what_a_terminal_would_act_on(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def correx_bytes(cwd: Path, *args: str | bytes) -> tuple[int, bytes, bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=cwd, env=env,
                          capture_output=True, check=False, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def assert_escaped(output: bytes, escaped: str) -> None:
    assert RLO.encode() not in output and b"\xe9" not in output, output
    assert escaped.encode() in output, output


@pytest.fixture
def project(make_repo: Callable[..., Path]) -> Path:
    root = make_repo(files={".correx.toml": PROFILE, "src/app.py": "x = 1\n"})
    git(root, "checkout", "-q", "-b", "feature")
    return root


@pytest.mark.parametrize(("name", "escaped"), [
    (f"docs/{RLO}txt.exe".encode(), "docs/\\u202etxt.exe"),
    (b"docs/caf\xe9.md", "docs/caf\\xe9.md"),
])
def test_check_and_assess_escape_bidi_and_undecodable_paths(
        project: Path, name: bytes, escaped: str) -> None:
    path = Path(os.fsdecode(project)) / os.fsdecode(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"spoof\n")
    code, out, err = correx_bytes(project, "assess", "write", name, "--stage", "impl")
    assert code == 1
    assert_escaped(out + err, escaped)
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "outside the manifest")
    code, out, err = correx_bytes(project, "check", "main..feature", "--stage", "impl")
    assert code == 1
    assert_escaped(out + err, escaped)


def test_state_verify_and_log_take_non_utf8_and_bidi_names(project: Path) -> None:
    write(project, f"src/{RLO}gnp.py", "x\n")
    (Path(os.fsdecode(project)) / os.fsdecode(b"src/caf\xe9.py")).write_bytes(b"y\n")
    for command in (["state"], ["verify"], ["log"], ["show"]):
        code, out, err = correx_bytes(project, *command)
        assert code == 0, (command, out, err)
        assert RLO.encode() not in out + err


def test_replay_and_the_pr_markdown_spell_a_bidi_path_alike(repo: Path) -> None:
    """The report's Markdown escapes its own syntax on top of the one spelling: rendered (a
    backslash before punctuation shows the punctuation), it shows what `replay` prints."""
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, f"src/{RLO}evil\u200b.txt", "x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a hidden name")
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    record(repo, assessment_draft(tree, [f"src/{RLO}evil\u200b.txt"]))
    replay = run_correx(repo, "replay")
    markdown = run_correx(repo, "report", f"{base}..HEAD", "--format", "markdown")
    assert replay.code == 0 and markdown.code == 0, (replay, markdown)
    for shown in (replay.stdout, rendered_markdown(markdown.stdout)):
        assert "src/\\u202eevil\\u200b.txt" in shown, shown
        assert RLO not in shown and "\u200b" not in shown


def rendered_markdown(text: str) -> str:
    """What a Markdown page shows of escaped text: a backslash before punctuation is dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


@pytest.mark.parametrize("raw", [
    f"x{RLO}y", "zero\u200bwidth", "tab\there", "no\u00a0break", "\x1b[31mred",
    b"caf\xe9".decode("utf-8", "surrogateescape"), "line\u2028sep"])
def test_markdown_spells_invisible_characters_as_a_terminal_shows_them(raw: str) -> None:
    assert rendered_markdown(markdown_text(raw)) == printable(raw)
