"""The one table of hosts (gitcorrex/agents/hosts.py) against what the code and docs do: a
matcher may name only tools the adapter judges (or the host's declared aliases), every tool
the adapter judges is selected by a matcher, every installed event parses to the kind the
table says, the real `hooks install --print` writes the table's events and matchers, and the
generated tables in docs/agents/ are fresh."""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from gitcorrex.agents.host_docs import expected_pages
from gitcorrex.agents.hosts import AGENTS, HOSTS, Host
from gitcorrex.agents.payload import PayloadError
from gitcorrex.agents.request import Action, Event, HookRequest
from tests.conftest import run_correx

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents"
PATCH = "*** Begin Patch\n*** Add File: src/x.py\n+x\n*** End Patch\n"
ARGS = {"file_path": "src/x.py", "notebook_path": "src/x.ipynb", "path": "src/x.py",
        "absolute_path": "/tmp/x.py", "command": PATCH, "input": "ls\n"}
# every tool name any host documents, so an adapter that judges one the table omits shows
OTHER_TOOLS = {"Glob", "Grep", "WebFetch", "Task", "glob", "grep", "task", "web_fetch",
               "ask_user", "read_bash", "list_directory", "google_web_search"}
CANDIDATES = sorted(OTHER_TOOLS | {tool for host in HOSTS.values()
                                   for tool in host.tools | host.matcher_aliases})


def parsed(host: Host, event: str, tool: str | None = None) -> HookRequest:
    """What `host`'s adapter makes of a payload for `event` (naming `tool`)."""
    adapter = import_module(f"gitcorrex.agents.{host.adapter}")
    payload: dict[str, Any] = {"cwd": "/tmp", "hook_event_name": event}
    if host.name == "copilot-cli":
        payload = {"cwd": "/tmp", "timestamp": 1, "sessionId": "s"}
        if tool is not None:
            payload.update(toolName=tool, toolArgs=ARGS)
        if event == "postToolUse":
            payload["toolResult"] = {"resultType": "success"}
        if event == "agentStop":
            payload.update(stopReason="end_turn", transcriptPath="/tmp/t")
    elif host.name == "cursor":
        payload.update(workspace_roots=["/tmp"], file_path="src/x.py", command="ls")
    elif tool is not None:
        payload.update(tool_name=tool, tool_input=ARGS)
    request: HookRequest = adapter.parse(json.dumps(payload).encode())
    return request


def pre_event(host: Host) -> str:
    event = host.event(Event.PRE_TOOL)
    assert event is not None, f"{host.name}: no event before a tool runs"
    return event.name


def judged(host: Host, tool: str) -> str | None:
    """The action `host`'s adapter takes for `tool` before it runs (None: not judged)."""
    try:
        return parsed(host, pre_event(host), tool).action
    except PayloadError as exc:  # judged, but these arguments are not its
        return f"judged ({exc})"


def matcher_names(matcher: str | None) -> set[str]:
    return set() if matcher is None else set(matcher.split("|"))


@pytest.mark.parametrize("agent", AGENTS)
def test_every_tool_a_matcher_names_is_judged_by_the_adapter(agent: str) -> None:
    host = HOSTS[agent]
    for event in host.events:
        for tool in matcher_names(event.matcher) - host.matcher_aliases:
            assert tool in host.tools, f"{agent} {event.name} matcher names {tool!r}, " \
                                       "which the adapter does not judge"
            assert judged(host, tool) is not None, f"{agent}: {tool!r} is not judged"


@pytest.mark.parametrize("agent", AGENTS)
def test_every_tool_the_adapter_judges_is_selected_before_it_runs(agent: str) -> None:
    host = HOSTS[agent]
    pre = host.event(Event.PRE_TOOL)
    post = host.event(Event.POST_TOOL, Action.SHELL)
    assert pre is not None
    if pre.matcher is not None:
        assert host.tools <= matcher_names(pre.matcher), f"{agent}: {pre.name} misses " \
            f"{sorted(host.tools - matcher_names(pre.matcher))}"
    if post is not None and post.matcher is not None:
        assert host.shell_tools <= matcher_names(post.matcher), f"{agent}: {post.name}"


@pytest.mark.parametrize("agent", sorted(set(AGENTS) - {"cursor"}))
@pytest.mark.parametrize("tool", CANDIDATES)
def test_the_adapter_judges_exactly_the_tools_the_table_names(agent: str, tool: str) -> None:
    host = HOSTS[agent]
    expected = Action.WRITE if tool in host.write_tools else Action.READ \
        if tool in host.read_tools else Action.SHELL if tool in host.shell_tools else None
    assert judged(host, tool) == expected, f"{agent}: {tool!r}"


@pytest.mark.parametrize("agent", AGENTS)
def test_every_installed_event_parses_to_the_tables_kind(agent: str) -> None:
    host = HOSTS[agent]
    for event in host.events:
        tool = next(iter(sorted(host.shell_tools)), None) if event.kind != Event.STOP else None
        request = parsed(host, event.name, tool)
        assert request.event == event.kind, f"{agent} {event.name}"
        if event.action is not None:
            assert request.action == event.action, f"{agent} {event.name}"


@pytest.mark.parametrize("agent", AGENTS)
def test_install_writes_the_tables_events_and_matchers(tmp_path: Path, make_repo: Any,
                                                      agent: str) -> None:
    root = make_repo(files={"README.md": "x\n"})
    result = run_correx(root, "hooks", "install", "--agent", agent, "--print")
    assert result.code == 0, result
    hooks = json.loads(result.stdout)["hooks"]
    host = HOSTS[agent]
    assert list(hooks) == [event.name for event in host.events]
    for event in host.events:
        (entry,) = hooks[event.name]
        assert entry.get("matcher") == event.matcher, f"{agent} {event.name}"


def test_the_docs_tables_are_generated_from_the_table() -> None:
    stale = [path.name for path, text in expected_pages(DOCS).items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"stale: {stale}; run `python -m gitcorrex.agents.host_docs --write`"
