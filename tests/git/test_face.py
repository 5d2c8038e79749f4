"""The git face (`gitcorrex/git/__init__.py`): one list of names, each one importable and
typed, loaded only when first used."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import gitcorrex.git as face
from tests.face_imports import typed_imports

PACKAGE = Path(face.__file__).resolve().parent.parent


def test_the_typed_imports_are_the_face_list() -> None:
    assert typed_imports(face, strip="gitcorrex.git.") == face.FACE


def test_every_face_name_is_defined_where_the_list_says() -> None:
    for name, module in face.FACE.items():
        assert hasattr(importlib.import_module(f"gitcorrex.git.{module}"), name), name
        assert getattr(face, name) is getattr(
            importlib.import_module(f"gitcorrex.git.{module}"), name)


def test_every_face_name_is_used_outside_git() -> None:
    """A name nobody outside `git/` uses is not part of the door: drop it."""
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] == "git":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "gitcorrex.git":
                used.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "git":
                used.add(node.attr)
    assert sorted(set(face.FACE) - used) == []


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        face.no_such_operation  # noqa: B018
    except AttributeError as exc:
        assert "no_such_operation" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_importing_the_face_loads_no_engine() -> None:
    code = ("import sys, gitcorrex.git\n"
            "print(sorted(m for m in sys.modules if m.startswith('gitcorrex.git.')"
            " or m in ('pygit2', 'typing')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent).stdout
    assert out.strip() == "[]"


def test_no_face_name_is_a_module_name() -> None:
    """Importing `gitcorrex.git.x` binds `x` on the package: a face name `x` would then
    name the module instead of the operation."""
    modules = {path.stem for path in (PACKAGE / "git").glob("*.py")}
    assert sorted(modules & set(face.FACE)) == []
