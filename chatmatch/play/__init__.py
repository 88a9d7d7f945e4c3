"""2-3. Schedule and play: the round-robin and budgeted schedules, the two-bot game loop (game), calls into bot code, the reply cache, the games bar and forfeits."""
