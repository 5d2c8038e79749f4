"""`git correx log` after its options are parsed: the one use case and its output. Click-
free: the start-up path (no click) and the click command both call `print_log`."""

from __future__ import annotations

import json
import sys

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable
from gitcorrex.review.log_lines import LogLine, LogResult

SCREENFUL = 20  # commits `log` shows with no range when stdout is not a terminal
MIN_SCREENFUL = 5


def log_output(result: LogResult, *, as_json: bool) -> tuple[str, str]:
    """(stdout, stderr): the lines or the JSON document, and one line per ledger problem."""
    err = "".join(f"git correx: ledger problem: {problem.describe()}\n"
                  for problem in result.problems)
    if as_json:
        document = {"commits": [line.as_dict() for line in result.lines],
                    "problems": [problem.as_dict() for problem in result.problems]}
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n", err
    return "".join(render_line(line) + "\n" for line in result.lines), err


def render_line(line: LogLine) -> str:
    """`<sha12> <mark> <result> [<expectation> by <who> <when>] <subject>[  <signer>]`."""
    status = line.status
    text = f"{line.commit.sha[:12]} {status.mark} {status.result:<11}"
    if status.at is not None:
        reason = f" [{status.reason}]" if status.reason else ""
        if status.profile is not None:
            reason += f" [ran profile {status.profile[:12]}, not the tree's]"
        if status.flaky is not None:
            reason += f" [{status.flaky}]"
        what = status.problem or status.expectation or ""
        text += f" {printable(what)}{reason} by {printable(status.by or '')}"
        text += f" {status.at[:19]}Z"
    text += f"  {printable(line.commit.subject)}"
    if line.signer is not None:
        text += f"  [{printable(line.signer.describe())}]"
    return text


def print_log(*, revisions: tuple[str, ...], limit: int | None, verify_signatures: bool,
              as_json: bool, show_all: bool = False) -> Conclusion:
    """Print one line per commit (or the `--json` document), problems on stderr; ok. With
    no range, no `-n` and no `--all`: a screenful, and a line on stderr when more exist."""
    from pathlib import Path

    from gitcorrex.git import discover
    from gitcorrex.review.log import log_commits

    if show_all and limit is not None:
        from gitcorrex.errors import UsageError

        raise UsageError("-n and --all contradict each other", hint="give one of them")
    screen = screenful() if not (revisions or limit or show_all) else None
    result = log_commits(discover(Path.cwd()), revisions=list(revisions),
                         limit=limit if screen is None else screen + 1,
                         verify_signatures=verify_signatures)
    more = screen is not None and len(result.lines) > screen
    if more:
        result = LogResult(result.lines[:screen], result.problems)
    out, err = log_output(result, as_json=as_json)
    sys.stderr.write(err)
    sys.stdout.write(out)
    if more:
        sys.stderr.write(f"git correx log: the newest {screen} commits (a screenful); "
                         "-n N or --all for more, or name a range\n")
    return Conclusion.OK


def screenful() -> int:
    """How many commits `log` shows with no range: the terminal's height less two lines
    (the note and the prompt) when stdout is a terminal, else SCREENFUL."""
    import os

    try:
        rows = os.get_terminal_size(sys.stdout.fileno()).lines if sys.stdout.isatty() else 0
    except (OSError, ValueError):
        rows = 0
    return max(rows - 2, MIN_SCREENFUL) if rows else SCREENFUL
