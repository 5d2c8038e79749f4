"""Referenced symbols: definitions a step assumes, looked up in the tree's symbol index.

A reference is `Name`, `Outer.Name`, a module- or package-qualified `pkg.mod.Name`, or
`path:Name` for one file (`::` and `Class#method` are read as `.`). Present needs a
parsed definition; several different definitions matching only by suffix are ambiguous.
Not found is `absent` only when nothing unparsed could hold it: if a source file in a
language without a grammar, or a file tree-sitter could not fully parse, mentions the
name, it is `unknown` (and needs clarification), never absent and never present.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from gitcorrex.model.grounding import Check, GroundingFinding, Route, Status
from gitcorrex.model.plan import PlanStep
from gitcorrex.plan.grounding.candidates import path_candidates, symbol_candidates
from gitcorrex.plan.grounding.inputs import GroundingInput, finding
from gitcorrex.plan.grounding.tree_view import PathRef, parse_path_ref
from gitcorrex.symbols.index import SymbolIndex
from gitcorrex.symbols.languages import language_of

_HASH_SEPARATOR = re.compile(r"(?<=\w)#(?=\w)")


@dataclass(frozen=True)
class SymbolRef:
    text: str
    path: PathRef | None
    name: str


def parse_symbol_ref(text: str) -> SymbolRef:
    stripped = text.strip()
    head, sep, tail = stripped.partition(":")
    path = None
    if sep and tail and not tail.startswith(":") and ("/" in head or "." in head):
        path, stripped = parse_path_ref(head), tail
    name = _HASH_SEPARATOR.sub(".", stripped.replace("::", ".")).strip()
    return SymbolRef(text, path, name.removesuffix("()"))


def check_symbols(given: GroundingInput) -> list[GroundingFinding]:
    return [_check_symbol(given, step, parse_symbol_ref(text))
            for step in given.plan.steps for text in step.symbols]


def _check_symbol(given: GroundingInput, step: PlanStep, ref: SymbolRef) -> GroundingFinding:
    found = partial(finding, Check.SYMBOL, step.id, ref.text)

    if not ref.name or ref.name.startswith(".") or ref.name.endswith("."):
        return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT, detail="not a symbol name")
    if ref.path is not None:
        return _in_file(given, step, ref)
    index = given.symbols()
    matches = matching_definitions(index, ref.name)
    if len(matches) == 1:
        return found(Status.PRESENT, Route.PASS, paths=next(iter(matches.values())))
    if matches:
        listed = sorted(f"{paths[0]}:{name}" for name, paths in matches.items())
        return found(Status.AMBIGUOUS, Route.RETURN_TO_ARCHITECT, candidates=listed,
                     detail=f"{len(matches)} different definitions match: qualify it "
                            "(Outer.Name or path:Name)")
    leaf = ref.name.rpartition(".")[2]
    unproven = given.mentions(leaf)
    if unproven:
        return found(Status.UNKNOWN, Route.CLARIFICATION_REQUIRED, candidates=unproven,
                     detail=f"no parsed definition, but {len(unproven)} file(s) in a language "
                            f"without a grammar or with syntax errors mention {leaf!r}")
    return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT,
                 candidates=symbol_candidates(index, ref.name))


def matching_definitions(index: SymbolIndex, name: str) -> dict[str, list[str]]:
    """Defined name → paths, for exact, module-qualified, then suffix matches."""
    exact = index.paths_defining(name)
    if exact:
        return {name: exact}
    leaf = name.rpartition(".")[2]
    found: dict[str, list[str]] = {}
    for defined in index.names_ending_in(leaf):
        if name.endswith("." + defined):
            prefix = name[:-len(defined) - 1]
            paths = [p for p in index.paths_defining(defined) if _module_matches(p, prefix)]
            if paths:
                found[defined] = paths
    if found:
        return found
    return {defined: index.paths_defining(defined) for defined in index.names_ending_in(leaf)
            if defined.endswith("." + name)}


def _module_matches(path: str, prefix: str) -> bool:
    """`pkg.client` names `src/pkg/client.py` (its module) or any file in `src/pkg/`."""
    directory, _, filename = path.rpartition("/")
    stem = filename.rsplit(".", 1)[0] if "." in filename[1:] else filename
    module = f"{directory}/{stem}" if directory else stem
    return any(candidate == prefix or candidate.endswith("." + prefix)
               for candidate in (module.replace("/", "."), directory.replace("/", "."))
               if candidate)


def _in_file(given: GroundingInput, step: PlanStep, ref: SymbolRef) -> GroundingFinding:
    """`path:Name`: the file must exist, be parsed, and define `Name` (or `Outer.Name`)."""
    found = partial(finding, Check.SYMBOL, step.id, ref.text)
    if ref.path is None:
        raise ValueError(f"{ref.text}: not a `path:Name` reference")
    path = ref.path.path
    if ref.path.problem is not None:
        return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT,
                     detail=f"not a repository path: {ref.path.problem}")
    entry = given.view.by_path.get(path)
    if entry is None:
        return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT, detail=f"no file {path}",
                     candidates=path_candidates(given.view, path))
    if language_of(path) is None or not entry.is_file:
        return found(Status.UNKNOWN, Route.CLARIFICATION_REQUIRED,
                     detail=f"no grammar for {path}: its symbols cannot be checked")
    index = given.symbols()
    matches = index.defined_in(path, ref.name)
    if ref.name in matches or len(matches) == 1:
        return found(Status.PRESENT, Route.PASS, paths=[path])
    if matches:
        return found(Status.AMBIGUOUS, Route.RETURN_TO_ARCHITECT,
                     candidates=[f"{path}:{n}" for n in matches],
                     detail=f"{len(matches)} definitions in {path} match: qualify it")
    if not index.is_complete(path):
        return found(Status.UNKNOWN, Route.CLARIFICATION_REQUIRED,
                     detail=f"{path} has syntax errors (or is too large or binary) and "
                            "defines no such name where it could be parsed")
    return found(Status.ABSENT, Route.RETURN_TO_ARCHITECT,
                 candidates=symbol_candidates(index, ref.name))
