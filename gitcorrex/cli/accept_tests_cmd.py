"""`git correx accept-tests`: a person accepts the test weakenings of the current state."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.session.test_integrity import Acceptance


@click.command("accept-tests")
@click.option("--reason", required=True, metavar="TEXT",
              help="Why the weakenings are right (recorded with your git identity).")
@click.option("--base", metavar="REV",
              help="Compare with REV's tree (e.g. the branch a pull request targets) instead "
                   "of the session's settled key, else HEAD.")
@click.option("--session", help="Session whose settled key is the baseline "
                                "(default: CORREX_SESSION, git config correx.session).")
@click.option("--dry-run", is_flag=True, help="List the findings; record nothing.")
@json_option
def accept_tests(reason: str, base: str | None, session: str | None, dry_run: bool,
                 as_json: bool) -> Conclusion:
    """Accept every test weakening of the workspace's current state: an operator decision.

    Scans the state against its baseline (removed or emptied tests, fewer assertions,
    trivially true assertions, skip/only markers, neutralised checks), records the findings
    and one `test_integrity_accepted` naming them, your identity and REASON. The Stop hook,
    the step settlement and `check --require-test-integrity` then let that exact state
    through. Exit 0 accepted (or nothing to accept), 2 no reason, no identity or bad REV.
    """
    from gitcorrex.clock import now_utc
    from gitcorrex.git import discover
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.session.test_integrity import accept_tests as accept

    repo = discover(start_dir())
    outcome = accept(repo, reason=reason, base=base, dry_run=dry_run, now=now_utc(),
                     session=session or os.environ.get("CORREX_SESSION") or None,
                     provenance=current_provenance(repo))
    if as_json:
        emit_json(_document(outcome, dry_run))
    else:
        click.echo(_text(outcome, reason), nl=False)
    return Conclusion.OK


def _document(outcome: Acceptance, dry_run: bool) -> dict[str, object]:
    scan = outcome.integrity.scan
    return {"state": scan.state, "baseline": scan.baseline, "dry_run": dry_run,
            "findings": [f.as_dict() for f in scan.findings],
            "open": [f.as_dict() for f in outcome.integrity.open],
            "event": outcome.event.model_dump(mode="json") if outcome.event else None}


def _text(outcome: Acceptance, reason: str) -> str:
    """Each finding, then what was recorded (escaped: paths and names come from outside)."""
    scan = outcome.integrity.scan
    lines = [finding.describe() for finding in scan.findings]
    if not scan.findings:
        lines.append(f"nothing to accept: no test weakening in state {scan.state[:12]} "
                     f"against {scan.baseline[:12]}")
    elif outcome.event is None:
        lines.append(f"dry run: {len(scan.findings)} finding(s) of state {scan.state[:12]}; "
                     "nothing recorded")
    else:
        lines.append(f"accepted {len(scan.findings)} finding(s) of state {scan.state[:12]} "
                     f"as {outcome.event.actor.name}: {reason.strip()}")
    return "".join(printable(line) + "\n" for line in lines)
