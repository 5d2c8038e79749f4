"""`git correx mcp`: the Python API served as Model Context Protocol tools over stdio."""
