"""The ledger against git itself: appends, and replay of large ledgers.

(a) N appends (default 1,000) over 100 trees: `append_events` in one process, each append
    its own compare-and-swap notes commit, against N `git notes --ref bench append -m LINE
    TREE` processes on the same trees writing same-sized lines. Limit: ratio <= 0.2.
    An extra row shows the same N events appended 100 drafts per call (one commit each).
(b) `git-correx replay --json` (a whole process) on ledgers of 10,000, 50,000 and 100,000
    events (10 events per tree, half of them also in a 100-event session, so most events
    sit in two notes). Limit: median <= 1 s at 100,000. `--against PROGRAM` times another
    build's `git-correx` (e.g. main's, installed in its own venv) interleaved with this one.

Wall-clock medians decide; CPU seconds (user + system, children included) are printed next
to them because a shared machine's load moves wall time, not CPU time. Prints Markdown
tables and exits 1 when a limit is missed. Usage:

    python benchmarks/bench_ledger.py [--events 1000] [--runs 3] [--sizes 10000,50000,100000]
        [--replay-only] [--against /path/to/other/git-correx]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import NamedTuple

from common import git, in_process, median
from raw_events import raw_draft

from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.canonical import canonical_json
from gitcorrex.model.verification import (
    CommandRecord,
    OutputEvidence,
    Result,
    StopReason,
    VerificationFields,
)

KIND = "workspace_verification_observed"
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
APPEND_LIMIT = 0.2
REPLAY_LIMIT = 1.0


class Timing(NamedTuple):
    wall: float
    cpu: float


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000, help="appends in part (a)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="10000,50000,100000", help="ledgers in part (b)")
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--replay-only", action="store_true", help="skip part (a)")
    parser.add_argument("--against", type=Path, default=None,
                        help="another git-correx, timed interleaved in part (b)")
    return parser.parse_args()


def timed(action: Callable[[], object]) -> Timing:
    """Wall and CPU seconds of `action`, this process and its children together."""
    before = _cpu()
    start = time.perf_counter()
    action()
    return Timing(time.perf_counter() - start, _cpu() - before)


def _cpu() -> float:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def middle(timings: list[Timing]) -> Timing:
    return Timing(median([t.wall for t in timings]), median([t.cpu for t in timings]))


def fresh_repo(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    git(path, "init", "-q")
    git(path, "config", "user.name", "Bench")
    git(path, "config", "user.email", "bench@example.invalid")
    return path


def make_trees(repo: Path, count: int) -> list[str]:
    """`count` distinct small trees in one `git mktree --batch` process."""
    hashed = subprocess.run(
        ["git", "hash-object", "-w", "--stdin-paths"],
        cwd=repo,
        check=True,
        capture_output=True,
        input="\n".join(_payloads(repo, count)).encode(),
    )
    batch = "".join(f"100644 blob {blob}\tfile\n\n" for blob in hashed.stdout.decode().split())
    out = subprocess.run(
        ["git", "mktree", "--batch"],
        cwd=repo,
        check=True,
        capture_output=True,
        input=batch.encode(),
    ).stdout
    return [line for line in out.decode().split() if line]


def _payloads(repo: Path, count: int) -> Iterator[str]:
    folder = repo / ".git" / "bench-payloads"
    folder.mkdir(exist_ok=True)
    for i in range(count):
        path = folder / f"{i}"
        path.write_text(f"state {i}\n")
        yield str(path)


def fields(i: int) -> dict[str, object]:
    """A real verification observation's fields (~900-byte lines), passing or failing by
    `i`: made through the payload class, so readers that type lines (`replay`, `show`)
    read every benchmark line as they would a recorded one, never as a line that does not
    fit its kind."""
    digest = format(i, "064x")
    output = OutputEvidence(size=84, sha256=digest, tail="passed " * 12, blob=None,
                            truncated=False)
    command = CommandRecord(name="test", argv=["python", "-m", "pytest", "-q"], digest=digest,
                            exit_code=i % 2, signal=None, stop_reason=StopReason.EXIT,
                            duration_ms=1000 + i % 997, output=output)
    return VerificationFields(
        expectation="test", result=Result.FAIL if i % 2 else Result.PASS, reason=None,
        missing_path=None, commands=[command], writes=["src/"], state_after=None,
        head_tree=None, changed_paths=[], changed_paths_omitted=0, profile="f" * 40,
        isolated=False, reused_from=None,
    ).model_dump(mode="json")


def draft(i: int, tree: str, session: str | None,
          fields_of: Callable[[int], dict[str, object]] = fields) -> EventDraft:
    return raw_draft(KIND, (tree,), fields_of(i), session=session, stage="build", state_key=tree)


def bench_appends(workdir: Path, count: int, runs: int) -> dict[str, Timing]:
    """Median timings of `count` appends three ways, each on a fresh ledger ref."""
    path = fresh_repo(workdir / "ledger-appends")
    trees = make_trees(path, 100)
    repo = in_process(path)
    provenance = current_provenance(repo)
    line = canonical_json({**fields(0), "pad": "x" * 420})  # about one ledger line

    def ours(per_call: int) -> None:
        for start in range(0, count, per_call):
            batch = [draft(i, trees[i % 100], None) for i in range(start, start + per_call)]
            now = T0 + timedelta(microseconds=time.time_ns() // 1000)
            append_events(repo, batch, now=now, provenance=provenance)

    def theirs() -> None:
        for i in range(count):
            git(path, "notes", "--ref", "bench", "append", "-m", f"{line} {i}", trees[i % 100])

    contenders = {"single": lambda: ours(1), "git": theirs, "batched": lambda: ours(100)}
    timings: dict[str, list[Timing]] = {name: [] for name in contenders}
    for _ in range(runs):
        for name, action in contenders.items():
            for ref in ("refs/notes/correx", "refs/notes/bench"):
                subprocess.run(["git", "update-ref", "-d", ref], cwd=path, check=False)
            timings[name].append(timed(action))
    return {name: middle(values) for name, values in timings.items()}


def build_ledger(workdir: Path, events: int, *, name: str = "ledger",
                 fields_of: Callable[[int], dict[str, object]] = fields) -> Path:
    """`events` events in batches of 1,000 drafts per notes commit (reused if present: a
    ledger of the older, untyped benchmark fields lacks the marker and is built anew);
    `fields_of(i)` gives the i-th observation's fields."""
    path = workdir / f"{name}-{events}"
    if (path / ".git" / "bench-ledger-typed").exists():
        return path
    fresh_repo(path)
    trees = make_trees(path, events // 10)
    repo = in_process(path)
    provenance = current_provenance(repo)
    for start in range(0, events, 1000):
        batch = [
            draft(i, trees[i // 10], f"s{i // 200}" if i % 2 == 0 else None, fields_of)
            for i in range(start, min(events, start + 1000))
        ]
        append_events(repo, batch, now=T0 + timedelta(seconds=start), provenance=provenance)
    (path / ".git" / "bench-ledger-typed").write_text("done\n")
    return path


def correx_command() -> list[str]:
    beside = Path(sys.executable).parent / "git-correx"
    script = str(beside) if beside.exists() else shutil.which("git-correx")
    return [script] if script else [sys.executable, "-m", "gitcorrex"]


def run_quietly(argv: list[str], cwd: Path) -> None:
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, check=True)


def bench_replay(workdir: Path, sizes: list[int], runs: int,
                 against: Path | None = None) -> dict[int, dict[str, Timing]]:
    """Median timings of `replay --json` and text `replay` per ledger size (1 warm-up);
    with `against`, that program's `replay --json` too ("other"), in the same rounds."""
    results = {}
    for size in sizes:
        repo = build_ledger(workdir.resolve(), size)
        commands = {
            "json": [*correx_command(), "replay", "--json"],
            "text": [*correx_command(), "replay"],
        }
        if against is not None:
            commands["other"] = [str(against), "replay", "--json"]
        timings: dict[str, list[Timing]] = {name: [] for name in commands}
        for argv in commands.values():
            run_quietly(argv, repo)
        for _ in range(runs):
            for name, argv in commands.items():
                timings[name].append(timed(lambda a=argv, r=repo: run_quietly(a, r)))
        results[size] = {name: middle(values) for name, values in timings.items()}
    return results


def report(
    args: argparse.Namespace, appends: dict[str, Timing] | None,
    replays: dict[int, dict[str, Timing]]
) -> bool:
    print(
        f"git {git(Path.cwd(), '--version').split()[-1]}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, median of {args.runs} runs, "
        f"load average {os.getloadavg()[0]:.1f} at the end\n"
    )
    replay_met = report_replays(replays)
    if appends is None:
        return replay_met
    n, base = args.events, appends["git"]
    print(f"| {n} appends | wall s | ms per append | ratio (wall) | CPU s | ratio (CPU) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, label in [
        ("single", "append_events, one CAS commit each"),
        ("git", "git notes append, one process each"),
        ("batched", "append_events, 100 drafts per commit"),
    ]:
        t = appends[name]
        print(
            f"| {label} | {t.wall:.2f} | {t.wall / n * 1000:.2f} | {t.wall / base.wall:.3f} "
            f"| {t.cpu:.2f} | {t.cpu / base.cpu:.3f} |"
        )
    ratio = appends["single"].wall / base.wall
    print(f"\nappend ratio {ratio:.3f} (limit {APPEND_LIMIT})")
    return ratio <= APPEND_LIMIT and replay_met


def report_replays(replays: dict[int, dict[str, Timing]]) -> bool:
    """The replay table; whether the largest ledger's `replay --json` met the limit."""
    print(
        "| ledger events | replay --json wall s | CPU s | µs per event | replay (text) wall s "
        "| CPU s | --against wall s | CPU s |\n|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    for size, t in replays.items():
        other = (f"{t['other'].wall:.2f} | {t['other'].cpu:.2f}" if "other" in t else "— | —")
        print(
            f"| {size:,} | {t['json'].wall:.2f} | {t['json'].cpu:.2f} | "
            f"{t['json'].wall / size * 1e6:.1f} | {t['text'].wall:.2f} | {t['text'].cpu:.2f} "
            f"| {other} |"
        )
    if not replays:  # --sizes '': appends only
        return True
    largest = max(replays)
    worst = replays[largest]["json"].wall
    print(f"\nreplay --json at {largest:,} events {worst:.2f} s (limit {REPLAY_LIMIT} s at "
          f"100,000)\n")
    return largest < 100_000 or worst <= REPLAY_LIMIT


def main() -> int:
    args = parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    appends = None if args.replay_only else bench_appends(args.workdir, args.events, args.runs)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    replays = bench_replay(args.workdir, sizes, args.runs, args.against)
    return 0 if report(args, appends, replays) else 1


if __name__ == "__main__":
    sys.exit(main())
