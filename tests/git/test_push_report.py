"""Reading `git push --porcelain`: every wording git has for a lost race is one."""

from __future__ import annotations

import pytest

from gitcorrex.git.push_report import parse_push_report

LOST = ["[rejected] (non-fast-forward)", "[rejected] (fetch first)", "[rejected] (stale info)",
        "[rejected] (remote ref updated since checkout)", "[rejected] (already exists)",
        "[remote rejected] (failed to update ref)",
        "[remote rejected] (cannot lock ref 'refs/notes/correx': is at 1a but expected 2b)",
        "[remote rejected] (incorrect old value provided)", "[remote rejected] (failed to lock)",
        "[rejected] (atomic push failed)"]


@pytest.mark.parametrize("summary", LOST)
def test_a_lost_race_is_recognised_in_every_wording(summary: str) -> None:
    status = parse_push_report(f"To origin\n!\tabc:refs/notes/x\t{summary}\nDone\n")
    assert status["refs/notes/x"].is_lost_race


def test_a_declined_push_is_no_lost_race() -> None:
    status = parse_push_report("!\tabc:refs/notes/x\t[remote rejected] (hook declined)\n")
    assert not status["refs/notes/x"].is_lost_race
    assert not status["refs/notes/x"].is_accepted


def test_accepted_lines_and_deletions_are_read_by_destination() -> None:
    statuses = parse_push_report("*\tabc:refs/notes/a\t[new reference]\n"
                                 "-\t(delete):refs/notes/b\t[deleted]\n"
                                 " \tabc:refs/notes/c\t1a..2b\n")
    assert sorted(statuses) == ["refs/notes/a", "refs/notes/b", "refs/notes/c"]
    assert all(status.is_accepted for status in statuses.values())
