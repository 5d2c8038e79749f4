"""Attribute rules the tree does not declare are refused: they could make the key lie.

Attributes decide which bytes `git add` stores for a path: `filter` (a clean command),
`text`, `eol` and `crlf` (line endings), `ident` (`$Id$`), `working-tree-encoding`. Declared
in the tree's own `.gitattributes`, such a rule is part of the key: the tree carries it, a
reviewer sees it, every checkout applies it. Declared anywhere else — `info/attributes`,
`core.attributesFile` (default `$XDG_CONFIG_HOME/git/attributes`), the system file, `git
-c`, another tree (`GIT_ATTR_SOURCE`, `attr.tree`) — it can map an edited file back to
HEAD's bytes, and the key would name a tree the commands never ran on. `core.autocrlf`
(true or input) is `text=auto` on every path, from config.

Such a rule is refused (exit 3) naming where it is and the paths it applies to now. Only
the sources are read (a few stat()s; a small file when one exists), never each path's
attributes: `git check-attr` over 50,000 paths costs ~100 ms, as much as the whole key. So
a rule is refused whether or not a path matches it yet (the file an agent creates next
would). Rules that only take conversions away (`-text`, `binary`, `-filter`, `!eol`) and
attributes that change no bytes (`diff`, `merge`, `linguist-*`) are accepted. The paths a
refused rule applies to are looked up only once refusing (`undeclared_error`).
"""

from __future__ import annotations

import os
from pathlib import Path

from gitcorrex.errors import UnavailableError
from gitcorrex.git.process import decode_path, run_git

BYTE_ATTRIBUTES = frozenset({"text", "eol", "crlf", "ident", "filter", "working-tree-encoding"})
SYSTEM_FILE = Path("/etc/gitattributes")  # git's ETC_GITATTRIBUTES as distributions build it
TRUE_VALUES = ("true", "yes", "on", "1", "input")
SHOWN_PATHS = 3
SETTING_EFFECTS = {
    "GIT_ATTR_SOURCE": "makes git read attributes from that tree, not from the work tree",
    "attr.tree": "makes git read attributes from that tree, not from the work tree",
    "core.autocrlf": "converts the line endings of every text file (`text=auto` on every "
                     "path)",
}
SETTING_FIXES = {
    "GIT_ATTR_SOURCE": "unset GIT_ATTR_SOURCE, then retry",
    "attr.tree": "`git config --unset attr.tree` (or --global), then retry",
    "core.autocrlf": "`git config core.autocrlf false` in this repository (declare line "
                     "endings in a committed .gitattributes if the project needs them), "
                     "then retry",
}


class ByteRule:
    """Where a byte-changing rule comes from: a file and line, or a setting (line 0)."""

    __slots__ = ("attribute", "line", "source", "text", "value")

    def __init__(self, source: str, line: int, text: str, attribute: str, value: str) -> None:
        self.source, self.line, self.text = source, line, text
        self.attribute, self.value = attribute, value


def undeclared_rule(root: Path, common_dir: Path, settings: list[str],
                    user_file: Path) -> ByteRule | None:
    """The first rule outside the tree that changes the bytes git stores; None: none."""
    source = os.environ.get("GIT_ATTR_SOURCE")
    if source:
        return ByteRule("GIT_ATTR_SOURCE", 0, f"GIT_ATTR_SOURCE={source}", "attributes", "")
    for key, value in _settings(settings):
        if key == "attr.tree":
            return ByteRule("attr.tree", 0, f"attr.tree={value}", "attributes", "")
        if key == "core.autocrlf" and (value is None or value.lower() in TRUE_VALUES):
            return ByteRule("core.autocrlf", 0, f"core.autocrlf={value or 'true'}", "text",
                            "auto")
    files = [common_dir / "info" / "attributes", user_file]
    if not os.environ.get("GIT_ATTR_NOSYSTEM"):
        files.append(SYSTEM_FILE)
    macros = MacroTable(root / ".gitattributes")
    for path in files:
        rule = byte_rule(path, macros)
        if rule is not None:
            return rule
    return None


def _settings(settings: list[str]) -> list[tuple[str, str | None]]:
    """("key", value) pairs of `git config -z --get-regexp` entries; the last one wins."""
    pairs = [(entry.partition("\n")[0].lower(), entry.partition("\n")[2] if "\n" in entry
              else None) for entry in settings]
    last = dict(pairs)
    return [(key, last[key]) for key in dict.fromkeys(key for key, _ in pairs)]


class MacroTable:
    """The macros the tree's top-level .gitattributes defines (the only file in the tree
    git reads `[attr]` lines from), read on first use: a rule outside the tree may set one
    (`*.toml binary`, after the tree redefined `binary`)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._table: dict[str, list[str]] | None = None

    def changes_bytes(self, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether setting macro `name` sets an attribute that changes bytes."""
        if self._table is None:
            self._table = {}
            for line in _lines(self._path):
                if line.startswith("[attr]"):
                    self._table[line.split()[0][6:]] = _states(line)
        for state in self._table.get(name, []):
            attribute, equals, _ = state.partition("=")
            if state[:1] in "-!":
                continue
            if attribute in BYTE_ATTRIBUTES or (
                    not equals and attribute not in seen
                    and self.changes_bytes(attribute, seen | {name})):
                return True
        return False


def byte_rule(path: Path, macros: MacroTable | None = None) -> ByteRule | None:
    """The first line of the attributes file `path` that sets an attribute changing bytes
    (or a macro that does, or defines one); None without such a line or without a file
    (git ignores a file it cannot read, and so may we)."""
    for number, line in enumerate(_lines(path), 1):
        for state in _states(line):
            name, equals, value = state.partition("=")
            if state[:1] in "-!":
                continue
            if name in BYTE_ATTRIBUTES or (
                    not equals and macros is not None and macros.changes_bytes(name)):
                return ByteRule(str(path), number, line, name, value or "set")
    return None


def _lines(path: Path) -> list[str]:
    """The lines of an attributes file, stripped, comments and blanks as ""; [] without
    a readable file."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    lines = [decode_path(raw).strip(" \t\r") for raw in data.split(b"\n")]
    return ["" if line.startswith("#") else line for line in lines]


def _states(line: str) -> list[str]:
    """The attribute states of one line, its pattern (quoted or not) left out; a macro
    definition (`[attr]name states`) gives its states too."""
    if not line:
        return []
    if line.startswith('"'):
        end = 1
        while end < len(line) and line[end] != '"':
            end += 2 if line[end] == "\\" else 1
        return line[end + 1:].split()
    return line.split()[1:]


def undeclared_error(rule: ByteRule, root: Path, env: dict[str, str],
                     keep_fds: tuple[int, ...]) -> UnavailableError:
    """The refusal, naming the rule and (for a file's rule) the paths it applies to."""
    if rule.line == 0:
        return UnavailableError(
            f"cannot compute the state key: {rule.text} {SETTING_EFFECTS[rule.source]}, which "
            f"the tree's own .gitattributes do not declare; git would store other bytes than "
            f"the commands read", hint=SETTING_FIXES[rule.source])
    paths = _paths_taking(rule, root, env, keep_fds)
    shown = ", ".join(paths[:SHOWN_PATHS]) + (
        f" and {len(paths) - SHOWN_PATHS} more" if len(paths) > SHOWN_PATHS else "")
    where = f" on {shown}" if paths else " (on no path yet: a new file could take it)"
    return UnavailableError(
        f"cannot compute the state key: {rule.source} line {rule.line} (`{rule.text}`) sets "
        f"`{rule.attribute}`{where}, which the tree's own .gitattributes do not declare; git "
        f"would store other bytes than the commands read",
        hint=f"delete that line from {rule.source}, or declare the rule in a committed "
             ".gitattributes, then retry")


def _paths_taking(rule: ByteRule, root: Path, env: dict[str, str],
                  keep_fds: tuple[int, ...]) -> list[str]:
    """The keyed paths whose `rule.attribute` has the rule's value (asked only when
    refusing: a `git check-attr` of every path)."""
    listed = run_git(["ls-files", "-z"], cwd=root, env=env, keep_fds=keep_fds).stdout
    out = run_git(["check-attr", "--stdin", "-z", rule.attribute], cwd=root, env=env,
                  keep_fds=keep_fds, stdin=listed).stdout.split(b"\0")
    return [decode_path(path) for path, value in zip(out[0::3], out[2::3], strict=False)
            if decode_path(value) == rule.value]
