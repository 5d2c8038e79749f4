"""The profile on disk: loading `.correx.toml`, and writing a starter one for `init`."""
