"""The validity lab: score the human-judged datasets (:mod:`chatmatch.validity.datasets`)
with the configured scorers and ranking and measure the agreement (``core`` runs it)."""
