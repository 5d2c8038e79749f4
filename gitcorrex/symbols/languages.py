"""Which language a path is in, its grammar, and the version of its extractor.

A path's language comes from its extension only (deterministic, no content sniffing).
Extensions of source languages we ship no grammar for are listed too: a symbol such a
file might define can never be proven absent, so grounding reports it as `unknown`.
The extractor version changes whenever our rules or the grammar's tables change, so a
cached result is never reused across either.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from typing import Any

RULES_VERSION = 1

EXTENSIONS: dict[str, str] = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".kt": "kotlin", ".kts": "kotlin",
}

NO_GRAMMAR_EXTENSIONS = frozenset({
    ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".m", ".mm", ".cs", ".fs",
    ".vb", ".rb", ".php", ".swift", ".scala", ".sc", ".groovy", ".lua", ".pl", ".pm", ".r",
    ".dart", ".ex", ".exs", ".erl", ".hrl", ".hs", ".ml", ".mli", ".clj", ".cljs", ".elm",
    ".jl", ".nim", ".zig", ".d", ".f90", ".f", ".sh", ".bash", ".zsh", ".ps1", ".vue",
    ".svelte", ".sol", ".cr", ".v", ".vala", ".pas", ".ada", ".adb", ".cob", ".tcl",
})


def _python() -> Any:
    import tree_sitter_python

    return tree_sitter_python.language()


def _javascript() -> Any:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


def _typescript() -> Any:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_typescript()


def _tsx() -> Any:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_tsx()


def _go() -> Any:
    import tree_sitter_go

    return tree_sitter_go.language()


def _rust() -> Any:
    import tree_sitter_rust

    return tree_sitter_rust.language()


def _java() -> Any:
    import tree_sitter_java

    return tree_sitter_java.language()


def _kotlin() -> Any:
    import tree_sitter_kotlin

    return tree_sitter_kotlin.language()


GRAMMARS: dict[str, Callable[[], Any]] = {
    "python": _python, "javascript": _javascript, "typescript": _typescript, "tsx": _tsx,
    "go": _go, "rust": _rust, "java": _java, "kotlin": _kotlin,
}


def extension(path: str) -> str:
    """The lower-cased extension of the path's last component ("" when it has none)."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def language_of(path: str) -> str | None:
    """The language we can parse `path` in, or None (no grammar, or not source at all)."""
    return EXTENSIONS.get(extension(path))


def is_unparsed_source(path: str) -> bool:
    """Whether `path` is source code in a language we ship no grammar for."""
    return extension(path) in NO_GRAMMAR_EXTENSIONS


@cache
def grammar(language: str) -> Any:
    """The tree-sitter Language for `language` (loaded once per process)."""
    import tree_sitter

    return tree_sitter.Language(GRAMMARS[language]())


@cache
def extractor_version(language: str) -> str:
    """`<language>-<rules version>-<grammar fingerprint>`: changes with the rules or grammar.

    The fingerprint hashes the grammar's own tables (ABI, node kinds, fields, parse
    states, semantic version): reading package metadata would cost ~30 ms per process.
    """
    lang = grammar(language)
    semantic = getattr(lang, "semantic_version", None)
    shape = (lang.abi_version, lang.node_kind_count, lang.field_count, lang.parse_state_count,
             semantic)
    digest = hashlib.sha1(repr(shape).encode()).hexdigest()[:12]
    return f"{language}-{RULES_VERSION}-{digest}"


def extractor_versions() -> dict[str, str]:
    """Every language's extractor version, as recorded with an index."""
    return {language: extractor_version(language) for language in sorted(GRAMMARS)}
