"""The files a Codex `apply_patch` touches, read from its envelope's headers.

Codex's patch format names every file on a header line: `*** Add File: PATH`,
`*** Update File: PATH` (optionally followed by `*** Move to: NEW`) and
`*** Delete File: PATH`, between `*** Begin Patch` and `*** End Patch`. The hunks carry no
paths. A patch whose envelope is missing or that names no file cannot be judged.
"""

from __future__ import annotations

from gitcorrex.agents.payload import PayloadError

HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")
BEGIN = "*** Begin Patch"
END = "*** End Patch"


def patch_paths(text: str) -> tuple[str, ...]:
    """Every path a header names, in order, each once (a move names both sides)."""
    lines = text.splitlines()
    if not any(line.strip() == BEGIN for line in lines) or \
            not any(line.strip() == END for line in lines):
        raise PayloadError("apply_patch: no '*** Begin Patch' ... '*** End Patch' envelope",
                           hint="the patch cannot be judged, so it is blocked")
    paths: list[str] = []
    for line in lines:
        for header in HEADERS:
            if line.startswith(header):
                path = line[len(header):].strip()
                if not path:
                    raise PayloadError(f"apply_patch: {header.strip()} names no file")
                if path not in paths:
                    paths.append(path)
    if not paths:
        raise PayloadError("apply_patch: the patch names no file")
    return tuple(paths)
