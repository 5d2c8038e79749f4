"""`fields_reader(Model)` reads a document exactly as `Model` would, into a dict, and
refuses a model it could not mirror (model/model_fields_reader.py)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gitcorrex.model.model_fields_reader import fields_reader
from gitcorrex.model.note_lines import EventEnvelope


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
