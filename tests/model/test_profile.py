"""The profile model: shorthand forms, durations and sizes, and errors that name key + fix."""

from __future__ import annotations

import pytest

from gitcorrex.errors import ConfigError, ExitCode
from gitcorrex.model.profile import CommandSpec, ExpectationSpec, Profile
from gitcorrex.profiles.load import parse_profile

FULL = """\
version = 1
[commands]
build = "python -m compileall -q src"
test  = { run = "python -m pytest -q", timeout = "10m", requires = ["pyproject.toml"] }
setup = "pip install -e ."
[expectations]
test = ["build", "test"]
full = { commands = ["build", "test"], setup = "setup" }
docs = []
[defaults]
expectation = "test"
timeout = "30m"
output_cap = "8MiB"
[stages.implement]
build_expectation = "test"
writes = ["/src/**", "/tests/**"]
max_attempts = 3
"""


def load(text: str) -> Profile:
    return parse_profile(text.encode(), source=".correx.toml")


def refusal(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load(text)
    error = caught.value
    assert error.exit_code == ExitCode.USAGE
    assert error.message.startswith(".correx.toml: ")
    assert error.hint
    assert "Input should" not in error.message + error.hint
    assert "pydantic" not in error.message + error.hint
    return error


def with_command(entry: str) -> str:
    return f'version = 1\n[commands]\ntest = {entry}\n'


def test_full_example_loads() -> None:
    profile = load(FULL)
    assert profile.commands["test"] == CommandSpec(run="python -m pytest -q", timeout=600,
                                                   requires=["pyproject.toml"])
    assert profile.expectations["full"] == ExpectationSpec(commands=["build", "test"],
                                                           setup="setup")
    assert profile.expectations["docs"].commands == []
    assert (profile.defaults.timeout, profile.defaults.output_cap) == (1800, 8 * 1024 * 1024)
    assert profile.stages["implement"].writes == ["/src/**", "/tests/**"]


def test_minimal_profile_takes_defaults() -> None:
    profile = load("version = 1\n")
    assert profile.commands == {} and profile.expectations == {} and profile.stages == {}
    assert profile.defaults.expectation is None
    assert (profile.defaults.timeout, profile.defaults.output_cap) == (1800, 8 << 20)


def test_command_string_is_shorthand_for_run_table() -> None:
    assert load(with_command('"make test"')) == load(with_command('{ run = "make test" }'))


def test_expectation_list_is_shorthand_for_commands_table() -> None:
    head = 'version = 1\n[commands]\nb = "make"\n[expectations]\n'
    assert load(head + 'e = ["b"]\n') == load(head + 'e = { commands = ["b"] }\n')


def test_stage_max_attempts_defaults_to_three() -> None:
    assert load("version = 1\n[stages.s]\n").stages["s"].max_attempts == 3


@pytest.mark.parametrize(("written", "seconds"), [
    ("90", 90), ('"90"', 90), ('"90s"', 90), ('"10m"', 600), ('"1h"', 3600),
    ('"1h30m"', 5400), ('"2m5s"', 125)])
def test_durations_become_seconds(written: str, seconds: int) -> None:
    profile = load(with_command(f'{{ run = "x", timeout = {written} }}'))
    assert profile.commands["test"].timeout == seconds


@pytest.mark.parametrize("written", ['"10x"', "0", "-5", '""', "true", "1.5", '"m"', '"0s"',
                                     '"1m1h"'])
def test_bad_duration_names_key_and_fix(written: str) -> None:
    error = refusal(with_command(f'{{ run = "x", timeout = {written} }}'))
    assert error.message.startswith(".correx.toml: commands.test.timeout: ")
    assert "duration" in error.message
    assert '"90s"' in (error.hint or "")


def test_ten_x_message_is_exact() -> None:
    error = refusal(with_command('{ run = "x", timeout = "10x" }'))
    assert error.message == '.correx.toml: commands.test.timeout: "10x" is not a duration'
    assert error.hint == 'use seconds or a value like "90s", "10m", "1h", "1h30m"'


@pytest.mark.parametrize(("written", "size"), [
    ("1024", 1024), ('"100B"', 100), ('"512KiB"', 512 << 10), ('"8MiB"', 8 << 20),
    ('"1GiB"', 1 << 30)])
def test_output_cap_sizes(written: str, size: int) -> None:
    assert load(f"version = 1\n[defaults]\noutput_cap = {written}\n").defaults.output_cap == size


@pytest.mark.parametrize("written", ['"8MB"', "0", '"lots"', "true"])
def test_bad_output_cap_names_key_and_fix(written: str) -> None:
    error = refusal(f"version = 1\n[defaults]\noutput_cap = {written}\n")
    assert error.message.startswith(".correx.toml: defaults.output_cap: ")
    assert "MiB" in (error.hint or "")


@pytest.mark.parametrize("written", ["2", '"1"', "true"])
def test_only_version_one_is_read(written: str) -> None:
    error = refusal(f"version = {written}\n")
    assert error.message.startswith(".correx.toml: version: ")
    assert error.hint == "set version = 1 (the only version this git correx reads)"


def test_missing_version_says_to_add_it() -> None:
    error = refusal('[commands]\nb = "make"\n')
    assert error.message == ".correx.toml: version: required key is missing"
    assert "version = 1" in (error.hint or "")


@pytest.mark.parametrize(("text", "path", "valid"), [
    ("version = 1\ncomands = {}\n", "comands", "version, commands, expectations"),
    ("version = 1\n[defaults]\ntimout = 5\n", "defaults.timout", "expectation, timeout"),
    ('version = 1\n[commands]\nt = { run = "x", time = 5 }\n', "commands.t.time",
     "run, timeout, requires"),
    ("version = 1\n[expectations]\ne = { command = [] }\n", "expectations.e.command",
     "commands, setup"),
    ("version = 1\n[stages.s]\nwrite = []\n", "stages.s.write",
     "build_expectation, writes, max_attempts"),
])
def test_unknown_key_is_named_with_valid_keys(text: str, path: str, valid: str) -> None:
    error = refusal(text)
    key = path.rsplit(".", 1)[-1]
    assert error.message.splitlines()[0] == f'.correx.toml: {path}: unknown key "{key}"'
    assert valid in (error.hint or "")


@pytest.mark.parametrize("run", ['"echo \'unbalanced"', '""', '"   "', "5", '["make"]'])
def test_bad_run_names_the_command(run: str) -> None:
    error = refusal(with_command(f"{{ run = {run} }}"))
    assert error.message.startswith(".correx.toml: commands.test.run: ")


def test_unbalanced_quotes_in_shorthand_name_the_command() -> None:
    error = refusal(with_command('"pytest -k \'a"'))
    assert error.message.startswith(".correx.toml: commands.test: ")
    assert "cannot be split" in error.message
    assert "quotes" in (error.hint or "")


def test_misspelt_key_is_reported_before_the_missing_one() -> None:
    error = refusal(with_command('{ rnu = "make" }'))
    assert error.message.splitlines() == [
        '.correx.toml: commands.test.rnu: unknown key "rnu"',
        "  also commands.test.run: required key is missing; hint: add run = "
        '"<program and arguments>" to this command']


def test_missing_run_says_to_add_it() -> None:
    error = refusal(with_command("{ timeout = 5 }"))
    assert error.message == ".correx.toml: commands.test.run: required key is missing"
    assert "run =" in (error.hint or "")


@pytest.mark.parametrize(("text", "path"), [
    ("version = 1\ncommands = 5\n", "commands"),
    ("version = 1\n[commands]\nt = 5\n", "commands.t"),
    ("version = 1\n[expectations]\ne = 5\n", "expectations.e"),
    ("version = 1\n[stages.s]\nwrites = \"/src\"\n", "stages.s.writes"),
    ("version = 1\n[stages.s]\nmax_attempts = \"3\"\n", "stages.s.max_attempts"),
    ("version = 1\n[expectations]\ne = [5]\n", "expectations.e[0]"),
])
def test_wrong_type_names_the_key(text: str, path: str) -> None:
    assert refusal(text).message.startswith(f".correx.toml: {path}: expected ")


@pytest.mark.parametrize("name", ["-x", "a b", "\u00e4", ".hidden"])
def test_bad_names_are_refused(name: str) -> None:
    error = refusal(f'version = 1\n[commands]\n"{name}" = "make"\n')
    assert "is not a valid name" in error.message
    assert "letters, digits" in (error.hint or "")


def test_max_attempts_must_be_at_least_one() -> None:
    error = refusal("version = 1\n[stages.s]\nmax_attempts = 0\n")
    assert error.message == ".correx.toml: stages.s.max_attempts: 0 is too small"
    assert error.hint == "use a value of at least 1"
