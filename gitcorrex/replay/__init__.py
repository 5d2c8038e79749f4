"""Every fold of the ledger's events: pure functions from events to a timeline or a state.

Nothing here runs a command, reads a file, the clock or git, so the same events give the
same result in the original repository and in a clone that fetched only the ledger ref.
"""
