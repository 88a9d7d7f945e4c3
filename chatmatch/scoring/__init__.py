"""The virtual judge: scorers (one module per dimension), their registry
(:data:`chatmatch.scoring.base.SCORERS`), and game points."""
