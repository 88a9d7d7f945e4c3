"""Tournament-level rankings from game results.

Every method is registered in :data:`RANKERS` by name and called as
``rank(results, bots, config)`` returning a :class:`Ranking`.
"""

from chatmatch.ranking.base import RANKERS, Ranking, RankRow, rank

# built-in methods register themselves on import
from chatmatch.ranking import points as _points  # noqa: F401,E402
from chatmatch.ranking import trueskill_rank as _trueskill  # noqa: F401,E402
from chatmatch.ranking import bradley_terry as _bt  # noqa: F401,E402
from chatmatch.ranking import elo as _elo  # noqa: F401,E402

__all__ = ["RANKERS", "Ranking", "RankRow", "rank"]
