"""The learned judge (the ``learned`` dimension), in one place: :mod:`.judge` scores a game,
:mod:`.features` computes a side's features (the same way in training and in a
tournament), :mod:`.model` reads and writes the model file, and ``learned_judge.json`` is
the shipped model. Training it needs the lab's datasets, so it lives in the lab:
:mod:`chatmatch.validity.training` (``python -m chatmatch.validity.training.train``). What
the shipped model was trained on and how well it does (its data card):
docs/learned-judge.md.
"""
