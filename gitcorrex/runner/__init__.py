"""Running one operator command (a profile's build check, a static analyzer): its own
process group, bounded output capture, timeouts. A service below the capabilities: verify
and the static analysis gate both run their commands here."""
