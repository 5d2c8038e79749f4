"""Who and what records a fact, as the JSON values every event's envelope carries.

A plain value, not a model: every writer stamps it (a plain `verify` included, which loads
no pydantic), and it only ever travels into a line. `actor` is git's identity (name and
email, None when unset), the host, this process's runtime id and, when its orchestrator
named it, the runtime's name; `tool` the versions of
git correx, git and libgit2. The models `events.Actor` / `events.ToolVersions` describe the
same keys for the published schema and read them back.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


class Provenance:
    """Fixed for one process; immutable. `actor` and `tool` accept a mapping or any flat
    record that iterates as (key, value) pairs."""

    __slots__ = ("actor", "tool")
    actor: Mapping[str, str | None]
    tool: Mapping[str, str]

    def __init__(self, *, actor: Mapping[str, str | None] | Iterable[tuple[str, str | None]],
                 tool: Mapping[str, str] | Iterable[tuple[str, str]]) -> None:
        given = dict(actor)
        if given.get("runtime_name", "") is None:  # unnamed: absent from the line, not null
            del given["runtime_name"]
        object.__setattr__(self, "actor", given)
        object.__setattr__(self, "tool", dict(tool))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Provenance is immutable: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and (self.actor, self.tool) == (other.actor,
                                                                            other.tool)

    def __hash__(self) -> int:
        return hash((tuple(self.actor.items()), tuple(self.tool.items())))

    def __repr__(self) -> str:
        return f"Provenance(actor={self.actor!r}, tool={self.tool!r})"

    @property
    def name(self) -> str | None:
        """The recorder's git name (None when git has none)."""
        return self.actor.get("name")

    @property
    def email(self) -> str | None:
        """The recorder's git email (None when git has none)."""
        return self.actor.get("email")

    @property
    def runtime_name(self) -> str | None:
        """The name of the runtime the recorder runs under (`CORREX_RUNTIME`), if any."""
        return self.actor.get("runtime_name")

    def stamp(self) -> dict[str, dict[str, str | None] | dict[str, str]]:
        """The envelope's `actor` and `tool` members (copies)."""
        return {"actor": dict(self.actor), "tool": dict(self.tool)}
