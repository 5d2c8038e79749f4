"""The routes are exactly the seed's five names, and a plan decision is accepted or one of them."""

from __future__ import annotations

from gitcorrex.model.plan_events import Decision
from gitcorrex.model.routes import Route, read_route


def test_routes_are_the_seeds_names() -> None:
    assert {r.value for r in Route} == {"reject", "replan-required", "split-required",
                                        "stop-escalate", "continue-fix"}


def test_a_decision_is_accepted_or_a_route() -> None:
    assert {d.value for d in Decision} - {"accepted"} == {r.value for r in Route}


def test_the_old_escalate_name_reads_as_stop_escalate() -> None:
    assert Route(read_route("escalate")) is Route.STOP_ESCALATE
    assert read_route("continue-fix") == "continue-fix"
