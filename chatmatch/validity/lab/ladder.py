"""The fault ladder (``tournaments/ladder.yaml``) as a lab dataset.

A base bot plays copies of itself that say something faulty on a known share of their turns
(``params.rate``; the base bot has rate 0). The true order is known by construction: fewer
faults rank higher. The ladder's games are played here (deterministic for its ``seed``),
then scored and ranked by the lab's configuration like every other dataset; only the
ladder file's bots, seed utterance, seed and exchanges are used (``exchanges`` can be cut
to make the lab cheaper), with its play settings (``failures``, ``concurrent_games``,
``workers``). The games are played by the local executor, as ``chatmatch run`` plays them,
but not through the runner's other stages: they are kept in memory (no run directory, no
reply cache) and scored by the lab, not by the ladder file's scoring.
"""

from __future__ import annotations

from pathlib import Path

from chatmatch.config.tournament import TournamentConfig
from chatmatch.errors import ChatmatchError
from chatmatch.executors.local import LocalExecutor
from chatmatch.play.build import load_tournament
from chatmatch.play.schedule import double_round_robin
from chatmatch.transcript import Transcript
from chatmatch.validity.lab.games import GameDataset


class LadderError(ChatmatchError):
    """A ladder file without a known order."""


def construction_scores(cfg: TournamentConfig, where: str) -> dict[str, float]:
    """Bot -> minus its fault rate (higher is better)."""
    out = {}
    for b in cfg.bots:
        rate = b.params.get("rate", 0.0)
        if not isinstance(rate, (int, float)):
            raise LadderError(f"{where}: bot {b.name}: params.rate must be a number, got {rate!r}")
        out[b.name] = -float(rate)
    if len(set(out.values())) < 2:
        raise LadderError(f"{where}: every bot has the same fault rate; a ladder needs bots "
                          "with different params.rate")
    return out


def play_ladder(path: str | Path, exchanges: int | None = None) -> GameDataset:
    """Play the ladder's double round-robin and return its games with the true order."""
    cfg, built = load_tournament(path)  # each bot built once, as `chatmatch run` does
    if exchanges is not None:
        cfg = cfg.model_copy(update={"exchanges": exchanges})
    reference = construction_scores(cfg, str(path))
    schedule = double_round_robin(cfg.bot_names, cfg.seed_utterances, cfg.seed)
    games: list[Transcript] = []
    # the runner's play path (chatmatch.run.tournament), in this process and without a run directory
    executor = LocalExecutor(cfg, built=built)
    try:
        executor.start(set(cfg.bot_names))
        executor.play(schedule, games.append)
    finally:
        executor.close()
    forfeits = sum(g.forfeit is not None for g in games)
    games = [g for g in games if g.forfeit is None]
    return GameDataset("ladder", tuple(sorted(games, key=lambda g: g.game_id)),
                       {"construction": reference},
                       facts={"exchanges": cfg.exchanges, "seed": cfg.seed, "forfeits": forfeits,
                              "file": str(path)})
