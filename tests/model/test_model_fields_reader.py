"""`fields_reader(Model)` reads a document exactly as `Model` would, into a dict, and
refuses a model it could not mirror (model/model_fields_reader.py)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gitcorrex.model.event_line import event_line
from gitcorrex.model.model_fields_reader import fields_reader
from gitcorrex.model.note_lines import EventEnvelope, check_line


class Inner(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    host: str
    name: str | None = None


class Outer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    v: int
    inner: Inner
    seq: int | None = None


DOCUMENTS = [b'{"v":1,"inner":{"host":"h"}}', b'{"v":"1","inner":{"host":"h","x":1},"seq":2.0}',
             b'{"v":1,"inner":{}}', b'{"v":true,"inner":{"host":"h"}}', b'{"v":1}',
             b'{"v":1,"inner":{"host":"h"},"seq":NaN}', b'{"v":1.5,"inner":{"host":"h"}}',
             b'{"v":1,"inner":{"host":7}}', b'[1]', b'{"v":1,"inner":{"host":"h"},"seq":null}']


@pytest.mark.parametrize("document", DOCUMENTS)
def test_a_fields_reader_accepts_and_refuses_what_its_model_does(document: bytes) -> None:
    reader = fields_reader(Outer)
    try:
        expected: object = Outer.model_validate_json(document).model_dump(exclude_unset=True)
    except ValidationError as exc:
        expected = type(exc)
    try:
        found: object = reader.validate_json(document)
    except ValidationError as exc:
        found = type(exc)
    assert found == expected


def test_the_envelope_reader_is_built_from_the_envelope_model() -> None:
    line = (b'{"v":1,"id":"x","kind":"k","at":"t","subjects":["s"],"seq":3,'
            b'"actor":{"name":null,"email":null,"host":"h","runtime":"r"},'
            b'"tool":{"correx":"1","git":"2","libgit2":"3"},"payload":{"deep":[1]}}')
    fields = fields_reader(EventEnvelope).validate_json(line)
    assert fields == EventEnvelope.model_validate_json(line).model_dump(exclude_unset=True)


class Checked(BaseModel):
    v: int

    @field_validator("v")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value < 1:
            raise ValueError("not positive")
        return value


class Constrained(BaseModel):
    v: int = Field(ge=1)


class Defaulted(BaseModel):
    v: int = 1


class Strict(BaseModel):
    model_config = ConfigDict(strict=True)

    v: int


class Keeping(BaseModel):
    model_config = ConfigDict(extra="allow")

    v: int


class Nesting(BaseModel):
    inner: Checked


@pytest.mark.parametrize("model", [Checked, Constrained, Defaulted, Strict, Keeping, Nesting])
def test_a_model_a_dict_cannot_mirror_is_refused(model: type[BaseModel]) -> None:
    with pytest.raises(TypeError):
        fields_reader(model)


def test_check_line_keeps_each_envelope_field_under_its_name() -> None:
    """The entry a scan keeps holds the envelope's own fields, each from its own key."""
    envelope = {"v": 1, "kind": "session_paused", "at": "2026-01-01T00:00:00.000000Z",
                "subjects": ["a" * 40], "session": "s1", "seq": 7, "stage": "the-stage",
                "step": "the-step", "state_key": "b" * 40,
                "actor": {"name": None, "email": None, "host": "h", "runtime": "r"},
                "tool": {"correx": "1", "git": "2", "libgit2": "3"}}
    raw = event_line({"reason": "x"}, envelope).encode()
    entry, _ = check_line(raw)
    model = EventEnvelope.model_validate_json(raw)
    assert entry is not None
    assert (entry.at, entry.id, entry.session, entry.seq, entry.kind, entry.step,
            entry.state_key) == (model.at, model.id, model.session, model.seq, model.kind,
                                 model.step, model.state_key)
