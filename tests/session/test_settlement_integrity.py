"""A step's settlement refuses a state that weakened the tests of the step's baseline (the
session's settled key), naming file, test and weakening in its `step_failed`, until a
person accepts the findings on that state or the tests are restored."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import CliResult, write
from tests.session.conftest import CHECK, PROFILE, lock_ready, status, step, steps_of

TEST = "from a import f\n\n\ndef test_f():\n    assert f() == 1\n    assert f() > 0\n"
WEAK = "from a import f\n\n\ndef test_f():\n    assert f() == 1\n"
SUITE_PROFILE = PROFILE.replace('writes = ["src/**"]\nmax_attempts = 2',
                                'writes = ["src/**", "tests/**"]\nmax_attempts = 5')
STEPS = [step("S1", ["src/a.py", "tests/test_a.py"]),
         step("S2", ["src/b.py", "tests/test_a.py"], deps=["S1"])]


def failed_event(correx: Callable[..., CliResult], root: Path, session: str) -> dict[str, Any]:
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    return [e for e in json.loads(replayed.stdout)["events"] if e["kind"] == "step_failed"][-1]


def test_a_weakened_test_fails_the_step_until_a_person_accepts_it(
        make_repo: Callable[..., Path], plans: Callable[..., Path],
        correx: Callable[..., CliResult]) -> None:
    assert "max_attempts = 5" in SUITE_PROFILE
    root = make_repo("suite", files={".correx.toml": SUITE_PROFILE, "check.py": CHECK,
                                     "src/__init__.py": "", "tests/test_a.py": TEST})
    locked = lock_ready(correx, root, plans("suite", STEPS, "suite"))
    assert locked.code == 0, locked
    session = locked.stdout.strip()
    assert correx(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "def f():\n    return 1\n")
    write(root, "tests/test_a.py", WEAK)

    refused = correx(root, "verify")
    assert refused.code == 1, refused
    assert "tests/test_a.py:4 test_f: assertions removed (2 → 1" in refused.stdout
    failed = failed_event(correx, root, session)
    assert (failed["part"], failed["rule"], failed["paths"]) == \
        ("test_integrity", "test_integrity_weakened", ["tests/test_a.py"])
    assert "test_f: assertions removed" in failed["feedback"]
    assert steps_of(status(correx, root, session))["S1"] == ("failed", 1)

    accepted = correx(root, "accept-tests", "--reason", "f() > 0 follows from f() == 1")
    assert accepted.code == 0, accepted
    passed = correx(root, "verify")
    assert passed.code == 0 and "step S1 verified" in passed.stdout, passed

    # S2 starts on S1's settled state: the accepted weakening is not S2's to answer for
    assert correx(root, "step", "start", "S2").code == 0
    write(root, "src/b.py", "B = 2\n")
    passed = correx(root, "verify")
    assert passed.code == 0 and "session completed" in passed.stdout, passed


def test_restoring_the_test_settles_the_step(make_repo: Callable[..., Path],
                                             plans: Callable[..., Path],
                                             correx: Callable[..., CliResult]) -> None:
    root = make_repo("suite", files={".correx.toml": SUITE_PROFILE, "check.py": CHECK,
                                     "src/__init__.py": "", "tests/test_a.py": TEST})
    assert lock_ready(correx, root, plans("suite", STEPS[:1], "suite")).code == 0
    assert correx(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "def f():\n    return 1\n")
    write(root, "tests/test_a.py", "def test_f():\n    pass\n")
    assert correx(root, "verify").code == 1
    write(root, "tests/test_a.py", TEST)
    passed = correx(root, "verify")
    assert passed.code == 0 and "session completed" in passed.stdout, passed
