"""`[environment]` of the profile: what a verification's environment fingerprint includes.

The defaults cover Python, Node, Go and Rust projects without configuration: every command's
program (resolved on PATH, digested), the packages installed in any Python virtualenv in
play, the usual lockfiles at the top level (and npm's record of what `node_modules` holds),
OS, machine and libc, and the variables those toolchains read. A profile that sets a key
replaces that key's default: the profile decides what is included.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, ConfigDict, Field, StringConstraints

from gitcorrex.model.profile_values import check_relative_path
from gitcorrex.model.record import Record

VariableName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                                                max_length=128)]
ProgramName = Annotated[str, StringConstraints(min_length=1, max_length=256,
                                               pattern=r"^[^\x00]+$")]
# a relative path whose last component may be a glob (`requirements*.txt`)
LockfilePattern = Annotated[str, BeforeValidator(check_relative_path)]

DEFAULT_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "PYTHONHASHSEED", "NODE_OPTIONS", "NODE_PATH",
                     "GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "RUSTFLAGS",
                     "RUSTUP_TOOLCHAIN", "CARGO_BUILD_TARGET")
DEFAULT_LOCKFILES = ("uv.lock", "poetry.lock", "Pipfile.lock", "requirements*.txt",
                     "package-lock.json", "pnpm-lock.yaml", "yarn.lock",
                     "node_modules/.package-lock.json", "Cargo.lock", "go.sum")


class EnvironmentPolicy(Record):
    """`[environment]`: `pass` the variables whose values (hashed with the repository's
    salt, never in clear) are part of the fingerprint; `salt` any text, part of it too (a
    named way to retire every earlier pass); `versions` the programs (argv[0] as written)
    whose `--version` line is recorded (one process each per verify); `programs` more
    programs to resolve besides the commands' own (a `make test` that runs `python3`);
    `lockfiles` top-level names or glob patterns (read from the state tree, else the work
    tree); `packages` whether each virtualenv's installed distributions count; `platform`
    whether OS, machine and libc do."""

    model_config = ConfigDict(strict=True, populate_by_name=True)

    # `pass` in TOML (a Python keyword); dumped and read back as `variables`
    variables: list[VariableName] = Field(default_factory=lambda: list(DEFAULT_VARIABLES),
                                          validation_alias="pass")
    salt: str | None = Field(default=None, max_length=256)
    versions: list[ProgramName] = Field(default_factory=list)
    programs: list[ProgramName] = Field(default_factory=list)
    lockfiles: list[LockfilePattern] = Field(default_factory=lambda: list(DEFAULT_LOCKFILES))
    packages: bool = True
    platform: bool = True
