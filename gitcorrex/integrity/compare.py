"""Baseline cases against current cases: the weakenings a person would name.

Per test (file + qualified name):
- gone from its file and from every file the change touched, under its name, its bare
  name (moved out of a class), its body (renamed) or a like name among the tests the
  change added to its file (renamed and rewritten: successors.py): **removed**; found with
  the same body under a name no runner collects: **renamed away**;
- a marker (skip, xfail, only, ignore, todo) its baseline did not carry: **skip added**
  (groups too: `describe.skip`, a class decorator, `pytestmark`); `only` also on a new test,
  since it turns the others off;
- fewer assertions than its baseline ran (helpers it calls counted, trivially true ones
  not): **assertions removed**. An assertion rewritten, or moved into a helper the test
  calls, keeps the count and is not a weakening; one made always true is both dropped from
  the count and named: **assertion made trivially true**.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping

from gitcorrex.integrity.cases import Case, FileCases
from gitcorrex.integrity.findings import Weakening
from gitcorrex.integrity.successors import successors
from gitcorrex.model.test_integrity import WeakeningRule as Rule

LISTED = 3

Located = tuple[str, Case]


def compare_cases(old: Mapping[str, FileCases], new: Mapping[str, FileCases]
                  ) -> list[Weakening]:
    """Every weakening from the `old` side of the changed test files to the `new` side
    (a path absent from `new` was deleted), in path order."""
    index = _Index(new)
    found: list[Weakening] = []
    gone: dict[str, list[Case]] = {}
    taken: set[tuple[str, str]] = set()
    for path in sorted(old):
        before, after = old[path], new.get(path)
        for case in before.cases.values():
            here = after.cases.get(case.name) if after is not None else None
            if case.group:
                if here is not None:
                    found.extend(_markers_added(path, case, here))
                continue
            now: Located | None = (path, here) if here is not None else \
                index.moved(path, case)
            if now is None:
                away = index.renamed_away(path, case)
                found.extend([away] if away else [])
                gone.setdefault(path, []).extend([] if away else [case])
                continue
            taken.add((now[0], now[1].name))
            found.extend(_weakened(now[0], case, now[1]))
    for path, case, successor in successors(gone, old, new, taken):
        found.extend(_weakened(path, case, successor) if successor is not None
                     else [_removed(path, case)])
    found.extend(_new_only(old, new))
    return found


class _Index:
    """The current side's tests by name, bare name and body shape."""

    def __init__(self, new: Mapping[str, FileCases]) -> None:
        self.by_name: dict[str, list[Located]] = {}
        self.by_leaf: dict[str, list[Located]] = {}
        self.by_shape: dict[str, list[Located]] = {}
        self.functions: dict[str, tuple[str, str]] = {}
        for path, cases in sorted(new.items()):
            for case in cases.cases.values():
                if case.group:
                    continue
                self.by_name.setdefault(case.name, []).append((path, case))
                self.by_leaf.setdefault(_leaf(case.name), []).append((path, case))
                if case.shape:
                    self.by_shape.setdefault(case.shape, []).append((path, case))
            for shape, name in cases.shapes.items():
                self.functions.setdefault(shape, (path, name))

    def moved(self, path: str, case: Case) -> Located | None:
        """The same test elsewhere: its name in another file, its bare name (one match,
        the same file first), or its body unchanged under a new test name."""
        named = self.by_name.get(case.name, [])
        if named:
            return named[0]
        leaf = self.by_leaf.get(_leaf(case.name), [])
        same_file = [found for found in leaf if found[0] == path]
        if len(same_file) == 1 or (not same_file and len(leaf) == 1):
            return (same_file or leaf)[0]
        shaped = self.by_shape.get(case.shape, []) if _telling(case) else []
        return shaped[0] if shaped else None

    def renamed_away(self, path: str, case: Case) -> Weakening | None:
        """Renamed to a name no runner collects (its body found unchanged), or None."""
        found = self.functions.get(case.shape) if _telling(case) else None
        if found is None:
            return None
        where, name = found
        place = "" if where == path else f" in {where}"
        what = f"`{name}` is still defined{place}" if name == _leaf(case.name) else \
            f"its body is now `{name}`{place}"
        return Weakening(path, case.name, Rule.TEST_RENAMED_AWAY,
                         f"{what}, but no runner collects it", case.line)


def _removed(path: str, case: Case) -> Weakening:
    detail = _count(len(case.assertions), "assertion") + " no longer run"
    return Weakening(path, case.name, Rule.TEST_REMOVED,
                     f"no test of that name, body or a like name remains; {detail}",
                     case.line)


def _telling(case: Case) -> bool:
    """Whether the body says which test it is: an empty or assertion-free body is shared by
    too many functions to follow one through a rename."""
    return bool(case.shape and case.assertions)


def _leaf(name: str) -> str:
    return name.rsplit("::", 1)[-1].rsplit(" > ", 1)[-1].rsplit(".", 1)[-1]


def _weakened(path: str, before: Case, after: Case) -> Iterator[Weakening]:
    yield from _markers_added(path, before, after)
    trivial = list((Counter(after.trivial) - Counter(before.trivial)).elements())
    if trivial:
        yield Weakening(path, after.name, Rule.ASSERTION_TRIVIAL,
                        _quoted(trivial) + " always holds", after.line)
    if len(after.assertions) < len(before.assertions):
        dropped = list((Counter(before.assertions) - Counter(after.assertions)).elements())
        counts = f"{len(before.assertions)} → {len(after.assertions)}"
        what = "no assertion left" if not after.assertions else "removed or changed"
        yield Weakening(path, after.name, Rule.ASSERTIONS_REMOVED,
                        f"{counts}, {what}: {_quoted(dropped)}", after.line)


def _markers_added(path: str, before: Case, after: Case) -> Iterator[Weakening]:
    added = sorted(after.markers - before.markers)
    if added:
        kind = "group " if after.group else ""
        yield Weakening(path, after.name, Rule.SKIP_ADDED,
                        f"{kind}marked {', '.join(added)}", after.line)


def _new_only(old: Mapping[str, FileCases], new: Mapping[str, FileCases]
              ) -> Iterator[Weakening]:
    """`only` on a test the baseline did not have: every other test stops running."""
    for path in sorted(new):
        before = old.get(path)
        for case in new[path].cases.values():
            known = before.cases.get(case.name) if before is not None else None
            if "only" in case.markers and known is None:
                yield Weakening(path, case.name, Rule.SKIP_ADDED,
                                "marked only: the other tests no longer run", case.line)


def _quoted(texts: list[str]) -> str:
    shown = ", ".join(f"`{text[:120]}`" for text in texts[:LISTED])
    more = len(texts) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
