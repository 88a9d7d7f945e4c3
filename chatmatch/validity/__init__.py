"""The validity lab (``chatmatch validate``): how well chatmatch agrees with people.

Three subpackages, each importing only the ones after it:

* :mod:`~chatmatch.validity.training`: re-training the learned judge
  (:mod:`chatmatch.scoring.learned`) on the rated data;
* :mod:`~chatmatch.validity.lab`: the lab itself: ``core`` runs it (config, datasets,
  scoring, progress); ``games`` measures agreement on bot-bot games (STB, the ladder),
  ``fed`` on FED dialogues, ``dimensions`` each dimension against people's ratings,
  ``construct`` the fluency construct check; ``ladder`` plays the fault ladder; ``report``
  prints the tables;
* :mod:`~chatmatch.validity.datasets`: the readers of the public human-judged datasets
  (DSTC9, Spot The Bot and its human rankings, USR), ``cleaning`` of model artefacts, and
  ``datahelp`` (where to get a dataset).

See docs/validity.md.
"""
