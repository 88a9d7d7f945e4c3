"""A bot adapter's parameters: one pydantic model, as for scorers.

A built-in adapter declares its YAML ``params`` as a nested ``Params`` model (a
:class:`BotParams`) and takes it in its constructor::

    class MyBot(Bot):
        class Params(BotParams):
            prefix: str = ""

        def __init__(self, name: str = "", params: Params | None = None, **values: Any) -> None:
            super().__init__(name)
            self.params = given(self.Params, params, values)

:func:`chatmatch.adapters.create_bot` validates the YAML block with the model (the error
names the parameter and its YAML line, in the same words as a scorer's) and builds the bot
with ``MyBot(name, params=validated)``; ``MyBot("x", prefix="> ")`` (tests, scripts)
validates the keywords the same way.

An adapter of another package (``package.module:Class``) need not declare anything:
:func:`params_model` derives the model once from its constructor's signature (names,
annotations, defaults; an annotation that cannot be resolved or checked accepts anything,
and ``**kwargs`` accepts any other key), and the bot is built with the validated values as
keywords.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationInfo, create_model, field_validator

from chatmatch.bot import Bot
from chatmatch.common.params import validate_params
from chatmatch.common.validation import StrictModel, is_number_type

P = TypeVar("P", bound=BaseModel)


class BotParams(StrictModel):
    """Base of every bot adapter's parameter model: unknown keys are errors, and so are NaN,
    infinity, booleans given for numbers, numbers for booleans and quoted text for either."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_text_for_scalars(cls, v: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name) if info.field_name else None
        if field is None or not isinstance(v, (str, int)) or isinstance(v, bool):
            return v
        args = typing.get_args(field.annotation) or (field.annotation,)
        if isinstance(v, str) and str not in args and Any not in args:
            if is_number_type(field.annotation):
                raise ValueError("expected a number, not a quoted string")
            if bool in args:
                raise ValueError("expected true or false, not a quoted string")
        if isinstance(v, int) and bool in args and not is_number_type(field.annotation):
            raise ValueError(f"expected true or false, got {v}")
        return v


class _Derived(BotParams):
    """Base of a model derived from a constructor: any Python type may be annotated."""

    model_config = ConfigDict(arbitrary_types_allowed=True)


class _DerivedOpen(_Derived):
    """... of a constructor that takes ``**kwargs``: any other key is passed on."""

    model_config = ConfigDict(extra="allow")


_DERIVED: dict[type[Bot], type[BotParams]] = {}


def declares_params(cls: type[Bot]) -> bool:
    """Whether ``cls`` declares its own ``Params`` model (built with ``cls(name, params=...)``)."""
    model = getattr(cls, "Params", None)
    return isinstance(model, type) and issubclass(model, BaseModel)


def params_model(cls: type[Bot]) -> type[BaseModel]:
    """The parameter model of ``cls``: its ``Params``, or one derived (once) from its
    constructor's keyword parameters (all but ``name``)."""
    if declares_params(cls):
        return typing.cast(type[BaseModel], getattr(cls, "Params"))
    if cls not in _DERIVED:
        _DERIVED[cls] = _derive(cls)
    return _DERIVED[cls]


def _derive(cls: type[Bot]) -> type[BotParams]:
    sig = inspect.signature(cls.__init__)
    base = _DerivedOpen if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()) \
        else _Derived
    hints = _type_hints(cls)
    fields: dict[str, Any] = {
        n: (hints.get(n, Any), ... if p.default is inspect.Parameter.empty else p.default)
        for n, p in sig.parameters.items()
        if n not in ("self", "name") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    loose: dict[str, Any] = {n: (Any, default) for n, (_, default) in fields.items()}
    for base_, kept in ((base, fields), (base, loose), (_DerivedOpen, {})):
        try:  # a type pydantic cannot check: names only; a name it refuses: nothing checked
            return create_model(f"{cls.__name__}Params", __base__=base_, **kept)
        except Exception:  # noqa: BLE001
            continue
    raise AssertionError("unreachable: a model without fields is always made")


def _type_hints(cls: type[Bot]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls.__init__)
    except Exception:  # noqa: BLE001 - a plugin's annotations may not resolve: no check
        return {}


def given(model: type[P], params: P | None, values: dict[str, Any]) -> P:
    """In a built-in adapter's constructor: the validated ``params`` it was given, or the
    keywords ``values`` validated now (a bot built directly, in a test or a script)."""
    if params is None:
        return validate_params(model, values)
    if values:
        raise TypeError(f"give either params or keywords, not both ({', '.join(values)})")
    return params


def construct(cls: type[Bot], name: str, params: BaseModel) -> Bot:
    """Bot ``name`` of ``cls`` built from its validated ``params``."""
    if declares_params(cls):
        return cls(name, params=params)
    values = {k: getattr(params, k) for k in type(params).model_fields}
    return cls(name, **values, **(params.model_extra or {}))
