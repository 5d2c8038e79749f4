"""git correx writers take turns on the ledger; nothing blocks when the queue cannot help.

Without the queue, eight `verify --session` processes on two cores needed up to 43
compare-and-swap attempts for one append and sixteen lost appends after 60
(benchmarks/bench_contention.py). The queue is a `flock` on a file in the common git dir;
these tests hold it from the test process itself, as another writer would, and watch a real
`git correx verify` process wait for it, then record.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gitcorrex.git.writer_queue import QUEUE_FILE, writers_turn
from tests.conftest import REPO_ROOT, git, in_process
from tests.verify.conftest import NOTES_REF, write_profile


@contextmanager
def holding_queue(repo: Path) -> Iterator[None]:
    """The queue held as another git correx writer holds it: an exclusive flock."""
    common = Path(git(repo, "rev-parse", "--git-common-dir").strip())
    path = (repo / common if not common.is_absolute() else common) / "correx" / QUEUE_FILE
    path.parent.mkdir(exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def ledger_tip(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(objectname)", NOTES_REF).strip()


def start_verify(cwd: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify"], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_writer_waits_for_its_turn_then_records(repo: Path) -> None:
    write_profile(repo, {"nop": "true"}, {"nop": ["nop"]}, default="nop")
    with holding_queue(repo):
        proc = start_verify(repo)
        time.sleep(3)  # far longer than a verify of `true` takes
        assert proc.poll() is None, proc.communicate()
        assert ledger_tip(repo) == ""  # nothing written while another writer has the turn
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, (out, err)
    assert ledger_tip(repo) != ""


def test_a_linked_worktree_queues_with_its_main_worktree(repo: Path) -> None:
    write_profile(repo, {"nop": "true"}, {"nop": ["nop"]}, default="nop")
    linked = repo.parent / "linked"
    git(repo, "worktree", "add", "-q", "--detach", str(linked))
    with holding_queue(repo):
        proc = start_verify(linked)
        time.sleep(3)
        assert proc.poll() is None, proc.communicate()
    assert proc.wait(timeout=60) == 0
    assert ledger_tip(repo) != ""


def test_a_holder_that_never_lets_go_only_costs_the_wait(repo: Path) -> None:
    opened = in_process(repo)
    with holding_queue(repo):
        start = time.monotonic()
        with writers_turn(opened, wait=0.3) as held:
            waited = time.monotonic() - start
    assert held is False  # the append goes on without the queue: compare-and-swap guards it
    assert 0.3 <= waited < 5


def test_the_queue_is_free_again_when_its_holder_is_killed(repo: Path) -> None:
    opened = in_process(repo)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from gitcorrex.git.repository import discover; "
         "from gitcorrex.git.writer_queue import writers_turn; "
         "turn = writers_turn(discover(Path(sys.argv[1]))); assert turn.__enter__(); "
         "print('held', flush=True); time.sleep(600)", str(repo)],
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
    with writers_turn(opened, wait=0.2) as held:
        assert held is False
    holder.kill()
    holder.wait()
    with writers_turn(opened, wait=5) as held:
        assert held is True


def test_a_git_dir_without_room_for_the_queue_goes_without_it(repo: Path) -> None:
    """Where the queue file cannot be made (here `correx` is a file, as on a read-only or
    foreign-owned git dir), the append does not wait and does not fail."""
    opened = in_process(repo)
    (opened.common_dir / "correx").write_text("not a directory\n")
    start = time.monotonic()
    with writers_turn(opened, wait=5) as held:
        assert held is False
    assert time.monotonic() - start < 1
