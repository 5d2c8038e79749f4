"""Verifying a workspace state: choose the profile commands, run them, record the result."""
