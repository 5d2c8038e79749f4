"""The symbol cache: content-addressed per blob and extractor, an optimisation only.

Every test compares findings with and without the cache: the cache may change how much is
parsed (`stats.parsed`), never what grounding concludes.
"""

from __future__ import annotations

import json
from pathlib import Path

from gitcorrex.git.repository import discover
from gitcorrex.git.tree_objects import write_flat_tree
from gitcorrex.symbols.index_format import shard_of
from tests.conftest import git
from tests.plan.grounding.conftest import Ground, step

PLAN = step(symbols=["Client.send", "Engine.run", "Client.sned", "encode_frame"])
POINTER = Path(".git") / "correx" / "symbol-index"


def index_files(root: Path, index: str) -> dict[str, bytes]:
    """The blobs of an index tree, read with git itself."""
    files = {}
    for line in git(root, "ls-tree", index).splitlines():
        meta, name = line.split("\t")
        files[name] = git(root, "cat-file", "blob", meta.split()[2]).encode()
    return files


def point_at(root: Path, tree: str, files: dict[str, bytes]) -> str:
    """Store `files` as an index tree and make the local pointer name it for `tree`."""
    oid = write_flat_tree(discover(root), files)
    (root / POINTER).write_text(f"{tree} {oid}\n")
    return oid


def forget_ledger(root: Path) -> None:
    """Drop the ledger ref (its objects stay until gc): no recorded index to fall back on."""
    git(root, "update-ref", "-d", "refs/notes/correx")


def head_tree(root: Path) -> str:
    return git(root, "rev-parse", "HEAD^{tree}").strip()


def test_second_run_parses_no_blob(ground: Ground) -> None:
    cold = ground(PLAN)
    warm = ground(PLAN)
    assert cold.stats is not None and warm.stats is not None
    assert cold.stats.parsed == cold.stats.blobs > 5 and cold.stats.cache == "none"
    assert (warm.stats.parsed, warm.stats.reused, warm.stats.cache) == (0, cold.stats.blobs,
                                                                       "tree")
    assert warm.fields.index == cold.fields.index
    assert warm.fields.findings == cold.fields.findings


def test_new_state_parses_only_the_blobs_it_changed(ground: Ground, fixture_repo: Path) -> None:
    ground(PLAN)
    (fixture_repo / "src" / "client.py").write_text("class Client:\n    def sned(self):\n"
                                                    "        pass\n")
    (fixture_repo / "src" / "extra.go").write_text("package src\n\nfunc Extra() {}\n")
    outcome = ground(PLAN)
    assert outcome.stats is not None
    assert (outcome.stats.cache, outcome.stats.parsed) == ("base", 2)
    assert [f.status.value for f in outcome.fields.findings[:3]] == ["absent", "present",
                                                                     "present"]


def test_incremental_index_equals_a_cold_one(ground: Ground, fixture_repo: Path) -> None:
    ground(PLAN)
    (fixture_repo / "web" / "app.js").write_text("export function boot() {}\n")
    incremental = ground(PLAN)
    (fixture_repo / POINTER).unlink()
    forget_ledger(fixture_repo)
    cold = ground(PLAN)
    assert cold.stats is not None and cold.stats.cache == "none"
    assert incremental.fields.index == cold.fields.index
    assert incremental.fields.findings == cold.fields.findings


def test_garbage_pointer_falls_back_to_the_ledger(ground: Ground, fixture_repo: Path) -> None:
    cold = ground(PLAN)
    (fixture_repo / POINTER).write_text("not an object id\n")
    outcome = ground(PLAN)
    assert outcome.stats is not None
    assert (outcome.stats.cache, outcome.stats.parsed, outcome.stats.cache_problems) == (
        "ledger", 0, 1)
    assert outcome.fields.findings == cold.fields.findings


def test_garbage_pointer_without_ledger_rebuilds_the_index(ground: Ground,
                                                            fixture_repo: Path) -> None:
    cold = ground(PLAN)
    (fixture_repo / POINTER).write_text("not an object id\n")
    forget_ledger(fixture_repo)
    rebuilt = ground(PLAN)
    assert rebuilt.stats is not None
    assert (rebuilt.stats.cache, rebuilt.stats.parsed) == ("none", rebuilt.stats.blobs)
    assert rebuilt.fields.findings == cold.fields.findings
    assert rebuilt.fields.index == cold.fields.index


def test_pointer_to_a_missing_object_is_rebuilt(ground: Ground, fixture_repo: Path) -> None:
    cold = ground(PLAN)
    (fixture_repo / POINTER).write_text(f"{head_tree(fixture_repo)} {'0' * 40}\n")
    forget_ledger(fixture_repo)
    rebuilt = ground(PLAN)
    assert rebuilt.stats is not None and rebuilt.stats.parsed == rebuilt.stats.blobs
    assert rebuilt.stats.cache_problems >= 1
    assert rebuilt.fields.findings == cold.fields.findings


def test_corrupt_shard_of_this_tree_is_rebuilt(ground: Ground, fixture_repo: Path) -> None:
    cold = ground(PLAN)
    assert cold.fields.index is not None
    files = index_files(fixture_repo, cold.fields.index)
    files[shard_of("n", "Client.send")] = b"{not json"
    point_at(fixture_repo, head_tree(fixture_repo), files)
    outcome = ground(PLAN)
    assert outcome.stats is not None and outcome.stats.cache_problems >= 1
    assert outcome.stats.parsed == outcome.stats.blobs
    assert outcome.fields.findings == cold.fields.findings
    assert outcome.fields.index == cold.fields.index


def test_corrupt_base_is_never_used_in_part(ground: Ground, fixture_repo: Path) -> None:
    cold = ground(PLAN)
    assert cold.fields.index is not None
    files = index_files(fixture_repo, cold.fields.index)
    files[shard_of("n", "Engine.run")] = b'{"Engine.run": "not a list"}'
    point_at(fixture_repo, head_tree(fixture_repo), files)
    forget_ledger(fixture_repo)
    (fixture_repo / "src" / "extra.go").write_text("package src\n\nfunc Extra() {}\n")
    outcome = ground(PLAN)
    assert outcome.stats is not None
    assert (outcome.stats.cache, outcome.stats.parsed) == ("none", outcome.stats.blobs)
    assert outcome.fields.findings == cold.fields.findings


def test_index_of_another_extractor_version_is_never_used(ground: Ground,
                                                          fixture_repo: Path) -> None:
    cold = ground(PLAN)
    assert cold.fields.index is not None
    files = index_files(fixture_repo, cold.fields.index)
    meta = json.loads(files["meta"])
    meta["extractors"] = {lang: version + "-old" for lang, version in
                          meta["extractors"].items()}
    files["meta"] = json.dumps(meta).encode()
    files[shard_of("n", "Client.send")] = b'{"Client.send": ["elsewhere.py"]}'
    point_at(fixture_repo, head_tree(fixture_repo), files)
    forget_ledger(fixture_repo)
    outcome = ground(PLAN)
    assert outcome.stats is not None and outcome.stats.parsed == outcome.stats.blobs
    assert outcome.fields.findings == cold.fields.findings


def test_parallel_parsing_builds_the_same_index(ground: Ground, fixture_repo: Path) -> None:
    serial = ground(PLAN, workers=1)
    (fixture_repo / POINTER).unlink()
    forget_ledger(fixture_repo)
    parallel = ground(PLAN, workers=2)
    assert parallel.stats is not None and parallel.stats.parsed == parallel.stats.blobs
    assert parallel.fields.index == serial.fields.index
    assert parallel.fields.findings == serial.fields.findings
