"""`git correx verify`: run the profile's expectation on the current state key, record it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from gitcorrex.cli.head_start import HeadStart

from gitcorrex.cli.options import json_option
from gitcorrex.cli.verify_run import run_verify
from gitcorrex.model.conclusion import Conclusion


@click.command()
@click.option("--stage", help="Stage whose build_expectation and writes apply.")
@click.option("--expect", "expect", help="Expectation to run (overrides the stage's).")
@click.option("--session", help="Session the observation belongs to (assigns a seq).")
@click.option("--reuse", is_flag=True,
              help="Cite an earlier pass of this exact tree, commands and environment "
                   "instead of running (else say why none counts, and run).")
@click.option("--isolated", is_flag=True,
              help="Run the state tree's profile in a throwaway worktree holding exactly "
                   "the state tree.")
@click.option("--profile-from", "profile_from", metavar="REV",
              help="Run the commands REV's profile selects (e.g. the base branch's, for "
                   "the CI gate); recorded in the observation.")
@click.option("--artifact", "artifacts", multiple=True, metavar="NAME=FILE",
              help="An artifact the active step's stage gates need (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="Do not stream command output.")
@json_option
@click.pass_obj
def verify(head_start: HeadStart | None, stage: str | None, expect: str | None,
           session: str | None, reuse: bool, isolated: bool, profile_from: str | None,
           artifacts: tuple[str, ...], quiet: bool, as_json: bool) -> Conclusion:
    """Observe the configured commands on this exact workspace state and record the result.

    Inside a session with an active step it settles the step: write evidence, the stage's
    gates, the step's checks and the build expectation (docs/settlement.md).
    The profile run is the one the state holds (exit 3 if the index hides a change to it),
    or REV's with --profile-from.
    Exit 0 pass (or nothing to verify), 1 fail, 2 bad profile or option, 3 unavailable.
    """
    return run_verify(head_start, stage=stage, expect=expect, session=session, reuse=reuse,
                      isolated=isolated, profile_from=profile_from, artifacts=artifacts,
                      quiet=quiet, as_json=as_json)
