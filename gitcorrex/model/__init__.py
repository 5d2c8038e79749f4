"""Pydantic records and their canonical serialization. No I/O, nothing of git."""
