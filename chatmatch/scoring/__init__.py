"""The virtual judge: scorers (one module per dimension), their registry, and game points."""

from chatmatch.scoring.base import SCORERS


def _load_builtin() -> None:
    from chatmatch.scoring.builtin import load_builtin_scorers

    load_builtin_scorers()


# The first lookup in SCORERS imports the built-in dimension modules.
SCORERS.add_loader(_load_builtin)


def _load_judges() -> None:
    from chatmatch.judges import load_judges

    load_judges()


# ... and the model judges (chatmatch.judges): paireval, geval, amr_judge, aspect_judge.
SCORERS.add_loader(_load_judges)
