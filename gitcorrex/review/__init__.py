"""Reading the ledger for people: what is known about a tree, one line per event."""
