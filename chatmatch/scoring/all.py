"""``import chatmatch.scoring.all`` fills the scorer registry with the seven dimensions."""

from chatmatch.scoring.builtin import DIMENSIONS, load_builtin_scorers

load_builtin_scorers()

__all__ = ["DIMENSIONS", "load_builtin_scorers"]
