"""1. The tournament file: YAML -> a checked TournamentConfig (tournament), its league blocks, presets, seed sets, bot names."""
