"""What "equal" means for the numbers chatmatch compares and writes, so that the same games
give the same points, ranks and files on every CPU (float noise, e.g. AVX2 against AVX-512
kernels, moves a value in its 7th significant digit or later).

* **Raw scores** (a dimension's value for a bot in a game): two values are a tie when they
  differ by at most :data:`RAW_TIE_REL` of the larger magnitude, with magnitudes below 1
  counted as 1 (an absolute floor of ``1e-5`` for values near zero). The same rule holds
  for every dimension: their raw scores are rates, similarities, counts per turn or
  perplexities, none of which tells two bots apart below its 5th significant digit.
* **Ratings and written numbers** (a ranking's score, bootstrap bounds, TrueSkill mu and
  sigma): written with :data:`SIG_DIGITS` significant digits (and at most
  :data:`MAX_DECIMALS` decimals), and ranked on those digits,
  so two bots whose written scores are equal share a rank and are listed by name.
"""

from __future__ import annotations

import math
from typing import Any

#: raw scores closer than this (relative, magnitudes below 1 count as 1) are a tie
RAW_TIE_REL = 1e-5

#: significant digits of every rating or interval bound that chatmatch writes or ranks by
SIG_DIGITS = 6
#: ... and at most this many decimal places: a rating centred on 0 (Bradley-Terry's mean
#: log strength) is 0 up to float noise such as 5.8e-13, written as 0.0
MAX_DECIMALS = 9


def raw_tie(a: float, b: float) -> bool:
    """Are the finite raw scores ``a`` and ``b`` equal under :data:`RAW_TIE_REL`?"""
    return a == b or abs(a - b) <= RAW_TIE_REL * max(1.0, abs(a), abs(b))


def round_sig(x: float, digits: int = SIG_DIGITS) -> float:
    """``x`` rounded to ``digits`` significant digits and :data:`MAX_DECIMALS` decimal
    places (NaN and infinities unchanged; -0.0 written as 0.0)."""
    if not math.isfinite(x):
        return x
    x = round(x, MAX_DECIMALS)
    return float(f"{x:.{digits - 1}e}") + 0.0 if x else 0.0


def rounded(value: Any, digits: int = SIG_DIGITS) -> Any:
    """``value`` (a float, or dicts, lists and tuples holding floats) with every float
    rounded by :func:`round_sig`; everything else unchanged."""
    if isinstance(value, float):
        return round_sig(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(rounded(v, digits) for v in value)
    return value
