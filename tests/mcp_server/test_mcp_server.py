"""`git correx mcp` as a real process on stdio: driven by the official MCP client SDK and by
a plain JSON-RPC exchange; its answers are the CLI's, and what it records the CLI sees."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.agents.conftest import project  # noqa: F401  (the committed project fixture)
from tests.conftest import REPO_ROOT, run_correx, write

pytest.importorskip("mcp")
TOOLS = {"state", "verify", "show", "assess_write", "assess_read", "session_status",
         "step_start", "gate", "plan_validate", "plan_ground"}


def server_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


async def sdk_session(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "gitcorrex", "mcp"],
                                   cwd=str(root), env=server_env())
    async with stdio_client(params) as (read, write_stream), \
            ClientSession(read, write_stream) as session:
        await session.initialize()
        listed = await session.list_tools()
        results: list[Any] = [listed]
        for name, arguments in calls:
            results.append(await session.call_tool(name, arguments))
        return results


def test_sdk_client_state_verify_show_match_the_cli(project: Path) -> None:  # noqa: F811
    write(project, "src/app.py", "VALUE = 2\n")
    listed, state, verified, shown = anyio.run(sdk_session, project, [
        ("state", {}), ("verify", {"stage": "implement"}), ("show", {})])
    assert {tool.name for tool in listed.tools} >= TOOLS
    by_name = {tool.name: tool for tool in listed.tools}
    assert by_name["state"].output_schema is not None
    cli_state = json.loads(run_correx(project, "state", "--json").stdout)
    assert state.structured_content == cli_state
    assert verified.structured_content["result"] == "pass"
    event_id = verified.structured_content["event"]["id"]
    cli_show = json.loads(run_correx(project, "show", "--json").stdout)
    assert [event["id"] for event in cli_show["events"]] == [event_id]
    assert shown.structured_content == cli_show


def test_errors_are_tool_errors_with_the_hint(project: Path) -> None:  # noqa: F811
    _, unknown, blocked = anyio.run(sdk_session, project, [
        ("verify", {"expect": "no-such-expectation"}),
        ("assess_write", {"paths": ["docs/x.md"], "stage": "implement"})])
    assert unknown.is_error
    assert "no-such-expectation" in unknown.content[0].text
    assert not blocked.is_error
    assert blocked.structured_content["verdict"] == "BLOCK"
    assert blocked.structured_content["paths"][0]["rule"] == "PATH_OUTSIDE_MANIFEST"


def rpc(message_id: int | None, method: str, params: dict[str, Any]) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if message_id is not None:
        body["id"] = message_id
    return json.dumps(body).encode() + b"\n"


def test_plain_json_rpc_over_stdio(project: Path) -> None:  # noqa: F811
    """One request at a time, as a plain client would: nothing but protocol messages reach
    stdout (every line is one JSON-RPC message)."""
    from mcp.types import LATEST_PROTOCOL_VERSION

    proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "mcp"], cwd=project,
                            env=server_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(message_id: int | None, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(rpc(message_id, method, params))
        proc.stdin.flush()
        if message_id is None:
            return {}
        while True:
            line = json.loads(proc.stdout.readline())
            assert line["jsonrpc"] == "2.0", line
            if line.get("id") == message_id:
                return line

    try:
        hello = ask(1, "initialize", {"protocolVersion": LATEST_PROTOCOL_VERSION,
                                      "capabilities": {},
                                      "clientInfo": {"name": "plain", "version": "0"}})
        ask(None, "notifications/initialized", {})
        listed = ask(2, "tools/list", {})
        state = ask(3, "tools/call", {"name": "state", "arguments": {}})
        verified = ask(4, "tools/call", {"name": "verify", "arguments": {"stage": "implement"}})
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
        assert proc.stderr is not None
        proc.stderr.close()
    assert hello["result"]["serverInfo"]["name"] == "git-correx"
    assert {tool["name"] for tool in listed["result"]["tools"]} >= TOOLS
    cli_state = json.loads(run_correx(project, "state", "--json").stdout)
    assert state["result"]["structuredContent"] == cli_state
    observation = verified["result"]["structuredContent"]
    assert observation["result"] == "pass"
    assert observation["event"]["id"] in run_correx(project, "show", "--json").stdout
