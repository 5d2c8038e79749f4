"""The loopback git server of the sharing tests is the one each test started, even when
tests run in parallel and another test's daemon holds the port it was about to take."""

from __future__ import annotations

from pathlib import Path

from tests.sync.conftest import GitServer, probe_repository, start_daemon


def test_a_port_another_daemon_holds_is_not_taken_for_ours(git_server: GitServer,
                                                          tmp_path: Path) -> None:
    base = tmp_path / "second"
    base.mkdir()
    assert start_daemon(base, git_server.port, probe_repository(base)) is None
