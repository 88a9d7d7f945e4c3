"""Checks shared by every config model: YAML ``true`` is not a number; :class:`StrictModel`."""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator


def is_number_type(annotation: Any) -> bool:
    """``int``, ``float`` or an optional/union of them (but not ``bool``)."""
    args = typing.get_args(annotation) or (annotation,)
    if any(a in (int, float) for a in args) and bool not in args:
        return True
    origin = typing.get_origin(annotation)
    if origin is dict:  # dict[str, float]: the values are numbers
        return is_number_type(args[-1])
    return False


def refuse_bool_for_number(model: Any, value: Any, info: ValidationInfo) -> Any:
    """Body of a ``field_validator("*", mode="before")``: pydantic takes ``true`` as 1."""
    field = model.model_fields.get(info.field_name) if info.field_name else None
    if field is None or not is_number_type(field.annotation):
        return value
    values = value.values() if isinstance(value, dict) and typing.get_origin(field.annotation) is dict \
        else [value]
    for v in values:
        if isinstance(v, bool):
            raise ValueError(f"expected a number, got {str(v).lower()} (a boolean)")
    return value


class StrictModel(BaseModel):
    """Base of every config model: unknown keys are errors, and so are NaN, infinity and
    booleans given for numbers (a NaN sigma would fail only after all games)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, v: Any, info: ValidationInfo) -> Any:
        return refuse_bool_for_number(cls, v, info)
