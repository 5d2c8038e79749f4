"""A model's fields read into a plain dict: the same validation, no instances.

A replay checks 100,000 envelopes and keeps seven of their fields; building the envelope
model and its actor and tool models for each line cost ~1.2 µs of ~4.5 (`EventEnvelope`,
docs/performance.md). `fields_reader(Model)` derives a TypedDict from the model's own
fields (nested models become nested TypedDicts, defaulted fields keys that may be absent),
so pydantic runs the same validators on the same annotations and returns a dict. There is
one declaration, the model: a model this cannot mirror exactly (validators, constraints,
a default other than None) is refused when the reader is built, never read differently.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter
from typing_extensions import NotRequired, TypedDict

# what a model may configure and still be read the same as a dict: the rest (strictness,
# coercions, string handling) would change what validates
MIRRORED_CONFIG = frozenset({"frozen", "extra", "defer_build"})


def fields_reader(model: type[BaseModel]) -> TypeAdapter[dict[str, Any]]:
    """What reads a JSON document as `model` would, returning its fields as a dict (a
    field left at its default is absent, so read it with `.get`)."""
    return TypeAdapter(_typed_dict(model))


def _typed_dict(model: type[BaseModel]) -> Any:
    _refuse_what_a_dict_cannot_mirror(model)
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            annotation = _typed_dict(annotation)
        fields[name] = annotation if info.is_required() else NotRequired[annotation]
    make: Any = TypedDict  # built at run time from the model: no static TypedDict to name
    typed = make(f"{model.__name__}Fields", fields)
    typed.__pydantic_config__ = ConfigDict(extra=model.model_config.get("extra", "ignore"))
    return typed


def _refuse_what_a_dict_cannot_mirror(model: type[BaseModel]) -> None:
    decorators = model.__pydantic_decorators__
    if decorators.validators or decorators.field_validators or decorators.root_validators \
            or decorators.model_validators:
        raise TypeError(f"{model.__name__} has validators: a fields reader would skip them")
    if model.model_config.get("extra") == "allow":
        raise TypeError(f"{model.__name__} keeps unknown fields: read it as a model")
    if set(model.model_config) - MIRRORED_CONFIG:
        extra = sorted(set(model.model_config) - MIRRORED_CONFIG)
        raise TypeError(f"{model.__name__} sets {extra}: a fields reader would ignore them")
    for name, info in model.model_fields.items():
        if info.metadata or info.alias or info.validation_alias:
            raise TypeError(f"{model.__name__}.{name} has constraints or an alias")
        if not info.is_required() and info.default is not None:
            raise TypeError(f"{model.__name__}.{name} defaults to {info.default!r}, not None")
