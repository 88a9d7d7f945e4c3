"""Robustness suite: do the scorers and judges notice broken replies?

* :mod:`~chatmatch.robustness.perturb` -- perturbation families (``FAMILIES``) and their
  generators; :mod:`~chatmatch.robustness.edits` the word-level edits behind them;
* :mod:`~chatmatch.robustness.triples` -- (history, good, broken) triples from
  chitchat-dataset, a user's transcripts, or the built-in closed-ended set;
* :mod:`~chatmatch.robustness.evaluators` -- the scorer/judge protocols and adapters;
* :mod:`~chatmatch.robustness.accuracy` -- accuracy, Wilson intervals, score spread;
* :mod:`~chatmatch.robustness.dialogue` -- whole games with injected repetition/contradiction;
* :mod:`~chatmatch.robustness.suite` -- one run end to end and its tables.
"""
