"""Cross-references and paths in the profile: every name points somewhere, paths stay inside."""

from __future__ import annotations

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.profiles.load import parse_profile

HEAD = 'version = 1\n[commands]\nbuild = "make"\ntest = "make test"\n'


def refusal(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_profile(text.encode(), source=".correx.toml")
    return caught.value


def test_expectation_naming_unknown_command_lists_commands() -> None:
    error = refusal(HEAD + '[expectations]\ne = ["build", "lint"]\n')
    assert error.message == '.correx.toml: expectations.e[1]: unknown command "lint"'
    assert error.hint == "use one of: build, test; or define it under [commands]"


def test_table_form_expectation_path_includes_commands() -> None:
    error = refusal(HEAD + '[expectations]\ne = { commands = ["lint"] }\n')
    assert error.message.startswith(".correx.toml: expectations.e.commands[0]: ")


def test_setup_must_name_a_command() -> None:
    error = refusal(HEAD + '[expectations]\ne = { commands = ["test"], setup = "install" }\n')
    assert error.message == '.correx.toml: expectations.e.setup: unknown command "install"'


def test_default_expectation_must_exist() -> None:
    error = refusal(HEAD + '[expectations]\nt = ["test"]\n[defaults]\nexpectation = "full"\n')
    assert error.message == '.correx.toml: defaults.expectation: unknown expectation "full"'
    assert error.hint == "use one of: none, t; or define it under [expectations]"


def test_stage_build_expectation_must_exist() -> None:
    error = refusal(HEAD + '[stages.implement]\nbuild_expectation = "test"\n')
    assert error.message == ('.correx.toml: stages.implement.build_expectation: '
                             'unknown expectation "test"')


def test_builtin_none_expectation_needs_no_definition() -> None:
    profile = parse_profile((HEAD + '[defaults]\nexpectation = "none"\n').encode(), source="p")
    assert profile.defaults.expectation == "none"


def test_none_expectation_cannot_hold_commands() -> None:
    error = refusal(HEAD + '[expectations]\nnone = ["test"]\n')
    assert error.message == '.correx.toml: expectations.none: "none" is reserved for ' \
                            '"no build claim"'


def test_command_listed_twice_is_refused() -> None:
    error = refusal(HEAD + '[expectations]\ne = ["test", "test"]\n')
    assert error.message == '.correx.toml: expectations.e[1]: "test" is listed twice'


def test_every_reference_problem_is_reported_at_once() -> None:
    error = refusal(HEAD + '[expectations]\ne = ["lint"]\n[defaults]\nexpectation = "x"\n'
                    '[stages.s]\nbuild_expectation = "y"\n')
    assert error.message.splitlines()[1:] == [
        '  also defaults.expectation: unknown expectation "x"; hint: use one of: e, none; '
        "or define it under [expectations]",
        '  also stages.s.build_expectation: unknown expectation "y"; hint: use one of: e, '
        "none; or define it under [expectations]"]


@pytest.mark.parametrize("path", ["../x", "a/../b", "./a", "a//b", "/etc/passwd", "a\\b",
                                  "C:/x", ""])
def test_requires_must_stay_inside_the_repository(path: str) -> None:
    toml_path = path.replace("\\", "\\\\")
    error = refusal(f'version = 1\n[commands]\nt = {{ run = "x", requires = ["{toml_path}"] }}\n')
    assert error.message.startswith(".correx.toml: commands.t.requires[0]: ")
    assert error.hint


@pytest.mark.parametrize("path", ["pyproject.toml", "src/app/", "a/b.c"])
def test_requires_accepts_relative_paths(path: str) -> None:
    text = f'version = 1\n[commands]\nt = {{ run = "x", requires = ["{path}"] }}\n'
    assert parse_profile(text.encode(), source="p").commands["t"].requires == [path]


@pytest.mark.parametrize("pattern", ["/src/**", "src/", "*.py", "/**", "!/src/generated/**",
                                     "docs/*.md"])
def test_writes_accept_gitignore_globs_anchored_or_not(pattern: str) -> None:
    text = f'version = 1\n[stages.s]\nwrites = ["{pattern}"]\n'
    assert parse_profile(text.encode(), source="p").stages["s"].writes == [pattern]


@pytest.mark.parametrize("pattern", ["/../etc/x", "src/../x", "a\\\\b", "", "/", "a//b",
                                     "#comment", "./src"])
def test_writes_refuse_escapes_and_backslashes(pattern: str) -> None:
    error = refusal(f'version = 1\n[stages.s]\nwrites = ["{pattern}"]\n')
    assert error.message.startswith(".correx.toml: stages.s.writes[0]: ")
    assert error.hint
