"""Coding agents' hook protocols (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI) over
one judge, from one table of hosts (hosts.py).

Each agent module translates its payload into one request and the judge's answer into the
reply that agent reads; everything that decides lives below (manifest/, session/, git/).
"""
