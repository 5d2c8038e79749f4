"""The files a reader walks through to follow the commands that matter most, and how often
they climb back up (`walk_files.py`), for two checkouts side by side.

Builds one scratch project (a profile, a stage, a two-step plan locked as a session with
its first step started) with the current package, then runs each command of the table under
`walk_files.py` with PYTHONPATH naming each checkout in turn. Each command is also walked in
the other forms that may take another path (a verify's first run, `log --verify-signatures`,
the status of a session the ledger does not hold); "every path" counts the distinct files
of all of them: what a reader must learn to know the command.

    python benchmarks/bench_walks.py --before /path/to/old/checkout [--after .] [--workdir DIR]

A verify is walked twice in a new repository: the first run validates the profile, the
later ones read its stored selection (two different paths before the one-door change).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from common import IDENTITY, git

HERE = Path(__file__).resolve().parent
WHO = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
       "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid"}
PROFILE = """\
version = 1
[commands]
test = "python3 check.py"
[expectations]
test = ["test"]
[defaults]
expectation = "test"
[stages.implement]
build_expectation = "test"
writes = ["src/**"]
"""
CHECK = "import sys\nsys.exit(0)\n"


def plan_step(step_id: str, writes: list[str], deps: list[str]) -> dict[str, object]:
    return {"id": step_id, "stage": "implement", "writes": writes,
            "expected_outputs": [f"{step_id} works"], "checks": ["test"],
            "verification_map": [{"output": 0, "evidence": [{"check": 0}]}],
            "dependencies": [{"step": d, "requires": [0]} for d in deps]}


def correx(root: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """The current package's CLI (the one that builds the fixture)."""
    env = {**os.environ, **WHO, "PYTHONPATH": str(HERE.parent)}
    return subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=root, env=env,
                          input=stdin, capture_output=True, check=False)


def project(work: Path) -> Path:
    """A committed project; its session locked on a verified baseline, step S1 started."""
    root = work / "project"
    shutil.rmtree(work, ignore_errors=True)
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".correx.toml").write_text(PROFILE)
    (root / "check.py").write_text(CHECK)
    (root / "src").mkdir()
    (root / "src" / "__init__.py").write_text("")
    git(root, "add", "-A")
    git(root, *IDENTITY, "commit", "-q", "-m", "project")
    plan = work / "plan.json"
    plan.write_text(json.dumps({"version": 1, "id": "walk", "risk": "low", "steps": [
        plan_step("S1", ["src/a.py"], []), plan_step("S2", ["src/b.py"], ["S1"])]}))
    for args in (("plan", "authorize", str(plan)), ("plan", "validate", str(plan)),
                 ("plan", "ground", str(plan)), ("verify", "-q"),
                 ("plan", "lock", str(plan), "--session", "walk-1"), ("step", "start", "S1")):
        done = correx(root, *args)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)}: {done.stderr.decode()}")
    return root


def hook_payload(root: Path) -> bytes:
    return json.dumps({"session_id": "c1", "transcript_path": "/dev/null", "cwd": str(root),
                       "permission_mode": "default", "hook_event_name": "PreToolUse",
                       "tool_name": "Write", "tool_use_id": "t1",
                       "tool_input": {"file_path": str(root / "src" / "a.py"),
                                      "content": "A = 1\n"}}).encode()


Walk = tuple[str, set[str]]


def walk(checkout: Path, root: Path, args: list[str], stdin: bytes = b"") -> Walk:
    """(`files / climbs`, the files) of `git correx ARGS` run from `checkout`."""
    env = {**os.environ, **WHO, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, str(HERE / "walk_files.py"), "--tree", "--", *args],
                          cwd=root, env=env, input=stdin, capture_output=True, check=False)
    lines = done.stdout.decode().strip().splitlines()
    files = {line.strip() for line in lines if line.strip().endswith(".py")}
    last = lines[-1].split() if lines and lines[-1].startswith("files ") else ["", "?", "", "?"]
    return f"{last[1]} / {last[3]}", files


def rows(checkout: Path, work: Path) -> dict[str, Walk]:
    """command → its walk from `checkout`, each on a fresh copy of the project."""
    base = project(work / "base")
    found: dict[str, Walk] = {}
    fresh = work / f"fresh-{checkout.name}"
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.copytree(base, fresh, symlinks=True)
    git(fresh, "config", "--unset", "correx.session")
    shutil.rmtree(fresh / ".git" / "correx", ignore_errors=True)
    found["verify (first run: profile validated)"] = walk(checkout, fresh, ["verify", "-q"])
    found["verify (later runs)"] = walk(checkout, fresh, ["verify", "-q"])
    found["state"] = walk(checkout, fresh, ["state"])
    found["log"] = walk(checkout, fresh, ["log"])
    found["log --verify-signatures"] = walk(checkout, fresh, ["log", "--verify-signatures"])
    git(fresh, "config", "correx.stage", "implement")
    (fresh / "src" / "a.py").write_text("A = 1\n")
    git(fresh, "add", "src/a.py")
    found["pre-commit hook (a stage)"] = walk(checkout, fresh, ["hook", "run", "pre-commit"])
    found["agent call: PreToolUse Write (a stage)"] = walk(
        checkout, fresh, ["assess", "--hook", "claude-code"], hook_payload(fresh))
    found["session status (a session)"] = walk(checkout, base, ["session", "status"])
    found["session status (no such session)"] = walk(checkout, base,
                                                    ["session", "status", "nosuch"])
    found["agent call: PreToolUse Write (a session)"] = walk(
        checkout, base, ["assess", "--hook", "claude-code"], hook_payload(base))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the older checkout")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="default: this one")
    parser.add_argument("--workdir", type=Path, default=HERE / "work" / "walks")
    args = parser.parse_args()
    before = rows(args.before.resolve(), args.workdir)
    after = rows(args.after.resolve(), args.workdir)
    print("| command | before: files / climbs | after: files / climbs |")
    print("|---|---:|---:|")
    for name in after:
        print(f"| {name} | {before[name][0]} | {after[name][0]} |")
    print("\n| command, every path | before: distinct files | after: distinct files |")
    print("|---|---:|---:|")
    for command in ("verify", "log", "session status"):
        union = [len(set().union(*(files for name, (_, files) in walks.items()
                                   if name.startswith(command))))
                 for walks in (before, after)]
        print(f"| {command} | {union[0]} | {union[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
