"""Fixtures the CLI's tests share: the agents' committed project (tests/agents/conftest.py),
for the agent hook's entry."""

from __future__ import annotations

from tests.agents.conftest import project  # noqa: F401  (a fixture, re-exported)
