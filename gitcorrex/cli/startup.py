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

from gitcorrex.model.conclusion import Conclusion

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import Any

    from gitcorrex.cli.head_start import HeadStart
    from gitcorrex.git import StateStart

    Runner = Callable[[HeadStart | None, dict[str, Any]], Conclusion | int | None]


def run_startup(args: Sequence[str], head_start: HeadStart | None = None
                ) -> Conclusion | int | None:
    """How a command this path answers ended (a hook's or an agent's answer: its own exit
    code); None to let click handle `args`. `head_start` is verify's scan, begun before
    anything else was imported."""
    from gitcorrex.cli.option_parser import parse_params
    from gitcorrex.cli.option_table import COMMANDS  # here: its generator imports RUNNERS


    path = tuple(args[:2]) if tuple(args[:2]) in COMMANDS else tuple(args[:1])
    if path not in COMMANDS:
        return None
    params = parse_params(COMMANDS[path], args[len(path):])
    return None if params is None else RUNNERS[path](head_start, params)


def verify(head_start: HeadStart | None, params: dict[str, Any]) -> Conclusion:
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


def session_status(_: HeadStart | None, params: dict[str, Any]) -> Conclusion:
    from gitcorrex.cli.session_render import print_session_status

    return print_session_status(**params)


def log(_: HeadStart | None, params: dict[str, Any]) -> Conclusion:
    from gitcorrex.cli.log_render import print_log

    return print_log(**params)


RUNNERS: dict[tuple[str, ...], Runner] = {
    ("state",): lambda head_start, params: print_state(head_start, **params),
    ("verify",): verify,
    ("session", "status"): session_status,
    ("log",): log,
    ("assess",): assess,
    ("hook", "run"): hook_run,
}


def print_state(head_start: HeadStart | None = None, *, as_json: bool) -> Conclusion:
    """`state`: the key, or the `--json` document; on what `main` began, when it did."""
    from pathlib import Path  # only `state` needs it here

    began = head_start.take_state_start() if head_start is not None else None
    try:
        sys.stdout.write(state_text(Path.cwd(), as_json=as_json, began=began))
    finally:
        if began is not None:
            began.close()  # what the probe did not adopt (discovery failed)
    return Conclusion.OK


def state_text(start: Path, *, as_json: bool, began: StateStart | None = None) -> str:
    """What `git correx state` prints: the key, or `{"state_key", "head_tree", "dirty"}`."""
    from gitcorrex.git import compute_state, discover

    asked = began.discovery if began is not None else None
    result = compute_state(discover(start, asked=asked), began)
    if not as_json:
        return result.state_key + "\n"
    document = {"state_key": result.state_key, "head_tree": result.head_tree,
                "dirty": result.dirty}
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
