"""`git correx report` sized for where it is read: with no range, the branch since its merge
base with the upstream or default branch (and it says so); a run of commits with nothing
recorded is one line; Markdown never larger than `--max-bytes` (1 MiB by default), ending
with what it left out. Real repositories; the 6,000-commit history is built with
`git fast-import`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.git import blobs_at
from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import PROFILE, record, verification_draft

MIB = 1024 * 1024


def commit(root: Path, name: str) -> str:
    write(root, f"{name}.txt", f"{name}\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", name)
    return git(root, "rev-parse", "HEAD").strip()


def branch_repo(make_repo: Callable[..., Path]) -> tuple[Path, str]:
    """main with two commits, `topic` from it with three; (repo, the merge base)."""
    root = make_repo(files={"README.md": "hello\n"})
    git(root, "branch", "-M", "main")
    base = commit(root, "on-main")
    git(root, "switch", "-q", "-c", "topic")
    for name in ("t1", "t2", "t3"):
        commit(root, name)
    return root, base


def subjects(root: Path, correx: Callable[..., CliResult]) -> list[str]:
    """The subjects of the commits `report` (no range) covers, oldest first."""
    document = json.loads(correx(root, "report", "--json").stdout)
    return [commit["subject"] for commit in document["commits"]]


def test_report_with_no_range_covers_the_branch_since_main(
        make_repo: Callable[..., Path], correx: Callable[..., CliResult]) -> None:
    root, base = branch_repo(make_repo)
    git(root, "switch", "-q", "main")
    commit(root, "main-moved-on")  # not the branch's: left out by the merge base
    git(root, "switch", "-q", "topic")
    out = correx(root, "report").stdout
    assert f"_no range given: main..HEAD, the branch since its merge base {base[:12]} " \
           "with main._" in out
    assert subjects(root, correx) == ["t1", "t2", "t3"]
    document = json.loads(correx(root, "report", "--json").stdout)
    assert document["revisions"] == ["main..HEAD"]
    assert document["chosen"].startswith("no range given: main..HEAD")


def test_report_prefers_the_upstream_and_skips_the_branch_own_copy(
        make_repo: Callable[..., Path], tmp_path: Path,
        correx: Callable[..., CliResult]) -> None:
    root, _ = branch_repo(make_repo)
    git(tmp_path, "init", "-q", "--bare", "origin.git")
    git(root, "remote", "add", "origin", str(tmp_path / "origin.git"))
    git(root, "push", "-q", "origin", "main", "topic~1:refs/heads/release")
    git(root, "fetch", "-q", "origin")
    git(root, "branch", "-q", "--set-upstream-to", "origin/release")
    out = correx(root, "report").stdout
    assert "no range given: origin/release..HEAD" in out and subjects(root, correx) == ["t3"]
    git(root, "push", "-q", "-u", "origin", "topic")  # now it tracks its own copy
    commit(root, "t4")  # not pushed yet: the copy is behind, still not what it merges into
    out = correx(root, "report").stdout
    assert "no range given: main..HEAD" in out
    assert subjects(root, correx) == ["t1", "t2", "t3", "t4"]


def test_report_on_the_default_branch_covers_the_newest_commits(
        make_repo: Callable[..., Path], correx: Callable[..., CliResult]) -> None:
    root, _ = branch_repo(make_repo)
    git(root, "switch", "-q", "main")
    out = correx(root, "report").stdout
    assert "the newest 20 commits of HEAD" in out
    assert subjects(root, correx) == ["initial", "on-main"]


def test_a_run_of_commits_with_nothing_recorded_is_one_line(
        repo: Path, correx: Callable[..., CliResult]) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    names = [commit(repo, f"c{i}") for i in range(5)]
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    record(repo, verification_draft(in_process(repo), tree, "pass"))
    out = correx(repo, "report", f"{base}..HEAD").stdout
    span = f"`{names[0][:12]}`…`{names[3][:12]}`"
    assert out.count("4 commits with nothing recorded") == 2  # its table row and its line
    assert f"| {span} | - none | | | 4 commits with nothing recorded |" in out
    assert "Nothing recorded for tree" not in out and "c4" in out


def fast_import_history(root: Path, count: int) -> None:
    """`count` commits on main, each changing one file (so each has its own tree)."""
    chunks = []
    for index in range(count):
        data = f"{index}\n".encode()
        message = f"commit {index}\n".encode()
        chunks.append(b"commit refs/heads/main\n"
                      + f"mark :{index + 1}\n".encode()
                      + f"committer A <a@example.test> {1_700_000_000 + index} +0000\n".encode()
                      + f"data {len(message)}\n".encode() + message
                      + (f"from :{index}\n".encode() if index else b"")
                      + b"M 100644 inline .correx.toml\n"
                      + f"data {len(PROFILE)}\n".encode() + PROFILE
                      + b"M 100644 inline counter.txt\n"
                      + f"data {len(data)}\n".encode() + data + b"\n")
    git(root, "fast-import", "--quiet", input=b"".join(chunks))
    git(root, "reset", "-q", "--hard", "main")


@pytest.mark.slow
def test_a_6000_commit_report_stays_under_1_mib_and_says_what_it_left_out(
        tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    root = tmp_path / "big"
    git(tmp_path, "init", "-q", "-b", "main", "big")
    fast_import_history(root, 6000)
    trees = git(root, "log", "--format=%T", "main").split()[::-1]  # oldest first
    failing = trees[::10]  # 600 failures, 4 KB of output tail each: ~2.6 MB uncut
    handle = in_process(root)
    assert len(blobs_at(handle, failing[:1], ".correx.toml")) == 1
    record(root, *(verification_draft(handle, tree, "fail", tail="E" * 3999 + "\n")
                   for tree in failing))
    full = correx(root, "report", "main", "--max-bytes", "0", timeout=600)
    assert full.code == 0 and len(full.stdout.encode()) > 2 * MIB, full.stderr
    capped = correx(root, "report", "main", timeout=600)
    assert capped.code == 0, capped
    size = len(capped.stdout.encode())
    assert MIB // 2 < size <= MIB
    assert capped.stdout.startswith("## git correx report: main\n\n6000 commit(s): "
                                    "✓ 0 pass · ✗ 600 fail")
    tail = capped.stdout.rstrip("\n").splitlines()[-1]
    assert tail.startswith("**Left out to stay within 1,048,576 bytes** (`--max-bytes`): "
                           "the "), tail
    left = int(tail.split("the ", 1)[1].split(" ", 1)[0])
    assert 1000 < left < 6000 and f"✗ {len(range(0, left, 10))} fail" in tail
    assert "`git correx log RANGE`" in tail
    shas = git(root, "log", "--format=%H", "main").split()[::-1]  # oldest first
    assert f"`{shas[-1][:12]}`" in capped.stdout  # the head is what is judged: kept
    assert f"`{shas[0][:12]}`…`{shas[left - 1][:12]}`" in tail  # the oldest left out
    kept = capped.stdout.split("**Left out")[0]
    assert f"`{shas[left][:12]}`" in kept and f"`{shas[left - 1][:12]}`" not in kept


def test_report_in_a_repository_without_commits_says_to_commit_first(
        tmp_path: Path, correx: Callable[..., CliResult]) -> None:
    git(tmp_path, "init", "-q", "fresh")
    result = correx(tmp_path / "fresh", "report")
    assert result.code == 2, result
    assert "HEAD has no commits yet" in result.stderr and "bad revision" not in result.stderr
