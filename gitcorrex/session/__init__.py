"""Sessions: one locked plan executed step by step, its whole state folded from the ledger."""
