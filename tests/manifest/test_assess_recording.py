"""What `assess` records: one `tool_call_assessed` event per BLOCK, ALLOWs only on request."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.model.assessment import Rule, Verdict
from tests.conftest import write
from tests.git.state_helpers import reference_key
from tests.manifest.conftest import Correx, assessment, recorded


def test_a_block_is_recorded_once_on_the_current_state_key(project: Path,
                                                           correx: Correx) -> None:
    write(project, "src/app.py", "VALUE = 2\n")  # a dirty workspace: the key is not HEAD's
    result = correx(project, "assess", "write", "src/ok.py", "docs/x.md", "--stage",
                    "implement")
    assert result.code == 1, result
    (event,) = recorded(project)
    key = reference_key(project)
    assert (event.subjects, event.state_key, event.stage) == ([key], key, "implement")
    fields = assessment(event)
    assert (fields.origin, fields.action, fields.verdict, fields.rule) == (
        "assess", "write", Verdict.BLOCK, Rule.PATH_OUTSIDE_MANIFEST)
    assert (fields.manifest_source, fields.manifest) == ("stage 'implement'",
                                                         ["/src/**", "/tests/**"])
    assert [(p.path, p.change, p.rule) for p in fields.paths] == [
        ("src/ok.py", "write", Rule.ALLOW), ("docs/x.md", "write", Rule.PATH_OUTSIDE_MANIFEST)]
    assert (fields.paths_omitted, fields.commit) == (0, None)


def test_an_allow_is_not_recorded(project: Path, correx: Correx) -> None:
    assert correx(project, "assess", "write", "src/ok.py", "--stage", "implement").code == 0
    assert correx(project, "assess", "read", "README.md").code == 0
    assert recorded(project) == []


def test_an_allow_is_recorded_with_record_all(project: Path, correx: Correx) -> None:
    result = correx(project, "assess", "read", "README.md", "--record-all")
    assert result.code == 0, result
    (event,) = recorded(project)
    fields = assessment(event)
    assert (fields.action, fields.verdict, fields.rule) == ("read", Verdict.ALLOW, Rule.ALLOW)


def test_a_read_block_records_reference_exists(project: Path, correx: Correx) -> None:
    assert correx(project, "assess", "read", "nope.txt").code == 1
    (event,) = recorded(project)
    assert assessment(event).rule is Rule.REFERENCE_EXISTS


def test_session_gets_the_verdict_and_a_seq(project: Path, correx: Correx) -> None:
    for _ in range(2):
        assert correx(project, "assess", "write", "docs/x", "--stage", "implement",
                      "--session", "run-1").code == 1
    events = recorded(project)
    assert [(e.session, e.seq) for e in events] == [("run-1", 1), ("run-1", 2)]


def test_invalid_session_id_is_refused_before_anything(project: Path, correx: Correx) -> None:
    result = correx(project, "assess", "write", "docs/x", "--session", "no spaces")
    assert result.code == 2, result
    assert recorded(project) == []


def test_show_and_replay_describe_the_verdict(project: Path, correx: Correx) -> None:
    assert correx(project, "assess", "write", "src/a.py", "docs/x.md", "../out",
                  "--stage", "implement").code == 1
    line = correx(project, "replay").stdout.strip()
    assert "✗ BLOCK PATH_OUTSIDE_MANIFEST assess write docs/x.md (+2 more)" in line
    shown = correx(project, "show")
    assert "BLOCK PATH_OUTSIDE_MANIFEST assess write docs/x.md" in shown.stdout, shown
