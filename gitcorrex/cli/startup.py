"""Commands answered before click loads: `git correx state [--json]`, `session status`,
`log`, `verify` (`cli/verify_run.py`), `hook run` (`cli/hook_run.py`) and `assess --hook`
(`cli/agent_hook.py`): what hooks, agents and orchestrators run most.

Importing click costs ~35 ms, a sixth of keying a 50,000-file workspace; for these commands
the root group would do nothing but parse the arguments, so we skip it. The click commands
stay the one declaration of their options: `cli/option_table.py` is generated from them, and
`cli/option_parser.py` reads an argument list against it into exactly the keyword arguments
click would hand the command. Each command's body is one click-free function that this path
and the click command both call with them, so no option exists on one path only. Whatever
the parser is not sure of (help, `--`, a typo) goes through click as usual, and so does
`assess` without `--hook`, whose body prints through click.
Failures are mapped by the boundary (cli/boundary.py) that `main` runs everything in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gitcorrex.errors import ExitCode

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from gitcorrex.cli.head_start import HeadStart

    Runner = Callable[[HeadStart | None, dict[str, Any]], int | None]


def run_startup(args: Sequence[str], head_start: HeadStart | None = None) -> int | None:
    """The exit code when `args` is a command this path answers; None to let click handle
    them. `head_start` is verify's scan, begun before anything else was imported."""
    from gitcorrex.cli.option_parser import parse_params
    from gitcorrex.cli.option_table import COMMANDS  # here: its generator imports RUNNERS


    path = tuple(args[:2]) if tuple(args[:2]) in COMMANDS else tuple(args[:1])
    if path not in COMMANDS:
        return None
    params = parse_params(COMMANDS[path], args[len(path):])
    return None if params is None else RUNNERS[path](head_start, params)


def verify(head_start: HeadStart | None, params: dict[str, Any]) -> int:
    from gitcorrex.cli.verify_run import run_verify

    return run_verify(head_start, **params)


def hook_run(_: HeadStart | None, params: dict[str, Any]) -> int:
    from gitcorrex.cli.hook_run import run_hook  # every commit runs it

    return run_hook(**params)


def assess(_: HeadStart | None, params: dict[str, Any]) -> int | None:
    """`assess --hook AGENT …` (every tool call of an agent session runs it); None without
    `--hook`: that body prints through click."""
    if params["hook"] is None:
        return None
    from gitcorrex.cli.agent_hook import answer_assess_hook

    return answer_assess_hook(**params)


RUNNERS: dict[tuple[str, ...], Runner] = {
    ("state",): lambda _, params: print_state(**params),
    ("verify",): verify,
    ("session", "status"): lambda _, params: print_session_status(**params),
    ("log",): lambda _, params: print_log(**params),
    ("assess",): assess,
    ("hook", "run"): hook_run,
}


def print_log(*, revisions: tuple[str, ...], limit: int | None, verify_signatures: bool,
              as_json: bool) -> int:
    """`log [RANGE…]`: the stored statuses when they answer (no signatures asked), else the
    full path."""
    from gitcorrex.cli.log_render import log_output
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.review.log_light import light_log

    repo = discover_with_git(Path.cwd())
    result = None if verify_signatures else light_log(repo, revisions=list(revisions),
                                                      limit=limit)
    if result is None:
        from gitcorrex.review.log import log_commits

        result = log_commits(repo, revisions=list(revisions), limit=limit,
                             verify_signatures=verify_signatures)
    out, err = log_output(result, as_json=as_json)
    sys.stderr.write(err)
    sys.stdout.write(out)
    return ExitCode.OK


def print_session_status(*, session_id: str | None, as_json: bool) -> int:
    """`session status [ID]`: the stored fold when the light path can answer, else the full
    path, which also names what is wrong (no session selected, no such session…)."""
    import os

    from gitcorrex.cli.session_render import render_status, status_json
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.session.status_light import status_document, status_exit_code

    given = session_id or os.environ.get("CORREX_SESSION") or None
    repo = discover_with_git(Path.cwd())
    document = status_document(repo, given)
    if document is None:
        from gitcorrex.session.context import chosen_session
        from gitcorrex.session.status import session_status

        document = session_status(repo, chosen_session(repo, given)).model_dump(mode="json")
    sys.stdout.write(status_json(document) if as_json else render_status(document))
    return status_exit_code(document)


def print_state(*, as_json: bool) -> int:
    sys.stdout.write(state_text(Path.cwd(), as_json=as_json))
    return ExitCode.OK


def state_text(start: Path, *, as_json: bool) -> str:
    """What `git correx state` prints: the key, or `{"state_key", "head_tree", "dirty"}`."""
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.git.state import compute_state

    result = compute_state(discover_with_git(start))
    if not as_json:
        return result.state_key + "\n"
    document = {"state_key": result.state_key, "head_tree": result.head_tree,
                "dirty": result.dirty}
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
