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
from gitcorrex.review.report_verifications import (
    ExpectationLine,
    earlier_text,
    expectation_lines,
)
from gitcorrex.review.tree_status import MARKS, actor_label

MAX_PATHS = 20
TAIL_LIMIT = 4000
MAX_BYTES = 1024 * 1024  # GitHub's limit for one step's job summary
PROBE_ORIGIN = "assess"  # a write asked about before it happens


def render_markdown(report: Report, *, max_bytes: int | None = MAX_BYTES) -> str:
    """The whole report, at most `max_bytes` bytes of UTF-8 (None: no limit); ends with a
    newline. Commits sharing a tree share its facts: they are listed once, under the oldest
    such commit shown. A run of commits with nothing recorded is one line. When the report
    does not fit, the oldest commits are left out (the head is what is judged; their
    statuses stay counted in the header) and a last paragraph says which."""
    units = report_units(report.commits)
    header = list(_header(report))
    cut = 0
    while True:
        text = _assemble(header, units[cut:], units[:cut], max_bytes)
        size = len(text.encode("utf-8"))
        if max_bytes is None or size <= max_bytes or cut == len(units):
            break
        cut = max(cut + 1, _first_fitting(units, cut, size - max_bytes))
    if max_bytes is not None and len(text.encode("utf-8")) > max_bytes:
        return _cut_bytes(text, max_bytes)
    return text


def report_units(commits: list[CommitFacts]) -> list[list[CommitFacts]]:
    """The commits in order, a run of consecutive commits with nothing recorded as one unit."""
    units: list[list[CommitFacts]] = []
    for facts in commits:
        if _is_blank(facts) and units and _is_blank(units[-1][0]):
            units[-1].append(facts)
        else:
            units.append([facts])
    return units


def _is_blank(facts: CommitFacts) -> bool:
    return facts.status.result == "none" and not (
        facts.verifications or facts.assessments or facts.groundings or facts.gates
        or facts.sessions or facts.integrity)


def _first_fitting(units: list[list[CommitFacts]], cut: int, excess: int) -> int:
    """How many units to leave out so that about `excess` more bytes go (sized alone)."""
    dropped = 0
    while cut < len(units) and dropped < excess:
        rows, section = _unit(units[cut], {})
        dropped += len("\n".join([*rows, *section]).encode("utf-8")) + 2
        cut += 1
    return cut


def _assemble(header: list[str], kept: list[list[CommitFacts]],
              left_out: list[list[CommitFacts]], max_bytes: int | None) -> str:
    rows: list[str] = []
    sections: list[str] = []
    first_with: dict[str, str] = {}
    for unit in kept:
        unit_rows, unit_section = _unit(unit, first_with)
        rows += unit_rows
        sections += unit_section
    lines = [*header, *rows, "", *sections]
    if left_out:
        lines += list(_left_out([f for unit in left_out for f in unit], max_bytes))
    return "\n".join(lines) + "\n"


def _unit(unit: list[CommitFacts], first_with: dict[str, str]) -> tuple[list[str], list[str]]:
    """(table rows, section lines) of one commit, or of a run of commits with nothing."""
    if len(unit) > 1:
        span = f"`{unit[0].commit.sha[:12]}`…`{unit[-1].commit.sha[:12]}`"
        return ([f"| {span} | {MARKS['none']} none | | | {len(unit)} commits with nothing "
                 "recorded |"],
                [f"{MARKS['none']} {span}: {len(unit)} commits with nothing recorded: "
                 "unverified.", ""])
    facts = unit[0]
    tree = facts.commit.tree
    if tree in first_with:
        return [_row(facts)], [_title(facts), "", f"Same tree as `{first_with[tree][:12]}`: "
                                                  "its facts are listed there.", ""]
    first_with[tree] = facts.commit.sha
    return [_row(facts)], list(_commit(facts))


def _left_out(facts: list[CommitFacts], max_bytes: int | None) -> Iterator[str]:
    counts = {result: sum(1 for f in facts if f.status.result == result)
              for result in ("pass", "fail", "unavailable", "other_profile", "none")}
    shown = ", ".join(f"{MARKS[r]} {n} {r}" for r, n in counts.items() if n)
    yield "---"
    yield ""
    yield (f"**Left out to stay within {max_bytes:,} bytes** (`--max-bytes`): the "
           f"{len(facts)} oldest commit(s) of the range, `{facts[0].commit.sha[:12]}`…"
           f"`{facts[-1].commit.sha[:12]}` ({shown}; counted in the totals above). "
           "`git correx log RANGE` lists them one line each; `--max-bytes 0` prints "
           "everything.")


def _cut_bytes(text: str, max_bytes: int) -> str:
    """The last resort when even the header does not fit: whole lines up to the limit."""
    marker = "\n(cut at --max-bytes)\n"
    room = max_bytes - len(marker.encode("utf-8"))
    kept = text.encode("utf-8")[:max(room, 0)].decode("utf-8", "ignore")
    return kept[:kept.rfind("\n") + 1].rstrip("\n") + marker if room > 0 else ""


def _header(report: Report) -> Iterator[str]:
    yield f"## git correx report: {markdown_text(' '.join(report.revisions), limit=200)}"
    yield ""
    if report.chosen is not None:
        yield f"_{markdown_text(report.chosen, limit=400)}._"
        yield ""
    counts = [f"{MARKS[r]} {report.count(r)} {r}" for r in ("pass", "fail", "unavailable")]
    other = report.count("other_profile")
    if other:
        counts.append(f"{MARKS['other_profile']} {other} pass under another profile")
    line = f"{len(report.commits)} commit(s): " + " · ".join(counts) + \
        f" · {MARKS['none']} {report.count('none')} unverified"
    marked = [facts.status.flaky.split(":")[0] for facts in report.commits
              if facts.status.flaky is not None]
    kinds = {label: marked.count(label) for label in dict.fromkeys(marked)}
    yield line + "".join(f" · ⚠ {n} {label}" for label, n in kinds.items())
    if report.problems:
        yield f"\n{len(report.problems)} ledger line(s) could not be read (see `git correx log`)."
    yield ""
    yield "| commit | status | expectation | by | subject |"
    yield "|---|---|---|---|---|"


def _row(facts: CommitFacts) -> str:
    status = facts.status
    flaky = f" ⚠ {status.flaky.split(':')[0]}" if status.flaky is not None else ""
    return (f"| `{facts.commit.sha[:12]}` | {status.mark} {status.result}{flaky} "
            f"| {markdown_text(status.expectation or status.problem or '')} "
            f"| {markdown_text(status.by or '')} "
            f"| {markdown_text(facts.commit.subject, limit=120)} |")


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
    label = {event.id: actor_label(event) for event in facts.verifications}
    for line in expectation_lines(facts.verifications, facts.profile, label):
        yield from _verification(line, facts.profile)
    for event in facts.assessments:
        yield "- manifest: " + _fact(event, AssessmentFields,
                                     partial(_assessment, probe=_is_probe(event)))
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


def _verification(line: ExpectationLine, profile: str | None) -> Iterator[str]:
    event, fields = line.event, line.fields
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
    notes = [markdown_text(note) for note in earlier_text(line)]
    yield text + "".join(f" ({note})" for note in notes)
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


def _is_probe(event: RecordedEvent) -> bool:
    """An `assess` outside a session: a write asked about before it happened. Its BLOCK
    means the write was prevented — the gate worked — never that the tree failed."""
    payload, _ = payload_or_problem(event)
    return isinstance(payload, AssessmentFields) and payload.origin == PROBE_ORIGIN \
        and event.session is None


def _assessment(fields: AssessmentFields, probe: bool = False) -> str:
    mark = "✓" if fields.verdict is Verdict.ALLOW else "✗"
    verdict = markdown_text(fields.verdict.value)
    if probe and fields.verdict is Verdict.BLOCK:
        mark, verdict = "⊘", "prevented (a probe outside a session, not a failure):"
    text = f"{mark} {verdict} {markdown_text(fields.rule.value)} " \
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
