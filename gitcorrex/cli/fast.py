"""Click-free start-up for the commands hooks, agents and orchestrators run most:
`git correx state [--json]`, `session status [ID] [--json]`, `log [RANGE] [--json]` and
`verify` (`cli/verify_run.py`).

Importing click costs ~35 ms, a sixth of keying a 50,000-file workspace; for exactly these
argument lists the root group would do nothing but parse them, so we skip it and call the
function the click command calls. Every other argument list (help, typos, other commands)
goes through click as usual. Failures are mapped by the boundary (cli/boundary.py) that
`main` runs everything in.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from gitcorrex.model.conclusion import Conclusion

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from gitcorrex.cli.head_start import HeadStart

STATE_FORMS = {("state",): False, ("state", "--json"): True}
SESSION_STATUS = ("session", "status")
HOOK_RUN = ("hook", "run")
AGENT_VALUE_OPTIONS = {"--session": "session", "--stage": "stage"}
VERIFY_VALUES = {"--stage": "stage", "--expect": "expect", "--session": "session"}
VERIFY_FLAGS = {"--quiet": "quiet", "-q": "quiet", "--reuse": "reuse",
                "--isolated": "isolated", "--json": "as_json"}


def run_fast(args: Sequence[str], head_start: HeadStart | None = None
             ) -> Conclusion | int | None:
    """How a fast-path form ended (a hook run: its own exit code); None to let click handle
    `args`.
    `head_start` is verify's scan, begun before anything else was imported."""
    if tuple(args[:1]) == ("verify",):
        return verify(args[1:], head_start)
    if tuple(args[:2]) == HOOK_RUN and len(args) > 2 and not {"-h", "--help"} & set(args):
        from gitcorrex.cli.hook_run import run_hook  # every commit runs it: no click

        return run_hook(args[2], args[3:])
    if tuple(args[:2]) == SESSION_STATUS:
        return session_status(args[2:])
    if tuple(args[:1]) == ("log",):
        return log(args[1:])
    as_json = STATE_FORMS.get(tuple(args))
    if as_json is None:
        return None
    sys.stdout.write(state_text(Path.cwd(), as_json=as_json))
    return Conclusion.OK


def verify(rest: Sequence[str], head_start: HeadStart | None) -> Conclusion | None:
    """`verify` with only the options in VERIFY_VALUES and VERIFY_FLAGS, each at most once
    (no `--opt=value`, no `--artifact`, no help: click parses and reports those)."""
    values: dict[str, str] = {}
    flags: set[str] = set()
    options = list(rest)
    while options:
        option = options.pop(0)
        if option in VERIFY_FLAGS and VERIFY_FLAGS[option] not in flags:
            flags.add(VERIFY_FLAGS[option])
        elif option in VERIFY_VALUES and options and VERIFY_VALUES[option] not in values:
            values[VERIFY_VALUES[option]] = options.pop(0)
        else:
            return None
    from gitcorrex.cli.verify_run import run_verify

    return run_verify(head_start, stage=values.get("stage"), expect=values.get("expect"),
                      session=values.get("session"), reuse="reuse" in flags,
                      isolated="isolated" in flags, artifacts=(), quiet="quiet" in flags,
                      as_json="as_json" in flags)


def log(rest: Sequence[str]) -> Conclusion | None:
    """`log [RANGE…] [--json]` (revisions only, no other option)."""
    from gitcorrex.cli.log_render import print_log

    revisions = [arg for arg in rest if arg != "--json"]
    if any(arg.startswith("-") for arg in revisions) or rest.count("--json") > 1:
        return None
    return print_log(revisions, limit=None, verify_signatures=False, as_json="--json" in rest)


def session_status(rest: Sequence[str]) -> Conclusion | None:
    """`session status [ID] [--json]`."""
    from gitcorrex.cli.session_render import print_session_status

    ids = [arg for arg in rest if arg != "--json"]
    if len(ids) > 1 or any(arg.startswith("-") for arg in ids) or rest.count("--json") > 1:
        return None
    return print_session_status(ids[0] if ids else None, as_json="--json" in rest)


def run_agent_hook(args: Sequence[str]) -> int | None:
    """`assess --hook AGENT [--session ID] [--stage S] [--record-all]`: every tool call of an
    agent session runs it, so it must not pay for click (~35 ms). Other forms go to click."""
    import os

    from gitcorrex.agents.request import HookOptions
    from gitcorrex.agents.run import AGENTS
    from gitcorrex.cli.agent_hook import run_agent_hook as run_hook

    if not args or args[0] not in AGENTS:
        return None
    values: dict[str, str] = {}
    record_all = False
    rest = list(args[1:])
    while rest:
        option = rest.pop(0)
        if option == "--record-all":
            record_all = True
        elif option in AGENT_VALUE_OPTIONS and rest and AGENT_VALUE_OPTIONS[option] not in values:
            values[AGENT_VALUE_OPTIONS[option]] = rest.pop(0)
        else:
            return None
    session = values.get("session") or os.environ.get("CORREX_SESSION") or None
    options = HookOptions(stage=values.get("stage"), session=session, record_all=record_all)
    return run_hook(args[0], options)


def state_text(start: Path, *, as_json: bool) -> str:
    """What `git correx state` prints: the key, or `{"state_key", "head_tree", "dirty"}`."""
    from gitcorrex.git import compute_state, discover

    result = compute_state(discover(start))
    if not as_json:
        return result.state_key + "\n"
    document = {"state_key": result.state_key, "head_tree": result.head_tree,
                "dirty": result.dirty}
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
