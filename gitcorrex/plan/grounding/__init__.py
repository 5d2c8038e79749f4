"""`git correx plan ground`: a plan's assumptions against the current state tree (seed 000).

Each check turns the plan's declarations into findings with a status the state tree
proves (present, absent, ambiguous, unknown) and a route; `ground` combines them into the
verdict and records `plan_grounding_evaluated` on the state tree and the plan.
"""
