"""Model judges from the literature, usable as scoring dimensions of a tournament.

========================  ==============================================================
``paireval``              PairEval: pairwise preference, position swap, optional references
``geval``                 G-EVAL: evaluation form per criterion, probability-weighted 1-5
``amr_judge``             AMR paper: small-model score + semantic graph in the prompt
``aspect_judge``          adversarial paper: 0-1 per aspect with level definitions
========================  ==============================================================

Each judge is a :class:`~chatmatch.scoring.base.Scorer` (``judge = True``) registered in
:data:`~chatmatch.scoring.base.SCORERS` like the seven dimensions (``scoring.dimensions:
[paireval]`` makes it the whole game judge; next to the seven dimensions it is an extra one).
Backends (local ``transformers`` LM or OpenAI-compatible HTTP): :mod:`.backends`.
"""
