"""Options and output helpers shared by every command."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print the result as JSON on stdout.")


def emit_json(value: Any) -> None:
    """Print a result model (or plain data) as one JSON document on stdout. ASCII only:
    JSON's own `\\uXXXX` escapes every control and bidi character a path or an output
    may hold (and bytes that were not UTF-8), and a reader decodes the same document."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n")


def start_dir() -> Path:
    """Where discovery starts; the only place below cli/ that knows the cwd."""
    return Path.cwd()
