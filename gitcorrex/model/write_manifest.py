"""A manifest: gitignore-style patterns (pathspec's GitIgnoreSpec) a change must stay within.

An empty manifest is unrestricted. Gitlinks are allowed only by a pattern naming exactly
their path: a glob such as `/vendor/**` must not let a commit swap a submodule's commit.
Symlinks are matched by their own path and never resolved.

pathspec compiles the patterns; the decision over its compilation is `rules_allow`
(manifest_rules.py), so a manifest rebuilt from the validated-manifest cache, which keeps
that compilation, decides without importing pathspec.
"""

from __future__ import annotations

from gitcorrex.model.manifest_rules import Compiled, Rule, compile_rules, compiled, rules_allow


class Manifest:
    """`patterns` as declared; `source` names where they came from (a stage, a step), for
    messages; `rules`: pathspec's compilation of `patterns` when already known (else compiled
    here). Equal by patterns and source. (A plain class: `dataclasses` loads `inspect`, ~6 ms
    of every agent hook call.)"""

    __slots__ = ("_regexes", "patterns", "rules", "source")

    def __init__(self, patterns: tuple[str, ...], source: str,
                 rules: tuple[Rule, ...] | None = None) -> None:
        self.patterns = patterns
        self.source = source
        self.rules: tuple[Rule, ...] = rules if rules is not None else compile_rules(patterns)
        self._regexes: Compiled = compiled(self.rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Manifest) and (self.patterns, self.source) == (
            other.patterns, other.source)

    def __hash__(self) -> int:
        return hash((self.patterns, self.source))

    def __repr__(self) -> str:
        return f"Manifest(patterns={self.patterns!r}, source={self.source!r})"

    @property
    def unrestricted(self) -> bool:
        return not self.patterns

    def allows(self, path: str, *, gitlink: bool = False) -> bool:
        """Whether a canonical repo-relative `path` may be written under this manifest."""
        if self.unrestricted:
            return True
        matched = rules_allow(self._regexes, path)
        if gitlink:
            named = {pattern.lstrip("/") for pattern in self.patterns
                     if not pattern.startswith("!")}
            return matched and path in named
        return matched


UNRESTRICTED = Manifest((), "no manifest", ())
