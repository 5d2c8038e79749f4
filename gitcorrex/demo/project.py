"""The demo's small project: a calculator with a bug, its tests, and a profile."""

from __future__ import annotations

PROFILE = """\
version = 1

[commands]
build = "python3 -m compileall -q src"
test = { run = "python3 -m unittest discover -s tests -q", timeout = "2m", requires = ["tests"] }

[expectations]
test = ["build", "test"]
docs = []

[defaults]
expectation = "test"

[stages.implement]
build_expectation = "test"
writes = ["/src/**", "/tests/**"]
"""

BUGGY_CALC = """\
def add(a, b):
    return a - b
"""

# Not the same size as the buggy file: Python trusts a cached .pyc whose source has the
# same size and mtime, and the demo edits the file within the second it was compiled.
FIXED_CALC = """\
def add(a, b):
    \"\"\"Sum of a and b.\"\"\"
    return a + b
"""

TESTS = """\
import sys
import unittest

sys.path.insert(0, "src")

from calc import add  # noqa: E402


class AddTest(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(add(2, 3), 5)


if __name__ == "__main__":
    unittest.main()
"""

FILES = {
    ".correx.toml": PROFILE,
    ".gitignore": "__pycache__/\n",
    "README.md": "# calc\n\nA tiny project for the git correx demo.\n",
    "src/calc.py": BUGGY_CALC,
    "tests/test_calc.py": TESTS,
}
