"""`git correx mcp`: serve the workspace's tools to an MCP client over stdio."""

from __future__ import annotations

import click

from gitcorrex.cli.options import start_dir
from gitcorrex.model.conclusion import Conclusion

MCP_HINT = ("install git correx with its `mcp` extra the way you installed it: "
            "`pipx install --force 'git-correx[mcp]'` or `uv tool install --force "
            "'git-correx[mcp]'` (into a virtualenv: `python -m pip install "
            "'git-correx[mcp]'`); a pipx or uv install is its own environment, so your "
            "project's Python cannot import gitcorrex (docs/python-api.md)")


@click.command()
def mcp() -> Conclusion:
    """Serve state, verify, show, assess_write/assess_read, session_status, step_start,
    gate and plan_validate/plan_ground as Model Context Protocol tools on stdin/stdout
    (needs the `mcp` extra: `pipx install 'git-correx[mcp]'`).

    Exit 3 when the `mcp` package is missing.
    """
    import sys

    from gitcorrex.errors import UnavailableError

    try:
        import mcp.server  # noqa: F401
    except ImportError:
        raise UnavailableError(
            f"the MCP server needs the `mcp` package, missing where git correx runs "
            f"({sys.executable})", hint=MCP_HINT) from None
    from gitcorrex.mcp_server.server import build_server

    build_server(start_dir()).run("stdio")
    return Conclusion.OK
