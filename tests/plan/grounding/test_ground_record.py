"""The recorded fact, the command's exit codes and JSON, and the lock built on it."""

from __future__ import annotations

import json
from pathlib import Path

from gitcorrex.model.events import RecordedEvent, git_blob_oid
from gitcorrex.model.grounding import GroundingFields
from tests.conftest import git, run_correx
from tests.plan.grounding.conftest import Ground, after, step, write_plan

NOTES = "refs/notes/correx"


def recorded(root: Path, oid: str) -> list[RecordedEvent]:
    """Events in the note on `oid`, read with git itself."""
    text = git(root, "notes", "--ref", NOTES, "show", oid)
    return [RecordedEvent.model_validate_json(line) for line in text.splitlines() if line]


def test_event_is_recorded_on_the_state_tree_and_the_plan(ground: Ground,
                                                          fixture_repo: Path) -> None:
    outcome = ground(step(symbols=["Client.send"], references=["src/client.py"]))
    tree = git(fixture_repo, "rev-parse", "HEAD^{tree}").strip()
    plan_blob = outcome.fields.plan
    assert outcome.state_key == tree
    assert outcome.event.subjects == [tree, plan_blob]
    for subject in (tree, plan_blob):
        [event] = recorded(fixture_repo, subject)
        assert event.id == outcome.event.id
        assert (event.kind, event.state_key) == ("plan_grounding_evaluated", tree)
    fields = GroundingFields.model_validate(
        {k: v for k, v in outcome.event.model_dump(mode="json").items()
         if k in GroundingFields.model_fields})
    assert fields == outcome.fields
    assert fields.verdict.value == "pass"
    assert fields.index is not None and set(fields.extractors) >= {"python", "kotlin"}


def test_plan_blob_holds_the_canonical_plan(ground: Ground, fixture_repo: Path) -> None:
    outcome = ground(step())
    data = git(fixture_repo, "cat-file", "blob", outcome.fields.plan).encode()
    assert git_blob_oid(data) == outcome.fields.plan
    assert json.loads(data)["steps"][0]["id"] == "S1"


def test_symbol_index_is_anchored_and_survives_gc(ground: Ground, fixture_repo: Path) -> None:
    index = ground(step(symbols=["Client.send"])).fields.index
    assert index is not None
    anchor = git(fixture_repo, "rev-parse", f"{NOTES}:anchors/{index[:2]}/{index[2:]}")
    assert anchor.strip() == index
    (fixture_repo / ".git" / "correx" / "symbol-index").unlink()
    git(fixture_repo, "gc", "-q", "--prune=now")
    assert git(fixture_repo, "cat-file", "-t", index).strip() == "tree"
    shards = git(fixture_repo, "ls-tree", "--name-only", index).split()
    assert "meta" in shards and len(shards) > 1


def test_cli_exit_0_on_pass_with_text(fixture_repo: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "plans", [step(symbols=["Engine.run"])])
    result = run_correx(fixture_repo, "plan", "ground", str(plan))
    assert result.code == 0, result
    assert ": pass" in result.stdout.splitlines()[0]
    assert "symbol index:" in result.stdout


def test_cli_exit_1_with_actionable_findings(fixture_repo: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "plans", [step(symbols=["Client.sned"],
                                                writes=["/docs/x.md"])])
    result = run_correx(fixture_repo, "plan", "ground", str(plan))
    assert result.code == 1, result
    assert "return_to_architect" in result.stdout
    assert "candidates: src/client.py:Client.send" in result.stdout
    assert "write [S1] /docs/x.md: absent -> reject" in result.stdout


def test_cli_json_parses_back_through_the_model(fixture_repo: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "plans", [step(symbols=["legacy_hook"])])
    result = run_correx(fixture_repo, "plan", "ground", str(plan), "--json")
    assert result.code == 1, result
    document = json.loads(result.stdout)
    fields = GroundingFields.model_validate(
        {k: v for k, v in document.items() if k in GroundingFields.model_fields})
    assert fields.verdict.value == "clarification_required"
    assert document["index_stats"]["parsed"] == document["index_stats"]["blobs"] > 0
    assert document["event"]["id"] and document["state_key"] == document["event"]["state_key"]


def test_cli_exit_2_on_a_malformed_plan(fixture_repo: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('version = 1\nid = "x"\nrisk = "low"\n[[steps]]\nid = "S1"\n')
    result = run_correx(fixture_repo, "plan", "ground", str(bad))
    assert result.code == 2, result
    assert "stage" in result.stderr


def test_lock_accepts_a_pass_grounding_and_refuses_a_stale_one(fixture_repo: Path,
                                                              tmp_path: Path) -> None:
    plan = str(write_plan(tmp_path / "plans", [step("S1", writes=["/src/retry.py"]),
                                               step("S2", dependencies=after("S1"))]))
    for command in ("authorize", "validate", "ground"):
        result = run_correx(fixture_repo, "plan", command, plan)
        assert result.code == 0, result
    (fixture_repo / "src" / "new.py").write_text("x = 1\n")
    stale = run_correx(fixture_repo, "plan", "lock", plan)
    assert stale.code == 1 and "grounding_stale" in stale.stdout, stale
    assert run_correx(fixture_repo, "plan", "ground", plan).code == 0
    locked = run_correx(fixture_repo, "plan", "lock", plan, "--baseline-unverified",
                        "--reason", "grounding fixture: no build commands")
    assert locked.code == 0, locked


def test_non_utf8_paths_are_recorded_and_printed_escaped(fixture_repo: Path,
                                                         tmp_path: Path) -> None:
    (fixture_repo / "src").joinpath(b"r\xe9try.py".decode("utf-8", "surrogateescape")
                                    ).write_text("def retry():\n    pass\n")
    plan = write_plan(tmp_path / "plans", [step(references=["src/retry.py"],
                                                symbols=["retry"])])
    result = run_correx(fixture_repo, "plan", "ground", str(plan))
    assert result.code == 1, result
    assert "candidates: src/r\\xe9try.py" in result.stdout
    assert run_correx(fixture_repo, "replay").code == 0


def test_cli_exit_2_without_a_profile_and_nothing_recorded(fixture_repo: Path,
                                                            tmp_path: Path) -> None:
    (fixture_repo / ".correx.toml").unlink()
    plan = write_plan(tmp_path / "plans", [step()])
    result = run_correx(fixture_repo, "plan", "ground", str(plan))
    assert result.code == 2, result
    assert "git correx init" in result.stderr
    assert git(fixture_repo, "for-each-ref", "refs/notes/") == ""
