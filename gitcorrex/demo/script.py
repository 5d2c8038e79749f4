"""The demo itself: real `git correx` processes on a real repository, narrated.

It runs the same commands a user would type (as subprocesses of this interpreter), so what
it prints is exactly what the tool prints.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from gitcorrex.demo.project import FILES, FIXED_CALC
from gitcorrex.git import commit_all, create_repository
from gitcorrex.model.conclusion import Conclusion

Say = Callable[[str], None]


def run_demo(workdir: Path, *, say: Say) -> Conclusion:
    """Build the project in `workdir`, verify it failing then passing, show and replay."""
    repo = workdir / "calc"
    repo.mkdir(parents=True)
    create_repository(repo)
    for rel, text in FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    commit_all(repo, "calc with a bug")
    say(f"A throwaway repository with a small project and a profile: {repo}\n")
    steps: list[tuple[str, list[str], set[int]]] = [
        ("The state key is the tree `git add -A && git write-tree` would record:",
         ["state", "--json"], {0}),
        ("Verify runs the profile's commands and records the result on that tree "
         "(the bug makes it fail):", ["verify"], {1}),
    ]
    if not _run_steps(repo, steps, say):
        return Conclusion.CHECK_FAILED
    (repo / "src" / "calc.py").write_text(FIXED_CALC)
    say("Fix the bug (uncommitted: a dirty workspace has its own state key) and verify "
        "again:")
    steps = [("", ["verify"], {0}),
             ("`show` lists what is known about the current state:", ["show"], {0}),
             ("`replay` rebuilds the history from the ledger alone "
              "(refs/notes/correx), running nothing:", ["replay"], {0})]
    return Conclusion.OK if _run_steps(repo, steps, say) else Conclusion.CHECK_FAILED


def _run_steps(repo: Path, steps: list[tuple[str, list[str], set[int]]], say: Say) -> bool:
    for text, args, expected in steps:
        if text:
            say(text)
        say(f"$ git correx {' '.join(args)}")
        code = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=repo,
                              check=False).returncode
        say(f"(exit {code})\n")
        if code not in expected:
            say(f"demo: unexpected exit {code} from `git correx {' '.join(args)}`")
            return False
    return True
