"""A manifest: gitignore-style patterns (pathspec's GitIgnoreSpec) a change must stay within.

An empty manifest is unrestricted. Gitlinks are allowed only by a pattern naming exactly
their path: a glob such as `/vendor/**` must not let a commit swap a submodule's commit.
Symlinks are matched by their own path and never resolved.

pathspec compiles the patterns; the decision over its compilation is `rules_allow`
(manifest_rules.py), so a manifest rebuilt from the validated-manifest cache, which keeps
that compilation, decides without importing pathspec.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gitcorrex.model.manifest_rules import Compiled, Rule, compile_rules, compiled, rules_allow


@dataclass(frozen=True)
class Manifest:
    """`patterns` as declared; `stage` (or step) names where they came from, for messages;
    `rules`: pathspec's compilation of `patterns` when already known (else compiled here)."""

    patterns: tuple[str, ...]
    source: str
    rules: tuple[Rule, ...] | None = field(default=None, repr=False, compare=False)
    _regexes: Compiled = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = self.rules if self.rules is not None else compile_rules(self.patterns)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "_regexes", compiled(rules))

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
