"""git started without `subprocess` (git/spawn.py) answers exactly as `run_git` does."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import GitResult, run_git
from gitcorrex.git.spawn import spawn_git

BOTH_STREAMS = ("!sh -c 'head -c 200000 /dev/zero | tr \"\\\\000\" a; "
                "head -c 200000 /dev/zero | tr \"\\\\000\" b >&2'")


def test_a_spawned_git_gives_run_gits_result(repo: Path) -> None:
    for args in (["rev-parse", "HEAD^{tree}"], ["rev-parse", "--verify", "-q", "nope"],
                 ["status", "--porcelain=v2", "-z"]):
        assert spawn_git(args, cwd=str(repo), check=False).wait() == run_git(
            args, cwd=repo, check=False)


def test_a_failed_spawned_git_raises_with_its_argv_and_stderr(repo: Path) -> None:
    with pytest.raises(GitCommandError) as raised:
        spawn_git(["rev-parse", "--verify", "no-such-ref"], cwd=str(repo)).wait()
    assert raised.value.status == 128 and raised.value.argv[-1] == "no-such-ref"
    assert "Needed a single revision" in raised.value.stderr


def test_full_pipes_on_both_streams_do_not_block_the_reader(repo: Path) -> None:
    """200 kB on stdout, then 200 kB on stderr: reading one stream to its end first would
    wait forever on a git blocked writing the other (a pipe holds 64 kB)."""
    answer: list[GitResult] = []
    git = spawn_git(["-c", f"alias.both={BOTH_STREAMS}", "both"], cwd=str(repo))
    reader = threading.Thread(target=lambda: answer.append(git.wait()), daemon=True)
    reader.start()
    reader.join(30)
    assert answer, "the reader blocked"
    assert answer[0].stdout == b"a" * 200_000 and answer[0].stderr == b"b" * 200_000


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_a_kept_descriptor_reaches_git_and_stays_ours_alone(repo: Path) -> None:
    """The lock's descriptor is handed to git (it must outlive us if we are killed), only
    to the git it is named for, and is not inheritable again once git started."""
    list_fds = ["-c", "alias.fds=!ls /proc/self/fd", "fds"]
    read_end, write_end = os.pipe()
    try:
        kept = spawn_git(list_fds, cwd=str(repo), keep_fds=(write_end,)).wait()
        assert str(write_end) in kept.stdout.decode().split()
        assert not os.get_inheritable(write_end)
        other = spawn_git(list_fds, cwd=str(repo)).wait()
        assert str(write_end) not in other.stdout.decode().split()
    finally:
        os.close(read_end)
        os.close(write_end)


# git ends by a stop signal: the alias's shell sends it to its parent, the git we started
KILLED_BY = "!kill -{} $PPID"


@pytest.mark.parametrize("check", [True, False])
@pytest.mark.parametrize("starts", ["run_git", "spawn_git"])
def test_a_git_ended_by_a_stop_signal_is_the_interruption(
        repo: Path, starts: str, check: bool) -> None:
    """Ctrl-C reaches the whole process group and git may die of it first: that is the
    interruption, checked or not — never a failure, nor a status read as an answer."""
    import signal

    from gitcorrex.errors import Interrupted

    for name in ("INT", "TERM"):
        args = ["-c", f"alias.stop={KILLED_BY.format(name)}", "stop"]
        with pytest.raises(Interrupted) as stopped:
            if starts == "run_git":
                run_git(args, cwd=repo, check=check)
            else:
                spawn_git(args, cwd=str(repo), check=check).wait()
        assert stopped.value.signum == getattr(signal, f"SIG{name}")


def test_a_git_ended_by_another_signal_is_its_failure(repo: Path) -> None:
    args = ["-c", f"alias.stop={KILLED_BY.format('KILL')}", "stop"]
    assert run_git(args, cwd=repo, check=False).returncode == -9
    with pytest.raises(GitCommandError):
        spawn_git(args, cwd=str(repo)).wait()
