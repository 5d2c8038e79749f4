"""`git correx watch start|stop|status`: state keys refreshed from watchman's answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.git import WatchStatus


@click.group()
def watch() -> None:
    """Refresh state keys from what watchman reports instead of scanning every file."""


@watch.command()
@json_option
def start(as_json: bool) -> Conclusion:
    """Watch this worktree with watchman; keys then look only at what changed.

    Exit 3 (one line saying how to install it) when watchman is not installed. Any doubt
    (watchman stopped or restarted, an overflow, a changed ignore rule) makes a key scan
    the whole work tree, as without the watcher.
    """
    from gitcorrex.git import discover, start_watch

    return _print(start_watch(discover(start_dir())), as_json)


@watch.command()
@json_option
def stop(as_json: bool) -> Conclusion:
    """Stop using the watcher here (the watch ends unless it existed before start)."""
    from gitcorrex.git import discover, stop_watch

    return _print(stop_watch(discover(start_dir())), as_json)


@watch.command()
@json_option
def status(as_json: bool) -> Conclusion:
    """Say whether keys here use the watcher and whether watchman answers now.

    JSON: {"on", "installed", "reachable", "root", "clock", "problem"}.
    """
    from gitcorrex.git import discover, watch_status

    return _print(watch_status(discover(start_dir())), as_json)


def _print(status: WatchStatus, as_json: bool) -> Conclusion:
    if as_json:
        emit_json(status.as_dict())
    else:
        click.echo(printable(status.describe()))
    return Conclusion.OK
