"""Shared by every config model: :class:`StrictModel`, YAML ``true`` is not a number, and
pydantic errors as one line (:func:`first_problem`, :func:`validation_message`)."""

from __future__ import annotations

import math
import re
import typing
from typing import Annotated, Any, Callable, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, ValidationInfo, field_validator

#: names pydantic puts in an error's location for the branches of a union: not keys
def _yaml_switch(v: Any) -> Any:
    """YAML 1.1 reads ``on``/``off`` (and ``yes``/``no``) as booleans: take them as the words."""
    return {True: "on", False: "off"}.get(v, v) if isinstance(v, bool) else v


#: a setting of ``auto | on | off`` that a YAML file may write unquoted (``truecase: off``)
AutoOnOff = Annotated[Literal["auto", "on", "off"], BeforeValidator(_yaml_switch)]

_UNION_BRANCHES = ("str", "list[str]", "int", "float")


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


def first_problem(exc: ValidationError, order: Callable[[Any], Any] | None = None
                  ) -> tuple[tuple[str | int, ...], str]:
    """(key path, message) of the first problem of a pydantic error: pydantic's own entries
    in the path (validator names, union branches) and its ``Value error, `` prefix dropped.
    ``order``: the first by this key of each error (the first of equals), else pydantic's."""
    errors = exc.errors()
    return problem_of(min(errors, key=order) if order is not None else errors[0])


def problem_of(err: Any) -> tuple[tuple[str | int, ...], str]:
    """(key path, message) of one entry of a pydantic error's ``errors()`` (as
    :func:`first_problem`)."""
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-"))
                and p not in _UNION_BRANCHES)
    msg = str(err["msg"]).removeprefix("Value error, ")
    if err.get("type") in ("model_type", "dict_type"):  # pydantic named its own class here
        msg = ("must be a block of keys (`key: value` lines indented below it, or "
               f"{{key: value, ...}}), not {_kind(err.get('input'))}")
    msg += _number_hint(err)
    if loc[-1:] == ("[key]",) and len(loc) > 1:  # a mapping key of the wrong type (YAML's 1:)
        loc, key = loc[:-2], loc[-2]
        msg = f"the name {key!r} must be text: quote it in the YAML (\"{key}\")"
    return loc, msg


#: a number in exponent form, which YAML 1.1 reads as text unless it has a dot and a sign
_EXPONENT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def _number_hint(err: Any) -> str:
    """What to write when a number was not read as one: YAML takes ``1e400`` (no dot, no
    sign in the exponent) as text, and a number past float's range as infinity."""
    value = err.get("input")
    if (err.get("type") in ("int_parsing", "float_parsing") and isinstance(value, str)
            and _EXPONENT.fullmatch(value.strip())):
        number = float(value)
        too_big = " and it is beyond the largest number (about 1.8e308)" if math.isinf(number) else ""
        return (f"; YAML read {value} as text (an exponent needs a dot and a sign there: "
                f"1.0e+3){too_big}")
    if err.get("type") == "finite_number" and isinstance(value, float) and math.isinf(value):
        return "; YAML reads .inf, and a number beyond about 1.8e308, as infinity"
    return ""


def _kind(value: Any) -> str:
    """What a YAML value is, in the words of a message."""
    if value is None:
        return "an empty value (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def validation_message(exc: Exception, prefix: str = "", *, path: bool = True) -> str:
    """One line for a pydantic error: ``prefix.key.path: message`` (``path=False``: the
    message alone); any other error: its text."""
    if not isinstance(exc, ValidationError):
        return str(exc)
    loc, msg = first_problem(exc)
    where = ".".join(str(p) for p in ((prefix,) if prefix else ()) + (loc if path else ()))
    return f"{where}: {msg}" if where else msg
class StrictModel(BaseModel):
    """Base of every config model: unknown keys are errors, and so are NaN, infinity and
    booleans given for numbers (a NaN sigma would fail only after all games)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, v: Any, info: ValidationInfo) -> Any:
        return refuse_bool_for_number(cls, v, info)
