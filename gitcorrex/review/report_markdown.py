"""The report as GitHub-flavoured Markdown: a sticky PR comment or a CI job summary.

Every value read from the ledger or from git (subjects, paths, names, messages, output)
goes through `markdown_text` or `html_text`; only this module's own fixed markup is raw.
Failing output tails sit in collapsed `<details>` blocks as `<pre>` (raw HTML: Markdown
is not parsed there, and `<` is an entity, so a tail cannot close the block).
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcorrex.model.events import RecordedEvent
from gitcorrex.review.gate_lines import GATE_LINES
from gitcorrex.review.markdown_text import html_text, markdown_text
from gitcorrex.review.report import CommitFacts, Report, SessionOutcome
from gitcorrex.review.tree_status import MARKS, actor_label

MAX_PATHS = 20
TAIL_LIMIT = 4000


def render_markdown(report: Report) -> str:
    """The whole report; ends with a newline. Commits sharing a tree share its facts: they
    are listed once, under the oldest such commit of the range."""
    lines = list(_header(report))
    first_with: dict[str, str] = {}
    for facts in report.commits:
        tree = facts.commit.tree
        if tree in first_with:
            lines += [_title(facts), "", f"Same tree as `{first_with[tree][:12]}`: its facts "
                      "are listed there.", ""]
        else:
            first_with[tree] = facts.commit.sha
            lines += list(_commit(facts))
    return "\n".join(lines)


def _header(report: Report) -> Iterator[str]:
    yield f"## git correx report: {markdown_text(' '.join(report.revisions))}"
    yield ""
    counts = [f"{MARKS[r]} {report.count(r)} {r}" for r in ("pass", "fail", "unavailable")]
    yield f"{len(report.commits)} commit(s): " + " · ".join(counts) + \
        f" · {MARKS['none']} {report.count('none')} unverified"
    if report.problems:
        yield f"\n{len(report.problems)} ledger line(s) could not be read (see `git correx log`)."
    yield ""
    yield "| commit | status | expectation | by | subject |"
    yield "|---|---|---|---|---|"
    for facts in report.commits:
        status = facts.status
        yield (f"| `{facts.commit.sha[:12]}` | {status.mark} {status.result} "
               f"| {markdown_text(status.expectation or '')} "
               f"| {markdown_text(status.by or '')} "
               f"| {markdown_text(facts.commit.subject, limit=120)} |")
    yield ""


def _title(facts: CommitFacts) -> str:
    return f"### {facts.status.mark} `{facts.commit.sha[:12]}` " \
           f"{markdown_text(facts.commit.subject, limit=200)}"


def _commit(facts: CommitFacts) -> Iterator[str]:
    yield _title(facts)
    yield ""
    if not (facts.verifications or facts.assessments or facts.groundings or facts.gates
            or facts.sessions):
        yield f"Nothing recorded for tree `{facts.commit.tree[:12]}`: unverified."
        yield ""
        return
    for event, earlier in latest_per_expectation(facts.verifications):
        yield from _verification(event, earlier)
    for event in facts.assessments:
        yield "- manifest: " + _assessment(event)
    for event in facts.groundings:
        yield "- grounding: " + _grounding(event)
    for event in facts.gates:
        yield "- gate: " + markdown_text(GATE_LINES[event.kind](event))
    for outcome in facts.sessions:
        yield f"- session {markdown_text(outcome.session)}: " + _session(outcome)
    yield ""


def _session(outcome: SessionOutcome) -> str:
    """`completed (revision 9)` or `paused: controller_limit at step S2 (revision 7)`, escaped."""
    text = markdown_text(outcome.status)
    if outcome.pause_cause is not None:
        text += f": {markdown_text(outcome.pause_cause)}"
    if outcome.active_step is not None:
        text += f" at step {markdown_text(outcome.active_step)}"
    return text + f" (revision {outcome.revision})"


def latest_per_expectation(
        verifications: list[RecordedEvent]) -> list[tuple[RecordedEvent, int]]:
    """The newest observation of each expectation and how many older ones it supersedes:
    a pass is not followed by an older failure's output."""
    latest: dict[str, tuple[RecordedEvent, int]] = {}
    for event in verifications:  # newest first
        name = str(event.field("expectation"))
        found = latest.get(name)
        latest[name] = (event, 0) if found is None else (found[0], found[1] + 1)
    return list(latest.values())


def _verification(event: RecordedEvent, earlier: int = 0) -> Iterator[str]:
    result = str(event.field("result"))
    reason = event.field("reason")
    text = f"- {MARKS.get(result, '?')} verification {markdown_text(result)} " \
           f"**{markdown_text(str(event.field('expectation')))}** by " \
           f"{markdown_text(actor_label(event))} at {markdown_text(event.at)}"
    if reason:
        text += f" ({markdown_text(str(reason))})"
    if earlier:
        text += f" (latest of {earlier + 1} observations)"
    yield text
    failed = _stopping_command(event) if result != "pass" else None
    if failed is not None:
        yield from _details(failed)


def _stopping_command(event: RecordedEvent) -> dict[str, object] | None:
    commands = event.field("commands")
    if not isinstance(commands, list):
        return None
    ran = [c for c in commands if isinstance(c, dict) and c.get("stop_reason") != "skipped"]
    stopped = [c for c in ran if c.get("stop_reason") != "exit" or c.get("exit_code") != 0]
    return stopped[-1] if stopped else None


def _details(command: dict[str, object]) -> Iterator[str]:
    output = command.get("output")
    tail = str(output.get("tail", "")) if isinstance(output, dict) else ""
    how = f"exit {command.get('exit_code')}" if command.get("stop_reason") == "exit" \
        else str(command.get("stop_reason"))
    yield ""
    yield f"<details><summary>{html_text(str(command.get('name')))}: {html_text(how)} " \
          "(output tail)</summary>"
    yield ""
    yield "<pre>"
    yield html_text(tail[-TAIL_LIMIT:], keep_newlines=True).rstrip("\n")
    yield "</pre>"
    yield ""
    yield "</details>"
    yield ""


def _assessment(event: RecordedEvent) -> str:
    verdict = str(event.field("verdict"))
    mark = "✓" if verdict == "ALLOW" else "✗"
    text = f"{mark} {markdown_text(verdict)} {markdown_text(str(event.field('rule')))} " \
           f"({markdown_text(str(event.field('origin')))}, " \
           f"{markdown_text(str(event.field('action')))})"
    raw = event.field("paths")
    paths = [p for p in raw if isinstance(p, dict)] if isinstance(raw, list) else []
    blocked = [p for p in paths if p.get("rule") != "ALLOW"] or paths
    omitted = event.field("paths_omitted")
    more = len(blocked) - MAX_PATHS + (omitted if isinstance(omitted, int) else 0)
    shown = ", ".join(markdown_text(str(p.get("path"))) for p in blocked[:MAX_PATHS])
    return text + (f": {shown}" if shown else "") + (f" (+{more} more)" if more > 0 else "")


def _grounding(event: RecordedEvent) -> str:
    """`✓ plan **p** pass (3 assumption(s) checked, 0 not present)`."""
    raw = event.field("findings")
    findings = [f for f in raw if isinstance(f, dict)] if isinstance(raw, list) else []
    off = sum(1 for finding in findings if finding.get("status") != "present")
    verdict = str(event.field("verdict"))
    mark = "✓" if verdict == "pass" else "✗"
    return f"{mark} plan **{markdown_text(str(event.field('plan_id')))}** " \
           f"{markdown_text(verdict)} ({len(findings)} assumption(s) checked, " \
           f"{off} not present)"
