"""The report as plain JSON-ready data: the same facts as the Markdown, unescaped."""

from __future__ import annotations

from gitcorrex.model.events import RecordedEvent
from gitcorrex.review.report import CommitFacts, Report


def report_as_dict(report: Report) -> dict[str, object]:
    """`{"revisions", "commits": [...], "problems"}` (and `"chosen"`, the sentence saying
    which range was taken, when none was given); events in full, newest first."""
    document: dict[str, object] = {
        "revisions": report.revisions,
        "commits": [_commit(facts) for facts in report.commits],
        "problems": [problem.as_dict() for problem in report.problems]}
    if report.chosen is not None:
        document["chosen"] = report.chosen
    return document


def _commit(facts: CommitFacts) -> dict[str, object]:
    return {"commit": facts.commit.sha, "tree": facts.commit.tree,
            "subject": facts.commit.subject, "status": facts.status.as_dict(),
            "verifications": _events(facts.verifications),
            "assessments": _events(facts.assessments),
            "groundings": _events(facts.groundings),
            "gates": _events(facts.gates),
            "test_integrity": _events(facts.integrity),
            "sessions": [outcome.as_dict() for outcome in facts.sessions]}


def _events(events: list[RecordedEvent]) -> list[dict[str, object]]:
    return [event.model_dump(mode="json") for event in events]
