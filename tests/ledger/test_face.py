"""The ledger's face (`gitcorrex/ledger/__init__.py`): one list of names, each importable
and typed, and importing the face loads no model, no engine and no libgit2."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import gitcorrex.ledger as face
from tests.face_imports import typed_imports


def test_the_typed_imports_are_the_face_list() -> None:
    assert typed_imports(face) == face.FACE


def test_every_face_name_is_defined_where_the_list_says() -> None:
    for name, module in face.FACE.items():
        assert getattr(face, name) is getattr(importlib.import_module(module), name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        face.no_such_name  # noqa: B018


def test_importing_the_face_loads_nothing_behind_it() -> None:
    code = ("import sys, gitcorrex.ledger\n"
            "print(sorted(m for m in sys.modules if m.startswith(('gitcorrex.ledger.',"
            " 'gitcorrex.model', 'gitcorrex.git.')) or m in ('pygit2', 'pydantic')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(face.__file__).parents[2]).stdout
    assert out.strip() == "[]"


def test_no_face_name_is_a_module_name() -> None:
    """Importing `gitcorrex.ledger.x` binds `x` on the package: a face name `x` would then
    name the module instead of the function."""
    modules = {path.stem for path in Path(face.__file__).parent.glob("*.py")}
    assert sorted(modules & set(face.FACE)) == []
