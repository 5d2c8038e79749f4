"""The only door to git: pygit2 in-process and the git binary, behind functions named in our
words that take and return plain values (hex oids, bytes, paths, frozen dataclasses)."""
