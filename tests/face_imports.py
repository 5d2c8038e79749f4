"""What a lazy face (`gitcorrex/faces.py`) declares for type checkers, read from its source.

A face lists its names twice by necessity: once under `if TYPE_CHECKING:` for mypy and
readers, once in `FACE` for the lazy import. The face tests hold the two lists equal.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType


def typed_imports(face: ModuleType, *, strip: str = "") -> dict[str, str]:
    """name → module (without `strip`) of the `if TYPE_CHECKING:` imports in `face`."""
    assert face.__file__ is not None
    tree = ast.parse(Path(face.__file__).read_text())
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imported in node.body:
                assert isinstance(imported, ast.ImportFrom) and imported.module
                for alias in imported.names:
                    assert alias.asname == alias.name, alias.name  # re-exported as itself
                    found[alias.name] = imported.module.removeprefix(strip)
    return found
