"""Command-line entry point: `git correx …` (console script `git-correx`)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

    from gitcorrex.git import StateStart
    from gitcorrex.model.conclusion import Conclusion


def main(argv: list[str] | None = None) -> None:
    """The process's entry: everything runs inside the one boundary, which also ends it. An
    agent's hook call runs inside the agent's own entry instead, which answers in the agent's
    protocol whatever happens (cli/agent_hook.py).

    Ctrl-C can arrive before the boundary's stop-signal guard is up (while the boundary
    itself loads: the first tens of milliseconds) or after it came down (while the output
    is flushed): Python's own handler then raises KeyboardInterrupt here, which is handed to
    the same boundary, so it is the same interrupt as any other — exit 130 and one line, or
    the agent's blocking answer — never a traceback.

    An agent hook call or a verify from the command line (`argv` None) is first handed to
    the resident process (cli/resident_client.py), which runs this same entry in a forked
    child with the modules already loaded (the child passes `argv`); when none can take
    it, it runs here.

    Every command starts from the current directory: one removed under the caller (or one
    it may no longer read) is said once, here, as an environmental fault."""
    args = sys.argv[1:] if argv is None else argv
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        _open_closed_standard_streams()
    if getattr(sys.stdout, "errors", None) == "strict":
        _escape_what_stdout_cannot_encode()
    try:
        lost = _current_directory_fault()
        if lost is not None:
            _end_through_the_boundary(args, lambda: _raise(lost))
        if argv is None and handed_over(args):
            from gitcorrex.cli.resident_client import hand_over

            # ends the process when the resident process ran the call; only an agent hook
            # call starts one, a verify only where the watcher is on
            hand_over(args, agent_hook=is_agent_hook(args))
        state_start = _begin_state(args)
        _end_through_the_boundary(args, lambda: _serve(args, argv, state_start))
    except KeyboardInterrupt as stop:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut this short
        interrupt: BaseException = stop
        _end_through_the_boundary(args, lambda: _raise(interrupt))


def _end_through_the_boundary(args: list[str], body: Callable[[], Conclusion | int]) -> None:
    """Run `body` inside the boundary of this kind of call, which ends the process."""
    from gitcorrex.cli.boundary import exit_now, run_guarded

    if is_agent_hook(args):
        from gitcorrex.cli.agent_hook import answer_agent

        exit_now(answer_agent(body))
    else:
        exit_now(run_guarded(body))


def _serve(args: list[str], argv: list[str] | None,
           state_start: StateStart | None) -> Conclusion | int:
    return _answer(args, argv) if is_agent_hook(args) else _dispatch(args, argv, state_start)


def _begin_state(args: list[str]) -> StateStart | None:
    """The scan of `state`, and the first of `verify`, begun before anything else loads
    (git/state_start.py says why)."""
    if args[:1] not in (["state"], ["verify"]) or "-h" in args or "--help" in args:
        return None
    from gitcorrex.git import begin_state

    return begin_state()


def _raise(stop: BaseException) -> Conclusion | int:
    raise stop


def _open_closed_standard_streams() -> None:
    """A standard descriptor the caller closed (`git correx verify >&-`) becomes /dev/null,
    as git makes it (`sanitize_stdfds`): Python left its stream None, which the first
    message would trip over, and the next file this process opens would take its number
    (a private index on descriptor 1 would receive what a child prints)."""
    import os

    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        stream = open(fd, mode, closefd=False, errors="backslashreplace")  # noqa: SIM115
        setattr(sys, name, stream)  # for the life of the process


def _escape_what_stdout_cannot_encode() -> None:
    """A character the output's encoding lacks (a `✓` in a commit subject under a latin-1
    locale or `PYTHONIOENCODING=ascii`; a file name git gave as bytes that are no UTF-8) is
    written escaped (`\\u2713`), as stderr's already are, never a traceback after the work
    was done. The JSON it writes is ASCII already."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


def _current_directory_fault() -> BaseException | None:
    """Exit 3 with one line for a current directory that is gone or unreadable (`rm -rf`
    of the work tree under a shell still in it), instead of a traceback wherever it is
    first asked for; None when it can be read."""
    import os

    try:
        os.getcwd()
    except OSError as exc:
        from gitcorrex.errors import UnavailableError

        cause = (exc.strerror or "unreadable").lower()
        return UnavailableError(f"cannot read the current directory: {cause}",
                                hint="cd into the repository again (it may have been removed "
                                     "or moved), then run the command again")
    return None


def handed_over(args: list[str]) -> bool:
    """The calls a resident process may run (cli/resident.py): agent hook calls, and
    verify, whose interpreter and modules are otherwise the larger part of its cost when the
    watcher answers the first key."""
    return is_agent_hook(args) or runs_commands(args)


def runs_commands(args: list[str]) -> bool:
    """A call that runs the profile's commands: `verify` (served only for a caller that
    would run them as the resident process's child does: confinement.py)."""
    return args[:1] == ["verify"]


def is_agent_hook(args: list[str]) -> bool:
    """`assess … --hook AGENT …` in any of the forms click accepts (`--hook=AGENT`, options
    before it): an agent is waiting for an answer in its own protocol."""
    return args[:1] == ["assess"] and any(
        arg == "--hook" or arg.startswith("--hook=") for arg in args[1:])


def _dispatch(args: list[str], argv: list[str] | None,
              state_start: StateStart | None = None) -> Conclusion | int:
    """The commands answered before click loads first, then click; verify's first scan
    started before, and what `state` began before anything loaded."""
    from gitcorrex.cli.head_start import HeadStart
    from gitcorrex.cli.startup import run_startup

    with HeadStart.for_args(args, state_start) as head_start:
        ended = run_startup(args, head_start)
        if ended is None:
            from gitcorrex.cli.root import run

            ended = run(argv, head_start=head_start)
    return ended


def _answer(args: list[str], argv: list[str] | None) -> Conclusion | int:
    """`assess --hook AGENT …`: answered before click loads when the start-up parser reads
    the options, else by click (`-h`, a typo) inside the agent's entry, whose boundary it
    shares."""
    from gitcorrex.cli.startup import run_startup

    ended = run_startup(args)
    if ended is None:
        from gitcorrex.cli.root import invoke

        return invoke(argv)
    return ended
