"""`git correx mcp`: serve the workspace's tools to an MCP client over stdio."""

from __future__ import annotations

import click

from gitcorrex.cli.options import start_dir
from gitcorrex.model.conclusion import Conclusion


@click.command()
def mcp() -> Conclusion:
    """Serve state, verify, show, assess_write/assess_read, session_status, step_start,
    gate and plan_validate/plan_ground as Model Context Protocol tools on stdin/stdout
    (needs `pip install 'git-correx[mcp]'`).

    Exit 3 when the `mcp` package is missing.
    """
    from gitcorrex.errors import UnavailableError

    try:
        import mcp.server  # noqa: F401
    except ImportError:
        raise UnavailableError("the MCP server needs the `mcp` package",
                               hint="pip install 'git-correx[mcp]'") from None
    from gitcorrex.mcp_server.server import build_server

    build_server(start_dir()).run("stdio")
    return Conclusion.OK
