"""Shared benchmark helpers: a large generated repository and fair whole-process timing.

Every benchmark compares whole processes (interpreter start-up included), because that is
what a hook or an orchestrator pays. Commands are run round-robin after one warm-up each,
so disk-cache and CPU-frequency noise hits every command alike.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FILES_PER_DIR = 100
IDENTITY = ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid"]
MARKER = "correx-bench.json"


def git(cwd: Path, *args: str) -> str:
    """Run git quietly; raise with its stderr when it fails."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode()


def make_large_repo(
    path: Path, files: int = 50_000, modified: int = 100, untracked: int = 100
) -> Path:
    """A committed repository of `files` small files, then `modified` edits and
    `untracked` new files. Reused as is when a previous run built the same shape."""
    shape = {"files": files, "modified": modified, "untracked": untracked}
    marker = path / ".git" / MARKER
    if marker.exists() and json.loads(marker.read_text()) == shape:
        return path
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    git(path, "init", "-q")
    for i in range(files):
        _write(path / _rel(i), f"file {i}\n" + "payload line\n" * (i % 7))
    git(path, "add", "-A")
    git(path, *IDENTITY, "commit", "-q", "--no-verify", "-m", "generated")
    for i in range(0, files, max(1, files // max(1, modified)))[:modified]:
        with open(path / _rel(i), "a") as handle:
            handle.write("modified\n")
    for i in range(untracked):
        _write(path / "untracked" / f"new{i:05d}.txt", f"untracked {i}\n")
    marker.write_text(json.dumps(shape))
    return path


def _rel(i: int) -> str:
    """Two directory levels, ~100 files per directory, like a real source tree."""
    d = i // FILES_PER_DIR
    return f"src/d{d // 100:03d}/d{d % 100:02d}/f{i:06d}.txt"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def time_commands(
    commands: Mapping[str, Sequence[str] | str], runs: int, cwd: Path
) -> dict[str, list[float]]:
    """Wall-clock seconds per run of each command (a str runs under bash), round-robin."""
    for command in commands.values():
        _run_once(command, cwd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(_run_once(command, cwd))
    return times


def time_commands_cpu(
    commands: Mapping[str, Sequence[str] | str], runs: int, cwd: Path,
    setup: Mapping[str, Sequence[str] | str] | None = None,
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Like `time_commands`, plus each run's CPU seconds (user + system, children
    included): on a shared, loaded machine CPU time moves far less than wall time.
    `setup[name]` runs, untimed, before every run of `commands[name]` (an append before
    "the first read after an append")."""
    setup = setup or {}
    for name, command in commands.items():
        if name in setup:
            _run_once(setup[name], cwd)
        _run_once(command, cwd)
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            if name in setup:
                _run_once(setup[name], cwd)
            before = _children_cpu()
            wall[name].append(_run_once(command, cwd))
            cpu[name].append(_children_cpu() - before)
    return wall, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    """The machine's 1/5/15-minute load, printed with every result (others share it)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def cpu_table(cpu: Mapping[str, Sequence[float]]) -> str:
    """Median CPU ms per command (user + system of the whole process tree)."""
    lines = ["| command | median CPU ms | min | max |", "|---|---:|---:|---:|"]
    for name, values in cpu.items():
        lines.append(f"| {name} | {median(values) * 1000:.1f} | {min(values) * 1000:.1f} "
                     f"| {max(values) * 1000:.1f} |")
    return "\n".join(lines)


def _run_once(command: Sequence[str] | str, cwd: Path) -> float:
    """One whole process; a failure aborts the benchmark rather than timing an error."""
    argv = ["bash", "-c", command] if isinstance(command, str) else list(command)
    start = time.perf_counter()
    proc = subprocess.run(
        argv,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
        env=os.environ.copy(),
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{argv} exited {proc.returncode}: {proc.stderr.decode()}")
    return elapsed


def median(values: Sequence[float]) -> float:
    """The median, which one slow outlier run cannot move."""
    return statistics.median(values)


def markdown_table(times: Mapping[str, Sequence[float]], baseline: str) -> str:
    """Medians (and min/max) in ms with each command's ratio to `baseline`'s median."""
    base = median(times[baseline])
    lines = ["| command | median ms | min ms | max ms | ratio |", "|---|---:|---:|---:|---:|"]
    for name, values in times.items():
        lines.append(
            f"| {name} | {median(values) * 1000:.1f} | {min(values) * 1000:.1f} "
            f"| {max(values) * 1000:.1f} | {median(values) / base:.2f} |"
        )
    return "\n".join(lines)


def correx_script() -> list[str]:
    """The console script pip installed next to this interpreter (a PATH lookup may find
    a version-manager shim such as pyenv's, which adds its own start-up); else `-m`."""
    beside = Path(sys.executable).parent / "git-correx"
    script = str(beside) if beside.exists() else shutil.which("git-correx")
    return [script] if script else [sys.executable, "-m", "gitcorrex"]


def standard_args(doc: str, max_ratio: float) -> argparse.ArgumentParser:
    """--runs, --files, --workdir and --max-ratio, shared by the whole-process benchmarks."""
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--max-ratio", type=float, default=max_ratio)
    return parser


def git_version() -> str:
    """`git --version` without its prefix, for the benchmark headers."""
    out = subprocess.run(["git", "--version"], capture_output=True, check=True).stdout
    return out.decode().removeprefix("git version ").strip()


def in_process(start: Path) -> Any:
    """The repository git finds from `start`, with libgit2 opened on it (the in-process
    engine answers its notes operations), for fixtures built through the package."""
    from gitcorrex.git import discover

    repo = discover(start)
    repo.libgit2()
    return repo
