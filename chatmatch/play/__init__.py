"""2-3. Schedule and play: the round-robin and budgeted schedules, calls into bot code, the reply cache, the games bar and forfeits (the two-bot game loop is :mod:`chatmatch.executors.game`)."""
