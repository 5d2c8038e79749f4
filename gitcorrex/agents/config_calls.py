"""`git config` writes and configuration overrides in an agent's shell call: the keys only
people change (`model/operator_commands.py` PROTECTED_SECTIONS: `correx.*`, `gpg.*`,
`include*`) and values that name git correx (an alias that runs it).

A read (`git config KEY`, `--get*`, `--list`, `get`, `list`) is allowed; anything else that
touches such a key is a write: set, `--add`, `--unset*`, `--replace-all`, the section
commands, `--edit`. Environment overrides (`GIT_CONFIG_KEY_n`, `GIT_CONFIG_PARAMETERS`) and
replaced configuration files (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`,
`GIT_CONFIG_NOSYSTEM`) change what a git correx process reads without writing anything.
"""

from __future__ import annotations

import re

from gitcorrex.agents.shell_words import folded
from gitcorrex.model.operator_commands import is_protected_key

_CONFIG_ENV = re.compile(r"^(GIT_CONFIG(?:_PARAMETERS|_KEY_\d+|_VALUE_\d+|_GLOBAL|_SYSTEM|"
                         r"_NOSYSTEM|_COUNT)?)=(.*)$", re.DOTALL)
_PROTECTED_IN_TEXT = re.compile(r"(?:^|[\s='\"])(?:gpg|include|includeif)\.")


_WRITE_OPTIONS = frozenset({"--unset", "--unset-all", "--add", "--replace-all",
                            "--remove-section", "--rename-section", "--edit", "-e"})
_READ_OPTIONS = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list",
                           "-l", "--get-color", "--get-colorbool"})
_CONFIG_VALUE_OPTIONS = frozenset({"-f", "--file", "--blob", "--type", "--default",
                                   "--comment", "--value", "--url"})


def config_write(args: list[str]) -> str | None:
    """A `git config` that writes a protected key, or a value naming correx (an alias)."""
    positional, options, at = [], set(), 0
    while at < len(args):
        arg = args[at]
        if arg.startswith("-") and arg != "-":
            options.add(arg.split("=", 1)[0])
            at += 2 if arg in _CONFIG_VALUE_OPTIONS else 1
            continue
        positional.append(arg)
        at += 1
    touched = [p for p in positional if is_protected_key(p) or "correx" in folded(p)]
    if not touched or _is_config_read(positional, options):
        return None
    return f"`git config {' '.join(args)}` changes {touched[0]}: git configuration only " \
           "people change"


def _is_config_read(positional: list[str], options: set[str]) -> bool:
    if options & _WRITE_OPTIONS or positional[:1] in (["set"], ["unset"], ["edit"],
                                                       ["rename-section"], ["remove-section"]):
        return False
    return bool(options & _READ_OPTIONS) or positional[:1] in (["get"], ["list"]) or \
        len(positional) == 1


def config_env(word: str) -> str | None:
    """`GIT_CONFIG_KEY_0=correx.x`, `GIT_CONFIG_PARAMETERS=…`, `GIT_CONFIG_GLOBAL=…`: git
    configuration given to the process instead of written."""
    matched = _CONFIG_ENV.match(word)
    if matched is None:
        return None
    name, value = matched.groups()
    plain = folded(value)
    if name.endswith(("_GLOBAL", "_SYSTEM", "_NOSYSTEM")) or name == "GIT_CONFIG" or \
            "correx" in plain or _PROTECTED_IN_TEXT.search(plain):
        return f"`{name}=…` changes the git configuration a process reads"
    return None
