"""Recorded observations as interoperable evidence (in-toto attestations)."""
