"""One fault, every entry: the same exit code and the same words, whichever way in.

The entries are the click command (`git correx assess write …`), the click-free fast path
(`git correx hook run pre-commit`, `git correx state`), the installed hook (its script run as
git runs it, and a real `git commit`), the agent hook (`assess --hook claude-code`: the
agent's blocking exit 2, naming the code a command gives) and the MCP server (the tool's
error). All map the fault through gitcorrex/failure.py, so the lines must be identical.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.agents.conftest import claude
from tests.cli.test_boundary import fill, full_disk_repo, small_fs  # noqa: F401  (fixture)
from tests.conftest import CliResult, git, run_correx
from tests.hooks.conftest import commit, hook_env, hook_path, install, stage_file

BAD_PROFILE = 'version = 1\n[stages.implement]\nwrites = "src"\n'
BAD_PROFILE_ERROR = [
    'git correx: error: .correx.toml at HEAD: stages.implement.writes: expected a list, '
    'got "src"',
    "  hint: write a list here",
]


def error_lines(stderr: str) -> list[str]:
    """The boundary's error line and its hint (the agent's notice indents them by two)."""
    lines = stderr.splitlines()
    if lines and lines[0].endswith("(fail closed):"):
        lines = [line.removeprefix("  ") for line in lines[1:]]
    starts = [i for i, line in enumerate(lines) if line.startswith("git correx: error:")]
    if not starts:
        return []
    first = starts[0]
    with_hint = first + 1 < len(lines) and lines[first + 1].startswith("  hint:")
    return lines[first:first + 2] if with_hint else lines[first:first + 1]


def installed_hook(root: Path) -> CliResult:
    """The pre-commit script git would run, run the same way (its own exit code)."""
    proc = subprocess.run([str(hook_path(root))], cwd=root, env=hook_env(),
                          capture_output=True, check=False, timeout=120)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def agent_write(root: Path, rel: str) -> CliResult:
    payload = claude("PreToolUse", root, "Write", file_path=str(root / rel), content="x\n")
    return run_correx(root, "assess", "--hook", "claude-code", input=payload)


@pytest.fixture
def bad_profile(make_repo: Callable[..., Path]) -> Path:
    """HEAD's .correx.toml declares `writes` as a string; stage `implement` selected; hooks
    installed; a change to src/app.py staged."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            ".correx.toml": BAD_PROFILE})
    git(root, "config", "correx.stage", "implement")
    install(root)
    stage_file(root, "src/app.py", "VALUE = 2\n")
    return root


def test_an_invalid_profile_is_exit_2_with_one_message_through_every_entry(
        bad_profile: Path) -> None:
    head = git(bad_profile, "rev-parse", "HEAD")
    click = run_correx(bad_profile, "assess", "write", "src/app.py")
    fast = run_correx(bad_profile, "hook", "run", "pre-commit")
    script = installed_hook(bad_profile)
    committed = commit(bad_profile)
    agent = agent_write(bad_profile, "src/app.py")
    for result in (click, fast, script):
        assert result.code == 2, result
        assert error_lines(result.stderr) == BAD_PROFILE_ERROR, result
        assert "Traceback" not in result.stderr
    assert committed.code != 0 and git(bad_profile, "rev-parse", "HEAD") == head
    assert error_lines(committed.stderr) == BAD_PROFILE_ERROR, committed
    assert "pre-commit: stopped, because the check could not run" in committed.stderr
    assert agent.code == 2, agent  # the agent's blocking answer
    assert error_lines(agent.stderr) == BAD_PROFILE_ERROR, agent
    assert "(as a command this would exit 2)" in agent.stderr


def test_an_invalid_profile_is_the_mcp_tools_error_in_the_same_words(bad_profile: Path) -> None:
    pytest.importorskip("mcp")
    import anyio

    from tests.mcp_server.test_mcp_server import sdk_session

    _, assessed = anyio.run(sdk_session, bad_profile,
                            [("assess_write", {"paths": ["src/app.py"]})])
    assert assessed.is_error
    message = BAD_PROFILE_ERROR[0].removeprefix("git correx: error: ")
    assert assessed.content[0].text == (f"Error executing tool assess_write: {message} "
                                        "(hint: write a list here)")


def test_no_repository_is_exit_2_with_one_message_through_every_entry(tmp_path: Path) -> None:
    outside = tmp_path / "nowhere"
    outside.mkdir()
    expected = [f"git correx: error: not inside a git repository: {outside}",
                "  hint: cd into a git work tree (or run `git init`) and try again"]
    click = run_correx(outside, "verify")
    fast = run_correx(outside, "state")
    hook = run_correx(outside, "hook", "run", "pre-commit")
    agent = agent_write(outside, "src/app.py")
    for result in (click, fast, hook):
        assert result.code == 2, result
        assert error_lines(result.stderr) == expected, result
    assert agent.code == 2 and error_lines(agent.stderr) == expected, agent
    assert "(as a command this would exit 2)" in agent.stderr


def test_a_full_disk_is_exit_3_with_one_message_through_every_entry(
        small_fs: Path) -> None:  # noqa: F811
    """A write outside the manifest is recorded as a BLOCK: on a full disk that write fails
    the same way whether a command, a hook or an agent's call asked for it."""
    root = full_disk_repo(small_fs)
    git(root, "config", "correx.stage", "impl")
    install(root)
    stage_file(root, "docs/x.md", "outside\n")
    tip = git(root, "rev-parse", "refs/notes/correx")
    fill(small_fs, leave_kib=0)
    click = run_correx(root, "assess", "write", "docs/x.md")
    fast = run_correx(root, "hook", "run", "pre-commit")
    script = installed_hook(root)
    agent = agent_write(root, "docs/x.md")
    for result in (click, fast, script):
        assert result.code == 3, result
        assert "no space left on device" in "\n".join(error_lines(result.stderr)), result
        assert "Traceback" not in result.stderr
    assert error_lines(click.stderr)[1:] == error_lines(fast.stderr)[1:] \
        == error_lines(script.stderr)[1:]  # the same hint; the path is the file each wrote
    assert agent.code == 2 and "(as a command this would exit 3)" in agent.stderr, agent
    assert "no space left on device" in agent.stderr and "Traceback" not in agent.stderr
    assert git(root, "rev-parse", "refs/notes/correx") == tip
