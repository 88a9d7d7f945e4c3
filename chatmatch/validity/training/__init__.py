"""Training the learned judge (:mod:`chatmatch.scoring.learned`) on the lab's rated data:
``data`` reads the rated sides, ``table`` computes their features, ``fit`` fits the model,
``evaluate`` measures it out of sample, ``variants`` compares recipes, and ``train`` is the
command (``python -m chatmatch.validity.training.train``). See docs/learned-judge.md.
"""
