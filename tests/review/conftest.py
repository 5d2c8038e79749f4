"""A committed project with the standard profile, as verify's tests build it: `show` reads
what `verify` recorded there. And `repo` (as everywhere: README.md committed) holds a
profile too: a pass counts only under the profile of the tree it verified, and the facts
these tests record are passes of that tree's own profile (tests/ledger_facts.py)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.ledger_facts import PROFILE
from tests.verify.conftest import project  # noqa: F401  (the fixture, registered here)


@pytest.fixture
def repo(make_repo: Callable[..., Path]) -> Path:
    """A repository with one commit holding README.md and `.correx.toml` (PROFILE)."""
    return make_repo(files={"README.md": "hello\n", ".correx.toml": PROFILE})
