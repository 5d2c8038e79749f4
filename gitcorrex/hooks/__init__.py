"""Git hooks that enforce write manifests: installing them (chaining a foreign hook),
proving git will run them (`doctor`), and the checks they run (pre-commit, pre-merge-commit,
pre-push). The shell scripts themselves are package data in `scripts/`."""
