"""Each clone publishes to its own writer ref; readers unite every writer ref and the shared one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.sync.test_sync import dirty_tree, event_ids

REF = "refs/notes/correx"
WRITERS = "refs/notes/correx-writers/"


def remote_refs(clone: Path) -> dict[str, str]:
    listed = git(clone, "ls-remote", "origin", "refs/notes/*").split("\n")
    return {ref: oid for oid, ref in (line.split("\t") for line in listed if line)}


def test_sync_pushes_to_this_clones_writer_ref_named_in_config(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    (one,) = shared_remote(1)
    git(one, "config", "correx.writer", "ci-runner-7")
    verify_tree(one, dirty_tree(one, "a.txt"))
    result = correx(one, "sync", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["writer"] == "ci-runner-7"
    assert report["refs_pushed"] == [WRITERS + "ci-runner-7", REF]
    assert report["rounds"] == report["attempts"] == 1
    local = git(one, "rev-parse", REF).strip()
    assert remote_refs(one) == {WRITERS + "ci-runner-7": local, REF: local}


def test_a_writer_id_is_made_once_and_kept(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    (one,) = shared_remote(1)
    assert correx(one, "sync").code == 0
    made = git(one, "config", "correx.writer").strip()
    assert made and made.split("-")[-1].isalnum() and len(made.split("-")[-1]) == 8
    verify_tree(one, dirty_tree(one, "a.txt"))
    assert json.loads(correx(one, "sync", "--json").stdout)["writer"] == made


def test_an_invalid_writer_id_is_a_configuration_error(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    (one,) = shared_remote(1)
    git(one, "config", "correx.writer", "../escape")
    result = correx(one, "sync")
    assert result.code == 2, result
    assert "correx.writer" in result.stderr


def test_a_reader_unites_writer_refs_the_shared_ref_lacks(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    one, two, reader = shared_remote(3)
    verify_tree(one, dirty_tree(one, "a.txt"), seconds=1)
    verify_tree(two, dirty_tree(two, "b.txt"), seconds=2)
    assert correx(one, "sync").code == 0
    assert correx(two, "sync").code == 0
    ones = WRITERS + git(one, "config", "correx.writer").strip()
    git(two, "push", "-q", "-f", "origin", f"{remote_refs(one)[ones]}:{REF}")  # shared lags
    result = correx(reader, "sync", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["outcome"] == "pulled" and report["events_gained"] == 2
    assert report["refs_fetched"] == 3
    assert event_ids(reader) == event_ids(one) | event_ids(two)


def test_a_clone_with_nothing_new_does_not_push_its_writer_ref(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    one, two = shared_remote(2)
    verify_tree(one, dirty_tree(one, "a.txt"))
    assert correx(one, "sync").code == 0
    result = correx(two, "sync", "--json")
    assert result.code == 0, result
    assert json.loads(result.stdout)["refs_pushed"] == []
    assert not any(ref.endswith(git(two, "config", "correx.writer").strip())
                   for ref in remote_refs(two))


def test_two_clones_sharing_a_writer_id_lose_nothing(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    one, two = shared_remote(2)
    for clone in (one, two):
        git(clone, "config", "correx.writer", "copied")
    verify_tree(one, dirty_tree(one, "a.txt"), seconds=1)
    verify_tree(two, dirty_tree(two, "b.txt"), seconds=2)
    assert correx(one, "sync").code == 0
    assert correx(two, "sync").code == 0
    assert correx(one, "sync").code == 0
    assert len(event_ids(one)) == 2 and event_ids(one) == event_ids(two)
