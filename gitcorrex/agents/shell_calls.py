"""Before an agent's shell call runs: does its text run a decision reserved to people?

The decisions are the operator commands of `model/operator_commands.py` (authorize, audit,
route, resume, clarify, adopt, review, `plan lock --baseline-unverified`) and changes to git
configuration only people make (`correx.*`, `gpg.*`, `include*`). The call is denied when:

1. **it runs one** — a git correx entry (`git correx`, `git-correx` by any path,
   `python -m gitcorrex`, a Python script or `-c` program naming gitcorrex) anywhere in any
   simple command (so behind `env`, `sudo`, `timeout`, `FOO=1`, `&&`, `;`, `|`, a newline),
   inside `$(…)` and backquotes, and inside every quoted word that mentions correx, read
   again as shell text (`bash -c '…'`, `sh -c`, `eval '…'`, `python -c "…"`, `ssh host '…'`);
   or its command words are built at run time (`git correx plan "$CMD"`, `git $X …`);
2. **it changes protected configuration** — a `git config` write (set, `--add`, `--unset`,
   `--replace-all`, `--rename-section`, `--remove-section`, `--edit`) of a protected key or
   one whose value mentions correx (an alias), a `git -c`/`--config-env` override of one,
   or a `GIT_CONFIG_*` environment override;
3. **it cannot be read with confidence** — it names an operator keyword (authorize, audit,
   route, resume, clarify, adopt, review, baseline-unverified, config) together with git
   correx or git, and also builds or runs code at run time (`$`, backquotes, a here-document,
   `eval`, `source`, `xargs`, a shell or an interpreter), or its quoting does not parse.

A call that mentions neither correx, gpg nor a keyword is allowed before anything is parsed.
What this cannot see — a script written to a file and run later, a name assembled without
any of those words — meets the next layers: the command refuses inside an agent runtime
(cli/operator_guard.py) and, with `correx.requireSignedDecisions`, an unsigned decision does
not count (docs/plan-authority.md).

Import-light (shlex and re): this runs before every shell call of an agent session.
"""

from __future__ import annotations

import re

from gitcorrex.agents.config_calls import config_env, config_write
from gitcorrex.agents.request import ALLOW, Verdict
from gitcorrex.agents.shell_words import SEPARATORS, folded, shell_words
from gitcorrex.model.operator_commands import (
    OPERATOR_COMMANDS,
    is_protected_key,
    operator_command,
)

MAX_TEXT = 65_536  # shlex is quadratic on huge strings: longer calls are not parsed
MAX_DEPTH = 4  # quoted text inside quoted text, read again at most this deep
_KEYWORDS = sorted({command.keyword for command in OPERATOR_COMMANDS} | {"config"})
_KEYWORD = re.compile(r"(?<![a-z0-9_])(?:" + "|".join(map(re.escape, _KEYWORDS)) +
                      r")(?![a-z0-9_])")
_GLOBS = frozenset("$`*?[{")
_RUNNERS = frozenset({"eval", "exec", "source", "xargs", "parallel", "sh", "bash", "zsh",
                      "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox", "perl", "ruby",
                      "node", "nodejs", "deno", "bun", "php", "lua", "awk", "gawk", "mawk",
                      "nawk", "tclsh", "pwsh", "powershell", "osascript"})
_PYTHON = re.compile(r"^(?:python|pypy)[0-9.]*(?:\.exe)?$")
_GIT_VALUE_OPTIONS = frozenset({"-C", "--git-dir", "--work-tree", "--namespace",
                                "--attr-source"})
_PERSON = ("ask the person you work for to run it in their own terminal; an agent may not "
           "make this decision (docs/plan-authority.md, operator decisions)")


def judge_shell_call(command: str) -> Verdict:
    """Deny a shell call that runs, or may run, a decision reserved to people."""
    found = operator_call(command)
    if found is None:
        return ALLOW
    return Verdict(True, f"git correx: this shell call is denied: {found}.\n{_PERSON}")


def operator_call(text: str) -> str | None:
    """What in `text` is reserved to people, in a few words; None when nothing is."""
    plain = folded(text)
    mentions = "correx" in plain
    keyword = _KEYWORD.search(plain) is not None
    if not (mentions or keyword or "gpg" in plain):
        return None
    if len(text) > MAX_TEXT:
        return f"{len(text):,} characters naming git correx or its configuration are too " \
               "long to read" if mentions or keyword else None
    try:
        tokens = shell_words(text)
    except ValueError:
        return "its quoting does not parse, and it names git correx and an operator " \
               "keyword" if mentions and keyword else None
    found = _scan(tokens, 0)
    if found is None and keyword and (mentions or "git" in tokens) and _runs_later(text, tokens):
        found = ("it names an operator keyword and builds or runs what it executes at run "
                 "time, so what it runs cannot be told before it runs")
    return found


def _scan(tokens: list[str], depth: int) -> str | None:
    segment: list[str] = []
    for token in [*tokens, ";"]:
        if token and all(char in SEPARATORS for char in token):
            found = _segment(segment, depth)
            if found is not None:
                return found
            segment = []
        else:
            segment.append(token)
    return None


def _segment(words: list[str], depth: int) -> str | None:
    """Every word of one simple command: an entry, an override, quoted shell text."""
    for at, word in enumerate(words):
        found = _entry(words, at) or config_env(word) or _nested(word, depth)
        if found is not None:
            return found
    return None


def _entry(words: list[str], at: int) -> str | None:
    name = words[at].replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name in ("git-correx", "git-correx.exe"):
        return _correx(words[at + 1:], words[at])
    if name in ("git", "git.exe"):
        return _git(words[at + 1:])
    if _PYTHON.match(name):
        return _python(words[at + 1:])
    return None


def _correx(argv: list[str], entry: str) -> str | None:
    """An operator command among a git correx invocation's arguments, or words we cannot
    read (an expansion where a command word or a flag would be)."""
    command = operator_command(argv)
    if command is not None:
        return f"`{command.name}` records a decision reserved to people"
    words = [arg for arg in argv if not arg.startswith("-")]
    if _is_open_path(words):
        return f"the git correx command `{_shown(entry, argv)}` runs is decided at run time"
    for flagged in (c for c in OPERATOR_COMMANDS if c.flag is not None):
        if tuple(words[:len(flagged.words)]) == flagged.words and \
                any(_is_dynamic(arg) for arg in argv):
            return f"`{_shown(entry, argv)}` may be `{flagged.name}` (its arguments are " \
                   "decided at run time)"
    return None


def _git(args: list[str]) -> str | None:
    """git's own options (`-c` overrides among them), then its subcommand."""
    at, overrides = 0, []
    while at < len(args) and args[at].startswith("-"):
        option = args[at]
        if option in ("-c", "--config-env"):
            overrides.append(args[at + 1] if at + 1 < len(args) else "")
            at += 2
            continue
        if option.startswith("--config-env="):
            overrides.append(option.split("=", 1)[1])
        at += 2 if option in _GIT_VALUE_OPTIONS else 1
    for override in overrides:
        key, _, value = override.partition("=")
        if is_protected_key(key) or "correx" in folded(value):
            return f"`git -c {override}` sets {key} for that git process: git configuration " \
                   "only people change"
    if at >= len(args):
        return None
    if args[at] == "correx":
        return _correx(args[at + 1:], "git correx")
    if args[at] == "config":
        return config_write(args[at + 1:])
    if _is_dynamic(args[at]):
        return f"the git command `git {args[at]}` is decided at run time"
    return None


def _python(args: list[str]) -> str | None:
    """`python -m gitcorrex …`, `python -c "…gitcorrex…" …`, `python …/gitcorrex/… …`."""
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in ("-m", "-c") or arg.startswith(("-m", "-c")):
            value = arg[2:] or (args[at + 1] if at + 1 < len(args) else "")
            rest = args[at + (1 if arg[2:] else 2):]
            if "correx" in folded(value):
                return _correx(rest, f"python {arg[:2]} {value}")
            return None
        if arg in ("-X", "-W"):
            at += 2
            continue
        if arg.startswith("-"):
            at += 1
            continue
        return _correx(args[at + 1:], arg) if "correx" in folded(arg) else None
    return None


def _nested(word: str, depth: int) -> str | None:
    """A word that mentions correx and reads as more than one word: shell text run later
    (`bash -c '…'`, `eval "…"`, `$(…)` in quotes, a program's string), read again."""
    plain = folded(word)
    if not ("correx" in plain or "gpg" in plain) or \
            not any(char.isspace() or char in SEPARATORS for char in word):
        return None
    if depth >= MAX_DEPTH:
        return "git correx is named inside quoted text nested too deeply to read"
    try:
        return _scan(shell_words(word), depth + 1)
    except ValueError:  # not shell text: the whole call's own reading decides
        return None


def _runs_later(text: str, tokens: list[str]) -> bool:
    """An expansion, a here-document, or a word that runs code given to it."""
    if "$" in text or "`" in text or any(token.startswith("<<") for token in tokens):
        return True
    names = {token.replace("\\", "/").rsplit("/", 1)[-1].lower() for token in tokens}
    sourced = any(token == "." and (at == 0 or set(tokens[at - 1]) <= set(SEPARATORS))
                  for at, token in enumerate(tokens))  # `. FILE` runs FILE (`-C .` does not)
    return sourced or bool(names & _RUNNERS) or any(_PYTHON.match(name) for name in names)


def _is_open_path(words: list[str]) -> bool:
    """The command words could still name an operator command: the first is built at run
    time, or the second is and the first begins one (`plan "$X"`)."""
    if not words:
        return False
    if _is_dynamic(words[0]):
        return True
    return len(words) > 1 and _is_dynamic(words[1]) and any(
        len(c.words) > 1 and c.words[0] == words[0] for c in OPERATOR_COMMANDS)


def _is_dynamic(word: str) -> bool:
    return any(char in _GLOBS for char in word)


def _shown(entry: str, argv: list[str]) -> str:
    return " ".join([entry, *argv])[:200]
