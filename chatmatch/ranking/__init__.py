"""Tournament-level rankings from game results.

Every method is registered in :data:`RANKERS` by name; :func:`rank` runs the one a
:class:`RankingConfig` names, with its parameters, and returns a :class:`Ranking`.
"""

from chatmatch.ranking.base import RANKERS, Ranking, RankRow
from chatmatch.ranking.config import RankingConfig, rank

__all__ = ["RANKERS", "Ranking", "RankRow", "RankingConfig", "rank"]
