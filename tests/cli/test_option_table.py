"""The start-up path's option table is generated from the click commands, never edited:
the committed file is what the generator writes from the declarations as they are now."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from gitcorrex.cli.log_cmd import log
from gitcorrex.cli.option_table import COMMANDS
from gitcorrex.cli.option_table_source import REGENERATE, TABLE, UnsupportedDeclaration
from gitcorrex.cli.option_table_source import option_table_source as table_source
from gitcorrex.cli.startup import RUNNERS
from gitcorrex.cli.verify_cmd import verify


def committed() -> str:
    return Path(TABLE).read_text(encoding="utf-8")


def test_committed_option_table_is_current() -> None:
    assert committed() == table_source(), f"run `{REGENERATE}` and commit"


def test_an_option_added_to_a_command_makes_the_table_stale(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The staleness test reads the click declaration itself: a new option on `verify`,
    without regenerating, fails it."""
    monkeypatch.setattr(verify, "params", [*verify.params, click.Option(["--timeout"])])
    regenerated = table_source()
    assert regenerated != committed()
    assert '"--timeout": ("timeout", "value", None)' in regenerated


def test_an_alias_added_to_an_option_makes_the_table_stale(
        monkeypatch: pytest.MonkeyPatch) -> None:
    limit = next(param for param in log.params if param.name == "limit")
    monkeypatch.setattr(limit, "opts", [*limit.opts, "--limit"])
    regenerated = table_source()
    assert regenerated != committed()
    assert '"--limit": ("limit", "value", None)' in regenerated


def test_the_table_holds_every_command_the_start_up_path_answers() -> None:
    assert set(COMMANDS) == set(RUNNERS)


@pytest.mark.parametrize("option", [
    click.Option(["--timeout"], envvar="CORREX_TIMEOUT"),
    click.Option(["--timeout"], type=float),
    click.Option(["--verbose", "-v"], count=True),
    click.Option(["--level"], type=click.IntRange(0, 3, clamp=True)),
])
def test_a_declaration_the_parser_cannot_follow_stops_the_generation(
        monkeypatch: pytest.MonkeyPatch, option: click.Option) -> None:
    """Rather than a table the parser would read differently from click."""
    monkeypatch.setattr(verify, "params", [*verify.params, option])
    with pytest.raises(UnsupportedDeclaration, match="verify: "):
        table_source()
