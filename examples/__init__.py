"""Examples that can be named from a tournament YAML by import path (run from the repo root)."""
