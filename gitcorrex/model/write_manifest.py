"""A manifest: gitignore-style patterns (pathspec's GitIgnoreSpec) a change must stay within.

An empty manifest is unrestricted. Gitlinks are allowed only by a pattern naming exactly
their path: a glob such as `/vendor/**` must not let a commit swap a submodule's commit.
Symlinks are matched by their own path and never resolved.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pathspec


@dataclass(frozen=True)
class Manifest:
    """`patterns` as declared; `stage` (or step) names where they came from, for messages."""

    patterns: tuple[str, ...]
    source: str
    _spec: pathspec.GitIgnoreSpec = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_spec", pathspec.GitIgnoreSpec.from_lines(self.patterns))

    @property
    def unrestricted(self) -> bool:
        return not self.patterns

    def allows(self, path: str, *, gitlink: bool = False) -> bool:
        """Whether a canonical repo-relative `path` may be written under this manifest."""
        if self.unrestricted:
            return True
        matched = bool(self._spec.match_file(path))
        if gitlink:
            named = {pattern.lstrip("/") for pattern in self.patterns
                     if not pattern.startswith("!")}
            return matched and path in named
        return matched


UNRESTRICTED = Manifest((), "no manifest")
