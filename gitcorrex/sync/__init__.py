"""Sharing one ledger between clones through an ordinary git remote."""
