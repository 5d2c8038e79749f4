"""How far a reader walks to follow one command: the package files its calls pass through,
and how often the reader must climb back up to go down another branch.

Runs `git correx ARGS…` in this process (the package found on PYTHONPATH, so two checkouts
compare: `PYTHONPATH=/path/to/checkout python benchmarks/walk_files.py -- verify -q`) with a
profiler that records every function call made in a `gitcorrex/` file (module and class
bodies run by an import are not calls; every thread counts). From the calls it builds the
tree a reader follows: each file appears once, under the file whose function first called
into it (a thread's first call, or one made by a module body during an import, starts a
branch of its own).

- files: the files in that tree (what the reader opens);
- climbs: its leaves minus one: each time the reader reached a file that calls nothing new
  and had to go back up to an earlier file to continue (a straight chain of calls is 0).

Prints `files climbs` and, with `--tree`, the tree itself. The command runs for real, in the
current directory: point it at a scratch repository.
"""

from __future__ import annotations

import argparse
import sys
import threading
from inspect import CO_OPTIMIZED
from pathlib import Path
from types import FrameType
from typing import Any


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="store_true", help="print the tree of files")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="-- then git correx's arguments")
    options = parser.parse_args()
    args = [arg for arg in options.args if arg != "--"] if options.args[:1] == ["--"] else \
        options.args
    parents = trace(args)
    files, climbs = measure(parents)
    if options.tree:
        print_tree(parents)
    print(f"files {files} climbs {climbs}")
    return 0


def trace(args: list[str]) -> dict[str, str | None]:
    """file → the file whose call first reached it (None for the entry), in visit order."""
    import gitcorrex
    from gitcorrex.cli import boundary

    root = str(Path(gitcorrex.__file__).resolve().parent) + "/"
    parents: dict[str, str | None] = {}

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not frame.f_code.co_flags & CO_OPTIMIZED:
            return
        name = frame.f_code.co_filename
        if not name.startswith(root) or name[len(root):] in parents:
            return
        caller = frame.f_back
        while caller is not None and (not caller.f_code.co_filename.startswith(root)
                                      or not caller.f_code.co_flags & CO_OPTIMIZED):
            caller = caller.f_back
        parent = caller.f_code.co_filename[len(root):] if caller is not None else None
        parents[name[len(root):]] = parent

    boundary.exit_now = lambda code: None  # type: ignore[assignment]  # keep this process
    from gitcorrex.cli import main as run

    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        run(args)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    return parents


def measure(parents: dict[str, str | None]) -> tuple[int, int]:
    """(files, climbs) of the tree `parents` describes."""
    with_children = {parent for parent in parents.values() if parent is not None}
    leaves = [name for name in parents if name not in with_children]
    return len(parents), max(0, len(leaves) - 1)


def print_tree(parents: dict[str, str | None]) -> None:
    children: dict[str | None, list[str]] = {}
    for name, parent in parents.items():
        children.setdefault(parent, []).append(name)

    def show(name: str, depth: int) -> None:
        print("  " * depth + name)
        for child in children.get(name, []):
            show(child, depth + 1)

    for top in children.get(None, []):
        show(top, 0)


if __name__ == "__main__":
    sys.exit(main())
