"""People in the loop: ``chatmatch annotate RUN`` serves a local page on which people judge
the run's own games (who was better, overall and per dimension), stores every judgement in
``RUN/annotations.sqlite``, and ``compare``/``analyze``/``report`` turn the judgements into
a human ranking and measure chatmatch's agreement with it.

Modules: :mod:`.questions` (the plain-language question per dimension), :mod:`.items` (what
is shown: a game, or a pair of games ACUTE-style), :mod:`.assign` (which item an annotator
gets next: every pair of bots first, then overlap between annotators), :mod:`.store` (the
SQLite file), :mod:`.agreement` (human ranking, tau with its interval, Krippendorff's alpha),
:mod:`.web` and :mod:`.server` (the page, on Starlette served by uvicorn: the ``annotate``
extra), :mod:`.report` (the tables of ``compare`` and the report).
"""
