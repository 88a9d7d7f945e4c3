"""One way to declare and check the ``params`` of a bot or a scorer.

Both declare a pydantic model (a scorer's ``Params``, :class:`chatmatch.scoring.base.
ScorerParams`; a bot adapter's ``Params``, :class:`chatmatch.adapters.BotParams`), and
both YAML blocks are checked by :func:`validate_params`, which turns pydantic's error into
one line in words and names the parameter at fault (:class:`ParamsProblem`), so the error
points at that parameter's YAML line::

    t.yaml:8: bots.1.params.context_turns: ... parameter 'context_turns' must be an integer, got 'x' (...)
    t.yaml:3: scoring.params.diversity.sigma_r: parameter 'sigma_r' must be a number, got 'x' (...)
"""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from chatmatch.common.registry import close_matches

M = TypeVar("M", bound=BaseModel)


class ParamsProblem(ValueError):
    """A ``params`` block that does not fit its model; ``param``: the parameter at fault
    (None: the block as a whole, e.g. a missing parameter)."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param
        #: keys from the YAML mapping that holds the block down to the parameter at fault
        self.path: tuple[str, ...] = (param,) if param else ()


def problem_text(owner: str, problem: ParamsProblem, model: type[BaseModel]) -> str:
    """The one wording of a ``params`` problem, for bots and scorers alike:
    ``<owner>: bad parameters: <problem>. Accepted parameters: <name: type = default, ...>.``"""
    text = str(problem)
    if not text.startswith(("unknown parameter", "missing required")):
        text = f"bad parameters: {text}"
    return f"{owner}: {text}. Accepted parameters: {describe_fields(model)}."


def validate_params(model: type[M], block: Any) -> M:
    """``block`` validated by ``model``; a :class:`ParamsProblem` in words if it does not fit."""
    if not isinstance(block, dict):
        raise ParamsProblem(f"expected a mapping of parameters, got {block!r}")
    try:
        return model.model_validate(block)
    except ValidationError as exc:
        raise params_problem(model, exc) from None


def params_problem(model: type[BaseModel], exc: ValidationError) -> ParamsProblem:
    """The first problem of ``exc`` in words: unknown parameters (with a close match), the
    missing ones, or ``parameter 'k' must be <type in words>, got <value> (<why>)``."""
    errors = exc.errors()
    unknown = [str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden" and e["loc"]]
    if unknown:
        fields = list(model.model_fields)
        hints = [f"'{u}' (did you mean '{close[0]}'?)" if close else f"'{u}'"
                 for u in unknown for close in [close_matches(u, fields, n=1)]]
        return ParamsProblem(f"unknown parameter(s) {', '.join(hints)}", unknown[0])
    missing = [str(e["loc"][0]) for e in errors if e["type"] == "missing" and e["loc"]]
    if missing:
        return ParamsProblem(f"missing required parameter(s) {', '.join(map(repr, missing))}")
    err = errors[0]
    msg = str(err["msg"])
    key = str(err["loc"][0]) if err["loc"] else None
    field = model.model_fields.get(key) if key else None
    if field is None or (msg.startswith("Value error, ")  # a validator's own sentence
                         and not msg.startswith("Value error, expected ")):
        return ParamsProblem(msg.removeprefix("Value error, "), key)
    got = f", got {err.get('input')!r}" if len(err["loc"]) == 1 else ""
    why = msg.removeprefix("Value error, ")
    return ParamsProblem(f"parameter '{key}' must be {describe_type(field.annotation)}"
                         f"{got} ({why[:1].lower() + why[1:]})", key)


_TYPE_WORDS = {str: ("text", "strings"), float: ("a number", "numbers"),
               int: ("an integer", "integers"), bool: ("true or false", "booleans"),
               type(None): ("null", "nulls")}


def describe_type(hint: Any, plural: bool = False) -> str:
    """An annotation in words: ``list[str] | None`` -> "a list of strings or null"."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in _TYPE_WORDS:
        return _TYPE_WORDS[hint][plural]
    if origin is typing.Literal:
        return "one of " + " | ".join(map(str, args))
    if origin is typing.Annotated:
        return describe_type(args[0], plural)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(a, plural) for a in args)
    if origin in (list, tuple, set, frozenset) and args:
        return ("lists" if plural else "a list") + " of " + describe_type(args[0], True)
    if origin is dict or hint is dict:
        return "mappings" if plural else "a mapping"
    return getattr(hint, "__name__", str(hint))


def _type_text(hint: Any) -> str:
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    return str(hint).replace("typing.", "")


def describe_fields(model: type[BaseModel]) -> str:
    """``model``'s parameters for a message: ``name: type = default`` or ``(required)``."""
    return ", ".join(field_texts(model)) or "none"


def field_texts(model: type[BaseModel]) -> list[str]:
    """One ``name: type = default`` (or ``name: type (required)``) per parameter of ``model``."""
    parts = []
    for name, field in model.model_fields.items():
        if field.annotation is Any:
            ann = ""
        else:
            ann = f": {_type_text(field.annotation)}"
        if field.is_required():
            default = " (required)"
        elif field.default is PydanticUndefined:
            default = f" = {field.default_factory() if field.default_factory else None!r}"  # type: ignore[call-arg]
        else:
            default = f" = {field.default!r}"
        parts.append(f"{name}{ann}{default}")
    return parts
