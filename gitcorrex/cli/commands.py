"""The list of commands the root group offers, in help order."""

from __future__ import annotations

import click

from gitcorrex.cli.state_cmd import state

ALL: list[click.Command] = [state]
