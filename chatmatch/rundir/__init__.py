"""The run directory on disk: writing it (store), results.jsonl and its integrity checks, its config.yaml read once (storedsetup), a stored run read back (storedrun), resuming (resume)."""
