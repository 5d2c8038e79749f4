"""Write manifests: which paths a stage or step may change, and the one checker that
the pre-commit hook, the tool-call assessment and the CI range gate all share."""
