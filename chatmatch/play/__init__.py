"""2-3. Schedule and play: the round-robin and budgeted schedules, growing leagues, the two-bot game loop, calls into bot code, the reply cache, the games bar and forfeits."""
