"""Git hooks that enforce write manifests: installing them (chaining a foreign hook),
proving git will run them (`doctor`), and the checks they run (pre-commit, pre-merge-commit,
pre-push). The shell scripts themselves are package data in `scripts/`.

The names below are owned by manifest/trusted.py, session/selection.py and profiles/load.py;
they are repeated here so that a commit's hook does not import pydantic to learn them (a
test keeps them equal).
"""

STAGE_CONFIG = "correx.stage"
SESSION_CONFIG = "correx.session"
PROFILE_NAME = ".correx.toml"
