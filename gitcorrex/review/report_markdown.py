"""The report as GitHub-flavoured Markdown: a sticky PR comment or a CI job summary.

Every value read from the ledger or from git (subjects, paths, names, messages, output)
goes through `markdown_text` or `html_text`; only this module's own fixed markup is raw.
Failing output tails sit in collapsed `<details>` blocks as `<pre>` (raw HTML: Markdown
is not parsed there, and `<` is an entity, so a tail cannot close the block). Facts are
read through their payload classes; one whose fields do not fit is listed as `unfit_text`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TypeVar

from gitcorrex.model.assessment import AssessmentFields, Rule, Verdict
from gitcorrex.model.event_kinds import payload_or_problem
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.grounding import GroundingFields, Status
from gitcorrex.model.grounding import Verdict as PlanVerdict
from gitcorrex.model.observed_pass import is_under
from gitcorrex.model.payload_problem import unfit_text
from gitcorrex.model.record import EventPayload
from gitcorrex.model.verification import CommandRecord, Result, StopReason, VerificationFields
from gitcorrex.review.describe import reused_text
from gitcorrex.review.gate_lines import gate_line
from gitcorrex.review.integrity_lines import integrity_line
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
    other = report.count("other_profile")
    if other:
        counts.append(f"{MARKS['other_profile']} {other} pass under another profile")
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
               f"| {markdown_text(status.expectation or status.problem or '')} "
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
            or facts.sessions or facts.integrity):
        yield f"Nothing recorded for tree `{facts.commit.tree[:12]}`: unverified."
        yield ""
        return
    for event, fields, earlier in latest_per_expectation(facts.verifications, facts.profile):
        yield from _verification(event, fields, earlier, facts.profile)
    for event in facts.assessments:
        yield "- manifest: " + _fact(event, AssessmentFields, _assessment)
    for event in facts.groundings:
        yield "- grounding: " + _fact(event, GroundingFields, _grounding)
    for event in facts.gates:
        yield "- gate: " + _fact(event, EventPayload, lambda p: markdown_text(gate_line(p) or ""))
    for event in facts.integrity:
        yield "- test integrity: " + _fact(event, EventPayload,
                                           partial(integrity_line, by=actor_label(event)))
    for outcome in facts.sessions:
        yield f"- session {markdown_text(outcome.session)}: " + _session(outcome)
    yield ""


_P = TypeVar("_P", bound=EventPayload)


def _fact(event: RecordedEvent, kind: type[_P], render: Callable[[_P], str]) -> str:
    """`render` of the event's payload, or the escaped `unfit_text` when it does not fit."""
    payload, problem = payload_or_problem(event)
    if isinstance(payload, kind):
        return render(payload)
    return markdown_text(unfit_text(event.kind, problem or "unknown kind"))


def _session(outcome: SessionOutcome) -> str:
    """`completed (revision 9)` or `paused: controller_limit at step S2 (revision 7)`, escaped."""
    text = markdown_text(outcome.status)
    if outcome.pause_cause is not None:
        text += f": {markdown_text(outcome.pause_cause)}"
    if outcome.awaiting_review is not None:
        text += f", step {markdown_text(outcome.awaiting_review)} awaiting_review"
    elif outcome.active_step is not None:
        text += f" at step {markdown_text(outcome.active_step)}"
    return text + f" (revision {outcome.revision})"


def latest_per_expectation(verifications: list[RecordedEvent], profile: str | None
                           ) -> list[tuple[RecordedEvent, VerificationFields | str, int]]:
    """The newest observation of each expectation under the tree's `profile` (and,
    apart, under any other), its fields (or, when they do not fit, the problem: such a
    line is always listed) and how many older ones it supersedes: a pass is not followed
    by an older failure's output, and a pass under another profile hides nothing."""
    latest: dict[str, tuple[RecordedEvent, VerificationFields | str, int]] = {}
    for event in verifications:  # newest first
        payload, problem = payload_or_problem(event)
        if not isinstance(payload, VerificationFields):
            latest[f"\0{event.id}"] = (event, str(problem), 0)
            continue
        key = payload.expectation + ("" if is_under(payload, profile) else "\0other")
        found = latest.get(key)
        latest[key] = (event, payload, 0) if found is None \
            else (found[0], found[1], found[2] + 1)
    return list(latest.values())


def _verification(event: RecordedEvent, fields: VerificationFields | str,
                  earlier: int = 0, profile: str | None = None) -> Iterator[str]:
    if isinstance(fields, str):
        yield f"- {markdown_text(unfit_text(event.kind, fields))}"
        return
    mark, shown, other = _shown(fields, profile)
    text = f"- {mark} verification {markdown_text(shown)} " \
           f"**{markdown_text(fields.expectation)}** by " \
           f"{markdown_text(actor_label(event))} at {markdown_text(event.at)}"
    if fields.reason:
        text += f" ({markdown_text(fields.reason.value)})"
    text += markdown_text(reused_text(fields))
    if other:
        text += f" (ran profile `{fields.profile[:12]}`, the tree's is " \
                f"{f'`{profile[:12]}`' if profile else 'none'})"
    if earlier:
        text += f" (latest of {earlier + 1} observations)"
    yield text
    failed = _stopping_command(fields.commands) if fields.result is not Result.PASS else None
    if failed is not None:
        yield from _details(failed)


def _shown(fields: VerificationFields, profile: str | None) -> tuple[str, str, bool]:
    """(mark, result as shown, whether it ran another profile than the tree's): a pass
    under another profile is never ✓ (model/observed_pass.py)."""
    other = not is_under(fields, profile)
    if other and fields.result is Result.PASS:
        return MARKS["other_profile"], "pass under another profile", other
    return MARKS.get(fields.result.value, "?"), fields.result.value, other


def _stopping_command(commands: list[CommandRecord]) -> CommandRecord | None:
    ran = [c for c in commands if c.stop_reason is not StopReason.SKIPPED]
    stopped = [c for c in ran if c.stop_reason is not StopReason.EXIT or c.exit_code != 0]
    return stopped[-1] if stopped else None


def _details(command: CommandRecord) -> Iterator[str]:
    tail = command.output.tail if command.output is not None else ""
    how = f"exit {command.exit_code}" if command.stop_reason is StopReason.EXIT \
        else command.stop_reason.value
    yield ""
    yield f"<details><summary>{html_text(command.name)}: {html_text(how)} " \
          "(output tail)</summary>"
    yield ""
    yield "<pre>"
    yield html_text(tail[-TAIL_LIMIT:], keep_newlines=True).rstrip("\n")
    yield "</pre>"
    yield ""
    yield "</details>"
    yield ""


def _assessment(fields: AssessmentFields) -> str:
    mark = "✓" if fields.verdict is Verdict.ALLOW else "✗"
    text = f"{mark} {markdown_text(fields.verdict.value)} {markdown_text(fields.rule.value)} " \
           f"({markdown_text(fields.origin)}, {markdown_text(fields.action)})"
    blocked = [p for p in fields.paths if p.rule is not Rule.ALLOW] or fields.paths
    more = len(blocked) - MAX_PATHS + fields.paths_omitted
    shown = ", ".join(markdown_text(p.path) for p in blocked[:MAX_PATHS])
    return text + (f": {shown}" if shown else "") + (f" (+{more} more)" if more > 0 else "")


def _grounding(fields: GroundingFields) -> str:
    """`✓ plan **p** pass (3 assumption(s) checked, 0 not present)`."""
    off = sum(1 for finding in fields.findings if finding.status is not Status.PRESENT)
    mark = "✓" if fields.verdict is PlanVerdict.PASS else "✗"
    return f"{mark} plan **{markdown_text(fields.plan_id)}** " \
           f"{markdown_text(fields.verdict.value)} ({len(fields.findings)} assumption(s) " \
           f"checked, {off} not present)"
