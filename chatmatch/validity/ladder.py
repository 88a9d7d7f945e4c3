"""The fault ladder (``tournaments/ladder.yaml``) as a lab dataset.

A base bot plays copies of itself that say something faulty on a known share of their turns
(``params.rate``; the base bot has rate 0). The true order is known by construction: fewer
faults rank higher. The ladder's games are played here (deterministic for its ``seed``),
then scored and ranked by the lab's configuration like every other dataset; only the
ladder file's bots, seed utterance, seed and exchanges are used (``exchanges`` can be cut
to make the lab cheaper).
"""

from __future__ import annotations

from pathlib import Path

from chatmatch.config import TournamentConfig, load_config
from chatmatch.errors import ChatmatchError
from chatmatch.validity.games import GameDataset


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
    from chatmatch.executors.local import load_bots
    from chatmatch.game import play_games
    from chatmatch.schedule import double_round_robin

    cfg = load_config(path)
    if exchanges is not None:
        cfg = cfg.model_copy(update={"exchanges": exchanges})
    reference = construction_scores(cfg, str(path))
    schedule = double_round_robin(cfg.bot_names, cfg.seed_utterances, cfg.seed)
    bots = load_bots(cfg, set(cfg.bot_names))
    try:
        games = play_games(schedule, bots, cfg.exchanges, cfg.failures,
                           concurrent=cfg.concurrent_games)
    finally:
        for b in bots.values():
            b.close()
    forfeits = sum(g.forfeit is not None for g in games)
    games = [g for g in games if g.forfeit is None]
    return GameDataset("ladder", tuple(sorted(games, key=lambda g: g.game_id)),
                       {"construction": reference},
                       facts={"exchanges": cfg.exchanges, "seed": cfg.seed, "forfeits": forfeits,
                              "file": str(path)})
