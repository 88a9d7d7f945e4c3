"""A scorer's parameter model with constants that are no longer settable at other values
(``relevance``'s ``p``, ``fluency``'s ``cap``, ...): the hand-computed cases of a rule."""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from chatmatch.scoring.base import ScorerParams

P = TypeVar("P", bound=ScorerParams)


def fixed_at(model: type[P], /, **constants: Any) -> type[P]:
    """A subclass of ``model`` whose class constants ``constants`` have other values."""
    notes = {k: ClassVar[type(v)] for k, v in constants.items()}  # type: ignore[misc]
    return type(f"Fixed{model.__name__}", (model,), {"__annotations__": notes, **constants})


def params(model: type[P], fixed: tuple[str, ...], /, sigma_r: float | None = None,
           **values: Any) -> P:
    """``model``'s parameters from ``values``; the keys in ``fixed`` are class constants set
    through :func:`fixed_at`, ``sigma_r`` (diversity's) through ``following``."""
    constants = {k: values.pop(k) for k in fixed if k in values}
    chosen = fixed_at(model, **constants) if constants else model
    made = chosen.model_validate(values)
    return made.following(sigma_r) if sigma_r is not None else made  # type: ignore[attr-defined,no-any-return]
