"""The one check of a ``params`` block (bots and scorers): pydantic's errors in words,
naming the parameter at fault."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import field_validator

from chatmatch.common.params import (ParamsProblem, describe_fields, describe_type,
                                     problem_text, validate_params)
from chatmatch.common.validation import StrictModel


class Demo(StrictModel):
    size: int
    ratio: float = 0.5
    mode: Literal["fast", "slow"] = "fast"
    tags: list[str] | None = None

    @field_validator("ratio")
    @classmethod
    def _ratio(cls, v: float) -> float:
        if not 0 <= v <= 1:
            raise ValueError(f"parameter 'ratio' must be in [0, 1], got {v}")
        return v


@pytest.mark.parametrize("block, param, words", [
    ({"size": 1, "sise": 2}, "sise", "unknown parameter(s) 'sise' (did you mean 'size'?)"),
    ({}, None, "missing required parameter(s) 'size'"),
    ({"size": "big"}, "size", "parameter 'size' must be an integer, got 'big' (input should be"),
    ({"size": 1, "mode": "quick"}, "mode", "parameter 'mode' must be one of fast | slow, got 'quick'"),
    ({"size": 1, "ratio": 3}, "ratio", "parameter 'ratio' must be in [0, 1], got 3"),
    ({"size": True}, "size", "parameter 'size' must be an integer, got True (expected a number, got true"),
    ({"size": 1, "tags": [1]}, "tags", "parameter 'tags' must be a list of strings or null ("),
    ([1, 2], None, "expected a mapping of parameters, got [1, 2]"),
])
def test_a_problem_names_its_parameter_in_words(block, param, words) -> None:
    with pytest.raises(ParamsProblem) as err:
        validate_params(Demo, block)
    assert str(err.value).startswith(words) and err.value.param == param
    assert err.value.path == ((param,) if param else ())


def test_the_one_wording_lists_the_accepted_parameters() -> None:
    assert validate_params(Demo, {"size": 2}).size == 2
    assert describe_fields(Demo) == ("size: int (required), ratio: float = 0.5, mode: "
                                     "Literal['fast', 'slow'] = 'fast', tags: list[str] | None = None")
    text = problem_text("Bot 'b' (adapter 'x')", ParamsProblem("parameter 'size' ...", "size"), Demo)
    assert text.startswith("Bot 'b' (adapter 'x'): bad parameters: parameter 'size' ...")
    unknown = problem_text("scorer 'd'", ParamsProblem("unknown parameter(s) 'q'", "q"), Demo)
    assert unknown.startswith("scorer 'd': unknown parameter(s) 'q'. Accepted parameters: size")
    assert describe_type(dict[str, float] | None) == "a mapping or null"
