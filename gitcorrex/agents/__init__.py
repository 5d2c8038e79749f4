"""Coding agents' hook protocols (Claude Code, Codex, Gemini CLI, Cursor) over one judge.

Each agent module translates its payload into one request and the judge's answer into the
reply that agent reads; everything that decides lives below (manifest/, session/, git/).
"""
