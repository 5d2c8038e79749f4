"""The Python API: `Workspace(path)` answers what the CLI answers, as typed models.

    from gitcorrex.api import Workspace
    ws = Workspace("path/to/repo")
    ws.state().state_key          # == `git correx state`
    outcome = ws.verify()         # runs the profile's expectation, records the observation
    ws.show().events              # what the ledger knows about the current state

Every method calls the same use case as the command of the same name and returns the model
whose JSON is that command's `--json` output; the MCP server (`git correx mcp`) serves
these methods as its tools. Stability: the names exported here and the fields of the
returned models follow the ledger's schema versioning (a field is only ever added; a
change is a new version); anything imported from deeper modules may change without notice.
Errors raise `gitcorrex.errors.CorrexError` subclasses carrying `exit_code` and `hint`.
"""

from gitcorrex.api.flow_results import GateResult, PlanGrounding, PlanValidation, StepStarted
from gitcorrex.api.results import ShowResult, StateResult, VerifyResult
from gitcorrex.api.workspace import Workspace

__all__ = ["GateResult", "PlanGrounding", "PlanValidation", "ShowResult", "StateResult",
           "StepStarted", "VerifyResult", "Workspace"]
