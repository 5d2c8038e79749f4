"""A failed step's feedback is the failing check's output, bounded to its last 1,024
characters: the end of a long output is where the error is (docs/settlement.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, write
from tests.session.conftest import lock_ready, step

PROFILE = """\
version = 1

[commands]
test = "python3 check.py"

[expectations]
test = ["test"]

[stages.implement]
build_expectation = "test"
writes = ["src/**"]
max_attempts = 3
"""

# 2,000 characters of progress before the one line that says what failed
CHECK = """\
import pathlib
import sys

for number in range(40):
    print(f"progress {number:02d}: " + "." * 38)
if "BUG" in pathlib.Path("src/a.py").read_text():
    print("FAILED: src/a.py has a bug")
    sys.exit(1)
"""


def test_a_long_failing_output_is_recorded_as_feedback_with_its_tail(
        make_repo: Callable[..., Path], plans, correx: Callable[..., CliResult]) -> None:
    root = make_repo("long", files={".correx.toml": PROFILE, "check.py": CHECK,
                                    "src/a.py": "A = 1\n"})
    locked = lock_ready(correx, root, plans("one", [step("S1", ["src/a.py"])], "one"))
    assert locked.code == 0, locked
    session = locked.stdout.strip()
    assert correx(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert correx(root, "verify").code == 1
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    [failed] = [e for e in json.loads(replayed.stdout)["events"] if e["kind"] == "step_failed"]
    feedback = failed["feedback"]
    assert len(feedback) == 1024
    assert feedback.startswith("…") and feedback.endswith("FAILED: src/a.py has a bug\n")
    assert "progress 00" not in feedback
