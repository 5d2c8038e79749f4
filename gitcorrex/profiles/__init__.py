"""The profile on disk and what it selects: loading `.correx.toml`, writing a starter one for
`init`, the selected stage, and the expectation (with its commands) a verification runs."""
