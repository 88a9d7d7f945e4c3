"""Readers of the lab's public human-judged datasets: DSTC9 (``dstc9``), Spot The Bot
(``stb``, its human rankings ``human_stb``), USR (``usr``); ``cleaning`` strips model
artefacts, ``datahelp`` says where to get a dataset. FED is read by
:mod:`chatmatch.analysis.fed`."""
