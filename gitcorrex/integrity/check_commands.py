"""Checks weakened outside the tests: a profile command changed, a CI step told to pass.

- `.correx.toml`: a command's `run` changed or removed, an expectation that no longer runs
  a command, a stage's `build_expectation` or the default expectation changed, a
  `verify_before_stop` turned off, a `stop_expectation` set or changed (what a Stop
  without a completion claim runs) (**check command changed**; `|| true` added to a run is
  **check neutralised**);
- GitHub workflows and `.gitlab-ci.yml`: `continue-on-error: true` or `allow_failure:
  true` added, a shell line that swallows its failure (`cmd || true`, `|| :`, `|| exit 0`,
  `|| echo …`) added (**check neutralised**), named by job and step;
- `package.json`: a script that now swallows its failure.

Shell text is read with `shlex` (its operators, not its characters); YAML is read as lines
(keys, list items and their indentation): enough to find these keys and name the step, and
the project carries no YAML parser.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from gitcorrex.integrity.findings import Weakening
from gitcorrex.model.test_integrity import WeakeningRule as Rule

PROFILE = ".correx.toml"
SWALLOWERS = ({"true"}, {":"}, {"/bin/true"}, {"echo"})
FAILURE_KEYS = re.compile(r"^\s*(?:-\s+)?(continue-on-error|allow_failure)\s*:\s*true\s*$")
STEP_NAME = re.compile(r"^\s*-?\s*name\s*:\s*(.+?)\s*$")
JOB_KEY = re.compile(r"^  ([A-Za-z0-9_.-]+)\s*:\s*$")


def is_check_file(path: str) -> bool:
    """Whether `path` configures how checks run (and so can neutralise one)."""
    name = path.rsplit("/", 1)[-1]
    return path == PROFILE or name == "package.json" or path == ".gitlab-ci.yml" or (
        path.startswith(".github/workflows/") and name.endswith((".yml", ".yaml")))


def check_weakenings(path: str, old: bytes | None, new: bytes | None) -> list[Weakening]:
    """What the change from `old` to `new` (None: absent) did to the checks in `path`."""
    if old is None or new is None:
        return []
    before, after = old.decode("utf-8", "replace"), new.decode("utf-8", "replace")
    if path == PROFILE:
        return list(_profile(before, after))
    if path.rsplit("/", 1)[-1] == "package.json":
        return list(_scripts(path, before, after))
    return list(_pipeline(path, before, after))


def swallows_failure(command: str) -> bool:
    """`cmd || true` (or `|| :`, `|| exit 0`, `|| echo …`), or a trailing `; true`."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        tokens = command.split()
    for index, token in enumerate(tokens):
        rest = tokens[index + 1:index + 3]
        if token == "||" and rest and ({rest[0]} in SWALLOWERS or rest == ["exit", "0"]):
            return True
        if token == ";" and (rest == ["true"] or rest == ["exit", "0"]) and \
                index + 1 + len(rest) == len(tokens):
            return True
    return False


def _profile(before: str, after: str) -> Iterator[Weakening]:
    old, new = _toml(before), _toml(after)
    if old is None or new is None:
        return
    old_runs, new_runs = _runs(old), _runs(new)
    for name, run in sorted(old_runs.items()):
        now = new_runs.get(name)
        test = f"commands.{name}"
        if now is None:
            yield Weakening(PROFILE, test, Rule.CHECK_COMMAND_CHANGED, "the command was removed")
        elif now != run:
            rule = Rule.CHECK_NEUTRALISED if swallows_failure(now) and not \
                swallows_failure(run) else Rule.CHECK_COMMAND_CHANGED
            yield Weakening(PROFILE, test, rule, f"`{run[:200]}` → `{now[:200]}`")
    for name, commands in sorted(_expectations(old).items()):
        dropped = [c for c in commands if c not in _expectations(new).get(name, [])]
        if dropped:
            yield Weakening(PROFILE, f"expectations.{name}", Rule.CHECK_COMMAND_CHANGED,
                            f"no longer runs {', '.join(dropped)}")
    for key, was, now in _settings(old, new):
        yield Weakening(PROFILE, key, Rule.CHECK_COMMAND_CHANGED, f"{was} → {now}")


def _toml(text: str) -> dict[str, Any] | None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _runs(profile: Mapping[str, Any]) -> dict[str, str]:
    commands = profile.get("commands")
    runs: dict[str, str] = {}
    for name, spec in (commands.items() if isinstance(commands, dict) else []):
        run = spec.get("run") if isinstance(spec, dict) else spec
        if isinstance(run, str):
            runs[str(name)] = run
    return runs


def _expectations(profile: Mapping[str, Any]) -> dict[str, list[str]]:
    table = profile.get("expectations")
    found: dict[str, list[str]] = {}
    for name, spec in (table.items() if isinstance(table, dict) else []):
        listed = spec.get("commands") if isinstance(spec, dict) else spec
        found[str(name)] = [str(c) for c in listed] if isinstance(listed, list) else []
    return found


def _settings(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(key, was, now) for each setting that chooses what runs and changed."""
    keys: list[tuple[str, ...]] = [("defaults", "expectation"),
                                   ("defaults", "verify_before_stop")]
    stages = old.get("stages")
    keys += [("stages", str(name), field) for name in sorted(stages or {})
             if isinstance(stages, dict) for field in ("build_expectation",
                                                       "verify_before_stop")]
    for key in keys:
        was, now = _dig(old, key), _dig(new, key)
        if was is not None and was != now and now is not True:
            yield ".".join(key), json.dumps(was), json.dumps(now)
    cheap = [("defaults", "stop_expectation")] + [
        ("stages", str(name), "stop_expectation") for name in sorted(new.get("stages") or {})
        if isinstance(new.get("stages"), dict)]
    for key in cheap:  # set where it was not: a cheaper check for every stop
        was, now = _dig(old, key), _dig(new, key)
        if now is not None and was != now:
            yield ".".join(key), json.dumps(was), json.dumps(now)


def _dig(table: Mapping[str, Any], key: tuple[str, ...]) -> Any:
    current: Any = table
    for part in key:
        if not isinstance(current, dict):
            return None
        current = current.get(part)
    return current


def _scripts(path: str, before: str, after: str) -> Iterator[Weakening]:
    old, new = _json_scripts(before), _json_scripts(after)
    for name, command in sorted(new.items()):
        if swallows_failure(command) and not swallows_failure(old.get(name, "")):
            yield Weakening(path, f"scripts.{name}", Rule.CHECK_NEUTRALISED,
                            f"`{command[:200]}` swallows its failure")


def _json_scripts(text: str) -> dict[str, str]:
    try:
        scripts = json.loads(text).get("scripts")
    except (ValueError, AttributeError):
        return {}
    return {str(k): v for k, v in scripts.items() if isinstance(v, str)} \
        if isinstance(scripts, dict) else {}


def _pipeline(path: str, before: str, after: str) -> Iterator[Weakening]:
    old, new = Counter(_neutralisers(before)), Counter(_neutralisers(after))
    for (where, what), count in sorted((new - old).items()):
        times = f" ({count} times)" if count > 1 else ""
        yield Weakening(path, where, Rule.CHECK_NEUTRALISED, f"{what} added{times}")


def _neutralisers(text: str) -> Iterator[tuple[str, str]]:
    """(job/step, what) for each key or shell line that lets a failing step pass."""
    job, step = "", ""
    for raw in text.splitlines():
        line = _uncommented(raw)
        if not line.strip():
            continue
        if (found := JOB_KEY.match(line)) is not None:
            job, step = found.group(1), ""
        elif (named := STEP_NAME.match(line)) is not None:
            step = named.group(1).strip("'\"")
        where = "/".join(part for part in (job, step) if part) or "(top level)"
        if (key := FAILURE_KEYS.match(line)) is not None:
            yield where, f"`{key.group(1)}: true`"
        elif "||" in line and swallows_failure(line.split(":", 1)[-1] if
                                               line.lstrip().startswith(("run:", "- run:"))
                                               else line):
            yield where, f"`{' '.join(line.split())[:160]}`"


def _uncommented(line: str) -> str:
    """The line without a trailing YAML comment (a `#` after whitespace, outside quotes)."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index]
    return line
