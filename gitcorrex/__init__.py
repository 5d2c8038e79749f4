"""git correx: verified workspace states for coding agents, recorded as facts in git notes."""

__version__ = "0.1.0"
