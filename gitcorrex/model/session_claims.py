"""A typed blocker claim and the bounded receipt that admits a semantic terminal pause.

A session may stop for good only on an exact, trusted fact: the claim names the class of
the blocker, the provider that can observe it, the subject and fact observed, and the
value expected. What gets persisted is the receipt (claim, what each provider observed and
when, the decision time), never a pending proposal; every string in it is bounded, so a
claim cannot smuggle raw output into the ledger as evidence.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Annotated, Any

from pydantic import (
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gitcorrex.model.record import Record

MAX_TEXT = 1024
Bounded = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
Named = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)]
FactValue = StrictBool | StrictInt | Bounded | None


class ClaimClass(str, Enum):
    """What kind of blocker: a fact a provider can observe, or a person's authority."""

    OBSERVED_FACT = "observed_fact"
    USER_AUTHORITY = "user_authority"


class ClaimOutcome(str, Enum):
    """Only `confirmed` admits the pause; every other outcome changes nothing."""

    CONFIRMED = "confirmed"
    NOT_DECLARED = "not_declared"
    CONTRADICTED = "contradicted"
    UNRESOLVED = "unresolved"
    REQUIRES_USER_AUTHORITY = "requires_user_authority"


class BlockerClaim(Record):
    """`{class, provider, subject, fact, expected}`; `max_age_s` bounds the evidence's age."""

    model_config = ConfigDict(populate_by_name=True)

    claim_class: ClaimClass = Field(alias="class")
    provider: Named
    subject: Named
    fact: Named
    expected: Any
    max_age_s: StrictInt = Field(default=3600, ge=0)

    @model_validator(mode="after")
    def _bounded(self) -> BlockerClaim:
        check_bounded(self.expected, "expected")
        return self


class ProviderObservation(Record):
    """What one provider saw, where it saw it (`source`: an event id) and when."""

    provider: Named
    version: Named
    subject: Named
    fact: Named
    value: FactValue
    observed_at: datetime
    source: Bounded | None


class AdmissionReceipt(Record):
    """The bounded proof a semantic terminal pause was admitted on (seed 004); `declared_by`
    is the plan step whose declared edge admitted it (None in receipts older than edges)."""

    claim_class: ClaimClass
    provider: Named
    subject: Named
    fact: Named
    expected: FactValue
    observations: list[ProviderObservation] = Field(min_length=1)
    decided_at: datetime
    revision: StrictInt = Field(ge=0)
    context: Named
    declared_by: Named | None = None


def check_bounded(value: Any, where: str) -> None:
    """Every string reachable from `value` is at most MAX_TEXT characters."""
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise PydanticCustomError("string_too_long", "{where}: a string longer than {limit} "
                                  "characters", {"where": where, "limit": MAX_TEXT})
    if isinstance(value, dict):
        for key, item in value.items():
            check_bounded(key, where)
            check_bounded(item, f"{where}.{key}")
    if isinstance(value, list):
        for index, item in enumerate(value):
            check_bounded(item, f"{where}[{index}]")
