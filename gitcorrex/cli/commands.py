"""The list of commands the root group offers, in help order."""

from __future__ import annotations

import click

from gitcorrex.cli.accept_tests_cmd import accept_tests
from gitcorrex.cli.agents_cmd import agents
from gitcorrex.cli.assess_cmd import assess
from gitcorrex.cli.attest_cmd import attest
from gitcorrex.cli.check_cmd import check
from gitcorrex.cli.demo_cmd import demo
from gitcorrex.cli.doctor_cmd import doctor
from gitcorrex.cli.explain_cmd import explain
from gitcorrex.cli.gate_cmd import gate
from gitcorrex.cli.ground_cmd import ground
from gitcorrex.cli.help_cmd import help_command
from gitcorrex.cli.hooks_cmd import hook, hooks
from gitcorrex.cli.init_cmd import init
from gitcorrex.cli.log_cmd import log
from gitcorrex.cli.manifest_cmd import manifest
from gitcorrex.cli.mcp_cmd import mcp
from gitcorrex.cli.plan_authority_cmd import audit, route
from gitcorrex.cli.plan_cmd import plan
from gitcorrex.cli.replay_cmd import replay
from gitcorrex.cli.report_cmd import report
from gitcorrex.cli.session_cmd import session
from gitcorrex.cli.show_cmd import show
from gitcorrex.cli.state_cmd import state
from gitcorrex.cli.step_cmd import pause, resume, step
from gitcorrex.cli.sync_cmd import sync
from gitcorrex.cli.verify_cmd import verify
from gitcorrex.cli.watch_cmd import watch

ALL: list[click.Command] = [init, demo, state, verify, show, explain, replay, assess, manifest,
                           check, accept_tests, hooks, doctor, agents, watch, hook, plan, gate,
                           session, step, pause, resume, log, report, sync, attest, mcp,
                           help_command]
plan.add_command(ground)
plan.add_command(audit)
plan.add_command(route)
