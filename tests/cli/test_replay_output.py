"""`git correx replay --json` prints exactly what it printed before it was made fast.

The expected bytes (tests/cli/fixtures/replay_golden/) were printed by the replay that read
every note with libgit2 and every envelope through the pydantic model, on the ledger
`build_ledger` makes: events in tree notes and in a session's note (most in both), a
levelled note (`git/note_levels.py`), a foreign `git notes append` line (the blank line git
puts before it is no problem: model/note_lines.py), malformed lines, envelopes pydantic's
lax mode coerces (`"v": "1"`,
`"seq": 2.0`) or refuses (no host, NaN, a bool), an unknown version and kind, an edited
line, a duplicate key, a lone surrogate. Everything in it is fixed (clock, provenance,
files), so the same bytes come back on any machine.

Regenerate (only when the output is meant to change), with the program whose output is right:
`REPLAY_GOLDEN_FROM=/path/to/git-correx python -m pytest tests/cli/test_replay_output.py`.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from gitcorrex.cli.replay_cmd import ROWS_PER_WRITE
from gitcorrex.ledger import append_events
from tests.conftest import CliResult, git, in_process
from tests.ledger_facts import T0, note_line, provenance, raw_draft, verification_draft

GOLDEN = Path(__file__).parent / "fixtures" / "replay_golden"
SESSION = "s-golden"
KIND = "workspace_verification_observed"


def build_ledger(root: Path) -> None:
    """The fixed ledger in the repository at `root` (files committed, no ledger yet)."""
    trees = [_tree(root, i) for i in range(4)]
    repo = in_process(root)
    drafts = [verification_draft(repo, tree, session=SESSION) for tree in trees[1:]]
    append_events(repo, drafts, now=T0, provenance=provenance())  # same instant: by id
    fields = verification_draft(repo, trees[1], "pass").payload.line_fields()
    note_line(root, trees[2], KIND, fields, seconds=3, step="a\ud800b")
    note_line(root, trees[2], "kind_from_the_future", {"anything": 1}, seconds=2)
    git(root, "notes", "--ref", "correx", "append", "-m", "looks good to me", trees[1])
    for raw in _odd_lines(root, trees[3]):
        git(root, "notes", "--ref", "correx", "append", "-m", raw, trees[3])
    for i in range(30):  # last (a `git notes` write joins levels): over two levels
        draft = verification_draft(repo, trees[0], "pass" if i % 3 else "fail",
                                   tail="ok " * 40, session=SESSION if i % 2 else None)
        append_events(repo, [draft], now=T0 + timedelta(seconds=i // 4), provenance=provenance())
    levels = git(root, "ls-tree", "-r", "--name-only", "refs/notes/correx").split()
    assert len([path for path in levels if path.replace("/", "") == trees[0]]) > 1


def _tree(root: Path, i: int) -> str:
    (root / "file.txt").write_text(f"state {i}\n")
    git(root, "add", "-A")
    return git(root, "write-tree").strip()


def _odd_lines(root: Path, tree: str) -> list[str]:
    """Lines another writer could leave: each one differs from a good line in one way."""
    good = git(root, "notes", "--ref", "correx", "show", tree).splitlines()[0]
    line = json.loads(good)
    actor = {k: v for k, v in line["actor"].items() if k != "host"}
    return [
        '{"v":1,"id":',
        good.replace('"v":1', '"v":"1"'),
        good.replace('"v":1', '"v":2'),
        good.replace('"v":1', '"v":true'),
        good.replace(f'"seq":{line["seq"]}', f'"seq":{line["seq"]}.0'),
        good.replace(f'"seq":{line["seq"]}', '"seq":NaN'),
        json.dumps({**line, "actor": actor}, sort_keys=True, separators=(",", ":")),
        json.dumps({**line, "actor": {**line["actor"], "newer": 1}}, sort_keys=True,
                   separators=(",", ":")),
        good.replace('"result":"pass"', '"result":"fail"'),
        good.replace('{"actor"', '{"at":"1999-01-01T00:00:00.000000Z","actor"'),
        good.replace(",", ", "),
        "[1, 2]",
    ]


def replay_outputs(root: Path, correx: Callable[..., CliResult]) -> dict[str, str]:
    """What each replay printed on the ledger in `root`: file name → its expected text."""
    found = {}
    for name, args in (("all.json", ()), ("session.json", ("--session", SESSION))):
        result = correx(root, "replay", "--json", *args)
        assert result.code == 0, result
        found[name] = result.stdout
    text = correx(root, "replay")
    assert text.code == 0, text
    found["text.txt"] = text.stdout + "--- stderr ---\n" + text.stderr
    return found


def test_replay_prints_the_bytes_it_printed_before(
    make_repo: Callable[..., Path], correx: Callable[..., CliResult]
) -> None:
    root = make_repo()
    build_ledger(root)
    printed = replay_outputs(root, _writer_of_golden() or correx)
    if _writer_of_golden():
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for name, text in printed.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in printed.items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name


def _writer_of_golden() -> Callable[..., CliResult] | None:
    """`REPLAY_GOLDEN_FROM=<git-correx>`: write the expected bytes with that program."""
    program = os.environ.get("REPLAY_GOLDEN_FROM")
    if not program:
        return None

    def run(cwd: Path, *args: str) -> CliResult:
        proc = subprocess.run([program, *args], cwd=cwd, capture_output=True, check=False)
        return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                         proc.stderr.decode("utf-8", "replace"))

    return run


def test_replay_json_prints_every_event_once_across_its_writes(
    make_repo: Callable[..., Path], correx: Callable[..., CliResult]
) -> None:
    """More events than one write holds (`ROWS_PER_WRITE`): still one JSON document with
    each stored line once, in time order."""
    root = make_repo()
    trees = [_tree(root, i) for i in range(3)]
    repo = in_process(root)
    fields = verification_draft(repo, trees[0]).payload.line_fields()
    drafts = [raw_draft(KIND, (trees[i % 3],), {**fields, "changed_paths_omitted": i},
                        session=SESSION if i % 2 else None, state_key=trees[i % 3])
              for i in range(ROWS_PER_WRITE * 2 + 1)]
    written = append_events(repo, drafts, now=T0, provenance=provenance())
    result = correx(root, "replay", "--json")
    assert result.code == 0, result
    events = json.loads(result.stdout)["events"]
    assert [event["id"] for event in events] == sorted(event.id for event in written)


def test_a_note_blob_missing_from_the_object_store_is_unavailable(
    make_repo: Callable[..., Path], correx: Callable[..., CliResult]
) -> None:
    """A ledger whose note blob is gone (a damaged clone) is exit 3 naming the blob, never
    a replay that silently lacks the note's events."""
    root = make_repo()
    tree = _tree(root, 0)
    append_events(in_process(root), [verification_draft(in_process(root), tree)], now=T0,
                  provenance=provenance())
    (blob,) = [line.split()[2] for line in git(root, "ls-tree", "-r", "refs/notes/correx")
               .splitlines() if line.split("\t")[1].replace("/", "") == tree]
    (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    result = correx(root, "replay", "--json")
    assert result.code == 3, result
    assert blob in result.stderr and result.stdout == ""
