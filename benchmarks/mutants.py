"""The mutation run: plant each bug of planted_bugs.toml in a copy of the tree, run the tests
that must catch it, and print the score.

    . .venv/bin/activate
    python benchmarks/mutants.py                      # every bug (~15 minutes on 2 cores)
    python benchmarks/mutants.py --only ID --only ID  # some
    python benchmarks/mutants.py --markdown           # the table docs/testing.md shows
    python benchmarks/mutants.py --each               # every listed test must fail alone

The worktree is never touched: the tree is copied once into a temporary directory (without
.git, .venv and caches), each bug is planted in the copy and its file restored byte for
byte after the run. The tests run there as `python -m pytest -x -q NODE…` with PYTHONPATH
naming the copy, so every `git correx` process and installed hook they start imports the
planted code too. The copy is compiled once; a planted file's bytecode is removed before
its run (a stale .pyc with the same mtime and size would hide the plant) and rebuilt after.

Before planting anything the listed tests run once on the unplanted copy: a test that
fails there proves nothing. Verdicts: `killed` (a listed test failed; with `--each`, every
listed test, each run alone, failed), `survived` (all passed; with `--each`, one did),
`stale` (the snippet is not in its file exactly once: the code moved, the table must
follow), `error` (pytest could not run a listed node id). Exit 0 only when every bug is
killed.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import py_compile
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from planted_bugs import ROOT, PlantedBug, load_planted

IGNORED = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache",
                                 ".mypy_cache", ".ruff_cache", "*.egg-info", "build", "dist")
RUN_TIMEOUT_S = 1200
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?)(?:\[| - |$)", re.MULTILINE)


@dataclass(frozen=True)
class Verdict:
    """What planting `bug` did: its verdict, the first test that failed, how long it took."""

    bug: PlantedBug
    verdict: str
    killed_by: str
    seconds: float


def copy_tree(scratch: Path) -> Path:
    """The repository's files, compiled, in `scratch`/tree."""
    copy = scratch / "tree"
    shutil.copytree(ROOT, copy, ignore=IGNORED, symlinks=True)
    compileall.compile_dir(copy / "gitcorrex", quiet=1)
    return copy


def run_pytest(copy: Path, tests: Sequence[str], *, first_failure: bool) -> tuple[int, str]:
    """pytest's exit code and output for `tests` in `copy`; the process group is ended on
    timeout (exit -1) so no `git correx` process outlives the run."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(copy), os.environ.get("PYTHONPATH")]))}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            *(["-x"] if first_failure else []), *tests]
    with subprocess.Popen(argv, cwd=copy, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, start_new_session=True) as proc:
        try:
            out, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            return -1, out
    return proc.returncode, out


def plant_and_run(bug: PlantedBug, copy: Path, *, each: bool) -> Verdict:
    """Plant `bug` in `copy`, run its tests (together, or `each` alone), restore the file
    exactly."""
    if bug.occurrences(copy) != 1:
        return Verdict(bug, "stale", "", 0.0)
    path = copy / bug.file
    kept = path.read_bytes()
    started = time.monotonic()
    try:
        path.write_text(bug.planted_text(copy), encoding="utf-8")
        _drop_bytecode(path)
        runs = [_judged(copy, [test]) for test in bug.tests] if each else \
            [_judged(copy, bug.tests)]
    finally:
        path.write_bytes(kept)
        if path.suffix == ".py":  # a planted workflow or hook script has no bytecode
            _drop_bytecode(path)
            py_compile.compile(str(path), doraise=True)
    seconds = time.monotonic() - started
    worst = next((run for run in runs if run[0] != "killed"), None)
    if worst is not None:
        return Verdict(bug, worst[0], worst[1], seconds)
    return Verdict(bug, "killed", ", ".join(run[1] for run in runs), seconds)


def _judged(copy: Path, tests: Sequence[str]) -> tuple[str, str]:
    """(verdict, the first failing node id or what went wrong) for one pytest run."""
    code, out = run_pytest(copy, tests, first_failure=True)
    if code in (1, 2, -1):  # failed, collection error (the plant broke an import), timeout
        failed = _FAILED.search(out)
        return "killed", failed.group(1) if failed else f"exit {code}"
    if code == 0:
        return "survived", " ".join(tests)
    print(out[-3000:], file=sys.stderr)
    return "error", f"pytest exit {code}"


def _drop_bytecode(path: Path) -> None:
    Path(importlib.util.cache_from_source(str(path))).unlink(missing_ok=True)


def baseline(copy: Path, bugs: Sequence[PlantedBug]) -> bool:
    """Whether every listed test passes with nothing planted (else nothing is proven)."""
    tests = list(dict.fromkeys(test for bug in bugs for test in bug.tests))
    code, out = run_pytest(copy, tests, first_failure=False)
    if code != 0:
        print(out[-5000:], file=sys.stderr)
        print(f"the listed tests fail with nothing planted (pytest exit {code})",
              file=sys.stderr)
    return code == 0


def report(verdicts: Sequence[Verdict], *, markdown: bool) -> str:
    """The per-bug table and the score line."""
    killed = sum(v.verdict == "killed" for v in verdicts)
    score = f"{killed} of {len(verdicts)} planted bugs killed"
    if markdown:
        rows = [f"| `{v.bug.id}` | `{v.bug.file.removeprefix('gitcorrex/')}` | "
                f"{_cell(v.bug.description)} | {v.verdict}: {_node_names(v.killed_by)} |"
                for v in verdicts]
        return "\n".join(["| bug | file | what it breaks | killed by |", "|---|---|---|---|",
                          *rows, "", f"**{score}.**"])
    width = max(len(v.bug.id) for v in verdicts)
    rows = [f"{v.bug.id:<{width}}  {v.verdict:<8}  {v.seconds:6.1f} s  {v.killed_by}"
            for v in verdicts]
    return "\n".join([*rows, "", score])


def _cell(text: str) -> str:
    """Plain text made inert in a Markdown table cell (a `|` would end the cell)."""
    return "".join("\\" + char if char in "|*`<" else char for char in text)


def _node_names(node_ids: str) -> str:
    """`tests/a/test_b.py::test_c, …` as `` `test_b.py::test_c` ``, … for a table cell."""
    return ", ".join(f"`{node.rsplit('/', 1)[-1]}`" for node in node_ids.split(", ") if node)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="plant only this bug (repeatable)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--each", action="store_true",
                        help="run each listed test alone: every one must fail")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the run of the listed tests with nothing planted")
    args = parser.parse_args(argv)
    bugs = [b for b in load_planted() if not args.only or b.id in args.only]
    unknown = set(args.only) - {b.id for b in bugs}
    if unknown or not bugs:
        parser.error(f"no planted bug {', '.join(sorted(unknown)) or 'selected'}")
    with tempfile.TemporaryDirectory(prefix="correx-mutants-") as scratch:
        copy = copy_tree(Path(scratch))
        if not args.no_baseline and not baseline(copy, bugs):
            return 2
        verdicts = []
        for bug in bugs:
            verdicts.append(plant_and_run(bug, copy, each=args.each))
            done = verdicts[-1]
            print(f"{done.bug.id}: {done.verdict} ({done.seconds:.0f} s)", file=sys.stderr)
    print(report(verdicts, markdown=args.markdown))
    return 0 if all(v.verdict == "killed" for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
