"""A 200-commit range is judged in one `rev-list` and one batched `diff-tree`, in seconds.

The budget is the CPU time of the check and every process it starts (their user + system
time, as the kernel accounts it to the waited-for children), not the wall clock: the suite
runs in parallel on a shared machine, where a wall-clock budget measures the neighbours. A
generous wall-clock bound stays, for a check that would wait rather than work.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.manifest.range_repos import PROFILE

Correx = Callable[..., CliResult]


def fast_import_history(root: Path, *, files: int, commits: int) -> None:
    """`main` with `files` files and the profile; `feature` with `commits` commits on top,
    each editing three files under src/ and, every 50th, one under protected/."""
    lines = [
        "commit refs/heads/main",
        "committer A <a@example.test> 1700000000 +0000",
        "data 4",
        "main",
        f"M 100644 inline .correx.toml\ndata {len(PROFILE)}\n{PROFILE}",
    ]
    for i in range(files):
        folder = "protected" if i % 10 == 0 else "src"
        body = f"file {i}\n"
        lines.append(f"M 100644 inline {folder}/d{i // 100}/f{i}.txt\ndata {len(body)}\n{body}")
    lines.append("reset refs/heads/feature\nfrom refs/heads/main")
    for n in range(1, commits + 1):
        lines += [
            "commit refs/heads/feature",
            f"committer A <a@example.test> {1700000000 + n} +0000",
            f"data {len(str(n))}",
            str(n),
        ]
        for k in range(3):
            body = f"edit {n}\n"
            path = f"src/d{(n + k) % 10}/f{((n + k) % 10) * 100 + 1 + k}.txt"
            lines.append(f"M 100644 inline {path}\ndata {len(body)}\n{body}")
        if n % 50 == 0:
            lines.append(f"D protected/d{n // 50}/f{n // 50 * 100}.txt")
    git(root, "fast-import", "--quiet", input=("\n".join(lines) + "\n").encode())


@pytest.mark.slow
def test_two_hundred_commits_in_a_few_seconds(tmp_path: Path, correx: Correx) -> None:
    root = tmp_path / "scale"
    root.mkdir()
    git(root, "init", "-q")
    fast_import_history(root, files=5000, commits=200)
    started, before = time.monotonic(), children_cpu_s()
    result = correx(root, "check", "main..feature", "--stage", "impl")
    elapsed, cpu = time.monotonic() - started, children_cpu_s() - before
    assert result.code == 1, result
    assert result.stdout.splitlines()[-1] == "4 violations in 4 commits, 4 in the net diff"
    assert cpu < 5, f"check of 200 commits took {cpu:.2f} s of CPU"
    assert elapsed < 60, f"check of 200 commits took {elapsed:.2f} s"


def children_cpu_s() -> float:
    """User + system seconds of every finished child process of this test process (and
    their own waited-for children: git under `git correx`)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
