"""Reading `git push --porcelain`: one status per ref, and which rejections are lost races.

A push to a ref another clone moved first can be refused with many words, depending on
who noticed: the client (`non-fast-forward`, `fetch first`, `stale info` for a lease,
`remote ref updated since checkout`, `already exists`), or the server while it held the ref
lock (`failed to update ref`, `cannot lock ref`, `incorrect old value provided`, `failed to
lock`, `is at … but expected …`, `reference already exists`), or an `--atomic` push taken
down by one of those (`atomic push failed`). Matching only "non-fast-forward" turns every
other lost race into a hard failure; every one of them here means "fetch and try again".
"""

from __future__ import annotations

from dataclasses import dataclass

_LOST_RACE = ("non-fast-forward", "fetch first", "stale info", "remote ref updated since checkout",
              "already exists", "failed to update ref", "cannot lock ref", "incorrect old value",
              "failed to lock", "but expected", "atomic push failed")


@dataclass(frozen=True)
class RefStatus:
    """One line of the porcelain report: `flag` is git's (`!` rejected, `=` up to date,
    ` ` fast-forward, `+` forced, `*` new, `-` deleted); `summary` as git printed it."""

    ref: str
    flag: str
    summary: str

    @property
    def is_accepted(self) -> bool:
        return self.flag != "!"

    @property
    def is_lost_race(self) -> bool:
        """A rejection that a fetch and a new round can cure (see the module doc)."""
        return self.flag == "!" and any(words in self.summary for words in _LOST_RACE)

    def describe(self) -> str:
        return f"{self.ref}: {self.summary}"


def parse_push_report(text: str) -> dict[str, RefStatus]:
    """Each `<flag>\\t<src>:<dst>\\t<summary>` line, by destination ref; other lines skipped."""
    statuses: dict[str, RefStatus] = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or len(parts[0]) != 1 or ":" not in parts[1]:
            continue
        ref = parts[1].rsplit(":", 1)[1]
        statuses[ref] = RefStatus(ref, parts[0], "\t".join(parts[2:]).strip())
    return statuses
