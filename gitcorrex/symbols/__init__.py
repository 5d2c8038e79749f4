"""A best-effort, deterministic symbol index of a tree's blobs, built with tree-sitter.

Grounding asks whether a symbol a plan assumes is defined somewhere in the state tree.
`extract` turns one blob's bytes into sorted definition names (pure, one grammar per
language, shipped as wheels); `index` assembles them per path for a whole tree, parsing
only blobs the cache does not hold; `store` keeps that cache as git objects. The cache is
an optimisation, never evidence: a missing or corrupt cache is rebuilt by parsing again.
"""
