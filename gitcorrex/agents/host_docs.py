"""The generated tables in docs/agents/: each host's page and the README, from the one table.

Each page holds one section between `BEGIN` and `END` that is written from hosts.py, so what
the docs say a host installs, loads and judges cannot disagree with what the code does:
`python -m gitcorrex.agents.host_docs --write` rewrites the sections, and
tests/agents/test_hosts_table.py fails while one is stale. Everything outside them is prose.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gitcorrex.agents.hosts import HOSTS, HookEvent, Host
from gitcorrex.agents.request import Event

BEGIN = ("<!-- generated from gitcorrex/agents/hosts.py by "
         "`python -m gitcorrex.agents.host_docs --write`: edit the table there -->")
END = "<!-- end of generated section -->"
README = "README.md"
_WHEN = {Event.PRE_TOOL: "before a tool runs", Event.POST_TOOL: "after a tool ran",
         Event.STOP: "when the agent wants to stop"}


def page_of(host: Host) -> str:
    """The file name of `host`'s page in docs/agents/."""
    return f"{host.name}.md"


def host_section(host: Host) -> str:
    """`host`'s generated table: files, events and matchers, tools, adapter."""
    none = "none" if host.tools else "(the event names it)"
    rows = [("`hooks install --agent " + host.name + "` writes", _code([host.settings])),
            ("hooks it runs, from", _code(host.loads)),
            *[(f"`{event.name}`", _event_row(event)) for event in host.events],
            ("file writes it judges", _code(sorted(host.write_tools)) or none),
            ("file reads it judges", _code(sorted(host.read_tools)) or none),
            ("shell calls it judges", _code(sorted(host.shell_tools)) or none),
            ("adapter", f"`gitcorrex/agents/{host.adapter}.py`")]
    if host.matcher_aliases:
        rows.append(("matcher aliases", _code(sorted(host.matcher_aliases))))
    lines = ["| | |", "|---|---|", *[f"| {key} | {value} |" for key, value in rows]]
    return "\n".join(lines)


def readme_section() -> str:
    """One row per host: its page, the file install writes, and every file it runs hooks
    from (two agents wired into one file both run: doctor names it)."""
    lines = ["| host | page | `hooks install --agent` | writes | runs hooks from |",
             "|---|---|---|---|---|"]
    for host in HOSTS.values():
        lines.append(f"| {host.label} | [{page_of(host)}]({page_of(host)}) | `{host.name}` "
                     f"| `{host.settings}` | {_code(host.loads)} |")
    return "\n".join(lines)


def _event_row(event: HookEvent) -> str:
    what = _WHEN.get(event.kind, event.kind)
    if event.action is not None:
        what += f" ({event.action})"
    escaped = (event.matcher or "").replace("|", "\\|")  # a table cell's own separator
    matcher = "no matcher" if event.matcher is None else f"matcher `{escaped}`"
    timeout = "" if event.timeout is None else f", timeout {event.timeout} s"
    return f"{what}; {matcher}{timeout}"


def _code(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def with_section(text: str, section: str) -> str:
    """`text` with its generated section replaced (appended when it has none)."""
    block = f"{BEGIN}\n{section}\n{END}"
    if BEGIN not in text:
        return text.rstrip("\n") + "\n\n" + block + "\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + block + tail


def expected_pages(docs: Path) -> dict[Path, str]:
    """{page: its text with fresh sections} for every host page and the README."""
    pages = {docs / page_of(host): host_section(host) for host in HOSTS.values()}
    pages[docs / README] = readme_section()
    return {path: with_section(path.read_text(encoding="utf-8") if path.exists() else "",
                               section) for path, section in pages.items()}


def main(argv: list[str]) -> None:
    """`--write`: rewrite the sections in docs/agents/; otherwise list the stale pages
    (tests/agents/test_hosts_table.py is what fails on them)."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "agents"
    stale = [path for path, text in expected_pages(docs).items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        if "--write" in argv:
            path.write_text(expected_pages(docs)[path], encoding="utf-8")
        print(f"{'wrote' if '--write' in argv else 'stale'} {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
