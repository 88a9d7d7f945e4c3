"""Rankings per seed category (the paper's seed-type table, section 4.4.3): a run whose
``seed_utterance`` is a seed set with categories (chatmatch.config.seedsets) is ranked once on
all its games and once on the games of each category, with the run's ranking setup.
``chatmatch rank`` prints them beside the overall table, ``chatmatch report`` shows them,
and ``chatmatch compare`` gives each category's agreement with the humans.

A game's category comes from the schedule (chatmatch.play.schedule): the run's seed set,
seed, roster and founders decide which utterance, and so which category, each match used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chatmatch.play.schedule import ScheduledGame, league_games, seed_plan
from chatmatch.ranking import Ranking, RankingConfig
from chatmatch.run.rerank import ranking_config
from chatmatch.run.storedrun import Run
from chatmatch.run.storedsetup import StoredSetup


def _schedule(run: Run) -> list[ScheduledGame]:
    """The run's league schedule when its seeds have categories (else empty), in the
    seed set's category order (then game-id order)."""
    m = run.manifest
    if not m.is_tournament:
        return []
    cfg = StoredSetup(run.store.path).tournament
    if cfg is None:  # unreadable, or not a tournament this version accepts
        return []
    plan = seed_plan(cfg)
    if not plan.categorized:
        return []
    roster = list(m.roster or m.bots or cfg.bot_names)
    order = {name: i for i, (name, _) in enumerate(plan.categories)}
    games = league_games(roster, m.founders or len(roster), plan, cfg.seed)
    return sorted(games, key=lambda g: order[g.seed_category])  # stable: ids stay in order


def unscheduled_categories(run_dir: str | Path) -> list[str]:
    """The seed set's categories that open no match of the run's schedule (a seed set with
    more categories than the league has matches), in the seed set's order."""
    run = Run.load(run_dir)
    cfg = StoredSetup(run.store.path).tournament if run.manifest.is_tournament else None
    if cfg is None or not seed_plan(cfg).categorized:
        return []
    played = {g.seed_category for g in _schedule(run)}
    return [name for name, _ in seed_plan(cfg).categories if name not in played]


def category_rankings(run: Run, config: RankingConfig | None = None, seed: int | None = None,
                      method: str | None = None) -> dict[str, Ranking]:
    """The run's ranking on the games of each seed category (in the seed set's order);
    empty when the run has no categories."""
    schedule = _schedule(run)
    played = {r.game_id for r in run.results}
    bots, retired = set(run.bots), set(run.manifest.retired or ())
    # scheduled between the ranked bots; a retired bot's unplayed games are never played
    expected = [g for g in schedule if set(g.players) <= bots
                and (g.game_id in played or not set(g.players) & retired)]
    cats = {g.game_id: g.seed_category for g in schedule}
    out: dict[str, Ranking] = {}
    for name in dict.fromkeys(g.seed_category for g in schedule):
        games = [r for r in run.results if cats.get(r.game_id) == name]
        want = sum(g.seed_category == name for g in expected)
        # only the bots that played in the category are ranked in it (the others show "-")
        players = [b for b in run.bots if any(b in r.players for r in games)]
        out[name] = run.rank(games, bots=players, config=config, seed=seed, method=method,
                             expected_games=want if run.manifest.expected_games is not None else None)
    return out


def category_table(overall: Ranking, per: dict[str, Ranking]) -> tuple[list[str], list[list[Any]]]:
    """(headers, rows): each bot's overall rank and its rank in every category (the
    number of games each rests on in the header), in the overall order."""
    heads = ["bot", f"overall ({overall.games})", *(f"{c} ({r.games})" for c, r in per.items())]
    ranks = {c: r.rank_of() for c, r in per.items()}
    rows = [[row.bot, rk, *(ranks[c].get(row.bot, "-") for c in per)]
            for rk, row in overall.shown_rows()]
    return heads, rows


def category_json(per: dict[str, Ranking]) -> dict[str, Any]:
    return {c: r.to_json() for c, r in per.items()}


def rank_by_category(run_dir: str | Path, *, method: str | None = None, shuffles: int | None = None,
                     seed: int | None = None, points: str | None = None,
                     ties: dict[str, str] | None = None) -> dict[str, Ranking]:
    """``chatmatch rank``'s per-category rankings, with the same overrides as its main one."""
    run = Run.load(run_dir)
    return category_rankings(run, ranking_config(run, method=method, shuffles=shuffles,
                                                 points=points, ties=ties), seed)


def category_text(overall: Ranking, per: dict[str, Ranking]) -> tuple[str, list[str], list[list[Any]]]:
    """(title, headers, rows) of the per-category table as the terminal and the report show it."""
    heads, rows = category_table(overall, per)
    return (f"Rank per seed category ({overall.method}; games in brackets)", heads, rows)
