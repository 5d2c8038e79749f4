"""`git correx explain`: a tree's verifications, their environments, and what reuse would do."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines

if TYPE_CHECKING:
    from gitcorrex.model.environment import EnvironmentPrint
    from gitcorrex.verify.explain import ExplainedObservation


@click.command()
@click.argument("rev", required=False)
@click.option("--stage", help="Stage whose build_expectation is asked about (as verify).")
@click.option("--expect", "expect", help="Expectation asked about (overrides the stage's).")
@json_option
def explain(rev: str | None, stage: str | None, expect: str | None, as_json: bool) -> Conclusion:
    """Show every verification of REV's tree (default: the current state key) with the
    environment it ran in, and whether `verify --reuse` would reuse it here, or why not.

    "Here" is this shell: the commands the tree's profile selects, resolved on this PATH,
    with this virtualenv, lockfiles, platform and declared variables. Nothing is recorded.
    """
    import os

    from gitcorrex.git import compute_state, discover
    from gitcorrex.verify.explain import explain_tree

    repo = discover(start_dir())
    state_key = compute_state(repo).state_key if rev is None else None
    result = explain_tree(repo, rev=rev, state_key=state_key, stage=stage, expect=expect,
                          env=os.environ)
    if as_json:
        emit_json(result)
        return Conclusion.OK
    head = f"tree {result.tree[:12]} ({result.source})"
    if result.profile is None:
        click.echo(f"{head}: no .correx.toml: no pass of it is reused")
    else:
        click.echo(f"{head} · profile {result.profile[:12]} · expectation "
                   f"{result.expectation!r}")
    if result.environment is not None:
        click.echo(f"environment here {result.environment.digest[:12]}:")
        click.echo(printable_lines("\n".join(environment_lines(result.environment))))
    click.echo(f"{len(result.observations)} observation(s), newest first:")
    for observed in result.observations:
        click.echo(printable_lines("\n".join(observation_lines(observed))))
    return Conclusion.OK


def observation_lines(observed: ExplainedObservation) -> list[str]:
    """One observation: its result, id, time and writer, its environment, the answer."""
    event = observed.event
    result = str(getattr(event, "result", "?"))
    mark = {"pass": "✓", "fail": "✗"}.get(result, "·")
    reused = getattr(event, "reused_from", None)
    by = event.actor.email or event.actor.name or "?"
    lines = [f"{mark} {result} {event.id[:12]} {event.at} by {by} on {event.actor.host}"
             + (f" (reuses {str(reused)[:12]})" if reused else "")]
    if observed.environment is None:
        lines.append("    environment: none recorded (before fingerprints)")
    else:
        lines.append(f"    environment {observed.environment.digest[:12]}:")
        lines += ["    " + line for line in environment_lines(observed.environment)]
    answer = "would be reused here" if observed.reusable else f"not reused here: {observed.reason}"
    return [*lines, f"    → {answer}"]


def environment_lines(environment: EnvironmentPrint) -> list[str]:
    """The fingerprint's components, one a line; variables by name only."""
    lines = [f"  program {p.name}: {p.path or 'not found'}"
             + (f" sha256 {p.sha256[:12]}" if p.sha256 else "")
             + (f" ({p.version})" if p.version else "") for p in environment.programs]
    lines += [f"  virtualenv {v.path}: {v.count} distribution(s) {v.packages[:12]}"
              for v in environment.venvs]
    lines += [f"  lockfile {lock.path}: {lock.digest[:12]} ({lock.source})"
              for lock in environment.lockfiles]
    if environment.platform is not None:
        p = environment.platform
        lines.append(f"  platform: {p.os} {p.machine} {p.libc}")
    if environment.variables:
        names = ", ".join(f"{v.name} (hash {v.value[:8]})" for v in environment.variables)
        lines.append(f"  variables set: {names}")
    if environment.salt is not None:
        lines.append(f"  salt: {environment.salt}")
    return lines
