"""The virtual judge: scorers (one module per dimension), their registry, and game points."""
