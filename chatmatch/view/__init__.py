"""``chatmatch view``: a read-only local web app over one or more run directories
(leaderboard with intervals, per-dimension and head-to-head tables whose numbers open the
games behind them, each game with its scored turns, agreement with people, two runs side by
side), which follows a run while ``chatmatch run`` plays it. It draws its tables with the
report's templates (:mod:`chatmatch.analysis.templating`)."""
