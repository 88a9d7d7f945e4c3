"""Model judges from the literature, usable as scoring dimensions of a tournament.

========================  ==============================================================
``paireval``              PairEval: pairwise preference, position swap, optional references
``geval``                 G-EVAL: evaluation form per criterion, probability-weighted 1-5
``amr_judge``             AMR paper: small-model score + semantic graph in the prompt
``aspect_judge``          adversarial paper: 0-1 per aspect with level definitions
========================  ==============================================================

Each judge is a :class:`~chatmatch.scoring.base.Scorer` registered in
:data:`~chatmatch.scoring.base.SCORERS` (``scoring.dimensions: [paireval]`` makes it the
whole game judge; next to the seven dimensions it is an extra one). :data:`JUDGES` lists
them. Backends (local ``transformers`` LM or OpenAI-compatible HTTP): :mod:`.backends`.
"""

from __future__ import annotations

from chatmatch.registry import Registry
from chatmatch.scoring.base import Scorer

JUDGES: Registry[type[Scorer]] = Registry("judge")
JUDGE_NAMES = ("paireval", "geval", "amr_judge", "aspect_judge")


def load_judges() -> None:
    """Import the judge modules (registering them as scorers) and fill :data:`JUDGES`."""
    from chatmatch.judges import amr, aspect, geval, paireval  # noqa: F401
    from chatmatch.scoring.base import SCORERS

    for name in JUDGE_NAMES:
        scorer = SCORERS.get(name)  # may run SCORERS' lazy loaders, which call this again
        if name not in JUDGES._items:  # idempotent
            JUDGES.add(name, scorer, description=SCORERS.meta(name).get("description"))


__all__ = ["JUDGES", "JUDGE_NAMES", "load_judges"]
