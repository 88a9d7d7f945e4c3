"""Leagues that grow (chatmatch.run.league): adding a bot to a finished run plays only its
games and leaves every stored file as it was; retiring a bot re-ranks without it."""

import json
import sqlite3
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import RunDirError
from chatmatch.play.schedule import double_round_robin, league_games
from chatmatch.run.rerank import rerank
from chatmatch.run.tournament import run_tournament
from tests.scripted import CountingBot

BOTS = {"rich": ("rich", 1), "plain": ("plain", 0), "dull": ("dull", 0),
        "seeded": ("seeded", 2), "late": ("plain", 3)}


def league_yaml(tmp_path: Path, names, *, extra="", exchanges=3) -> Path:
    lines = ["name: grow", f"exchanges: {exchanges}", "reply_cache: on", "bots:"]
    for n in names:
        style, ask = BOTS[n]
        lines += [f"  - name: {n}", "    adapter: tests.scripted:CountingBot",
                  f"    params: {{style: {style}, ask_every: {ask}}}"]
    lines += ["scoring:", "  dimensions: [proactivity, specificity, diversity]"]
    p = tmp_path / "league.yaml"
    p.write_text("\n".join(lines) + "\n" + extra)
    return p


def run(tmp_path, names, **kw):
    return run_tournament(load_config(league_yaml(tmp_path, names, **kw)), tmp_path / "run")


def snapshot(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes()
            for sub in ("transcripts", "scores") for p in (run_dir / sub).iterdir()}


def cached(run_dir: Path) -> dict[str, tuple[str, str]]:
    with sqlite3.connect(run_dir / "reply_cache.sqlite") as db:
        return {k: (b, r) for k, b, r in db.execute("SELECT key, bot, reply FROM replies")}


def ranked(run_dir: Path, name="trueskill") -> list[str]:
    return [r["bot"] for r in json.loads((run_dir / "rankings" / f"{name}.json").read_text())["ranking"]]


def test_growing_schedule_keeps_every_game_id_and_adds_2n_games():
    old = double_round_robin(["a", "b", "c"], ["Hi?", "Yo?"], 5)
    grown = league_games(["a", "b", "c", "d"], 3, ["Hi?", "Yo?"], 5)
    assert grown[:len(old)] == old
    new = grown[len(old):]
    assert len(new) == 2 * 3 and all("d" in g.players for g in new)
    assert [g.game_id for g in new] == [f"g{i:03d}" for i in range(7, 13)]
    # retiring b leaves its matches out; their ids are not reused
    active = league_games(["a", "b", "c", "d"], 3, ["Hi?", "Yo?"], 5, active=["a", "c", "d"])
    assert {g.game_id for g in active} <= {g.game_id for g in grown}
    assert all("b" not in g.players for g in active) and len(active) == 6


def test_adding_a_bot_plays_only_its_games_and_keeps_old_files_byte_identical(tmp_path):
    first = run(tmp_path, ["rich", "plain", "dull"])
    assert first.games_played == 6
    rd = tmp_path / "run"
    before, cache_before = snapshot(rd), cached(rd)
    results_before = (rd / "results.jsonl").read_bytes()
    CountingBot.reset()
    s = run(tmp_path, ["rich", "plain", "dull", "seeded"])
    assert s.games_played == 6 and s.games_scored == 6 and s.games_total == 12
    assert CountingBot.calls == 6 * 5  # 6 new games x (2*3 - 1 seed) turns, nothing replayed
    after = snapshot(rd)
    assert {k: after[k] for k in before} == before
    assert sorted(set(after) - set(before)) == sorted(
        f"{d}/g{i:03d}.{ext}" for i in range(7, 13) for d, ext in (("transcripts", "jsonl"), ("scores", "json")))
    assert (rd / "results.jsonl").read_bytes().startswith(results_before)
    cache_after = cached(rd)
    assert {k: cache_after[k] for k in cache_before} == cache_before and len(cache_after) > len(cache_before)
    assert sorted(ranked(rd)) == ["dull", "plain", "rich", "seeded"]
    manifest = json.loads((rd / "manifest.json").read_text())
    assert manifest["roster"] == ["rich", "plain", "dull", "seeded"] and manifest["founders"] == 3
    assert any(e["event"] == "bots_changed" and e["added"] == ["seeded"] for e in manifest["history"])
    # the same YAML again: nothing to play
    assert run(tmp_path, ["rich", "plain", "dull", "seeded"]).games_played == 0


def test_retiring_a_bot_reranks_without_it_and_keeps_its_games(tmp_path):
    run(tmp_path, ["rich", "plain", "dull"])
    rd = tmp_path / "run"
    before = snapshot(rd)
    s = run(tmp_path, ["rich", "plain"])
    assert s.games_played == 0 and s.games_total == 2
    assert sorted(s.ranking.order()) == ["plain", "rich"] and sorted(ranked(rd, "points")) == ["plain", "rich"]
    assert snapshot(rd) == before  # dull's games stay on disk
    ranking, _ = rerank(rd)  # `chatmatch rank` reads the same league
    assert sorted(ranking.order()) == ["plain", "rich"] and ranking.games == 2 and ranking.complete
    # the option keeps retired bots ranked on the games they played
    kept = run(tmp_path, ["rich", "plain"], extra="schedule: {retired: keep}\n")
    assert sorted(kept.ranking.order()) == ["dull", "plain", "rich"] and kept.ranking.games == 6
    assert sorted(rerank(rd)[0].order()) == ["dull", "plain", "rich"]


def test_a_bot_brought_back_plays_only_the_bots_that_joined_while_it_was_away(tmp_path):
    run(tmp_path, ["rich", "plain", "dull"])
    run(tmp_path, ["rich", "plain"])
    s = run(tmp_path, ["rich", "plain", "late"])
    assert s.games_played == 4
    s = run(tmp_path, ["rich", "plain", "late", "dull"])
    assert s.games_played == 2  # dull vs late, both legs
    assert s.games_total == 12 and sorted(s.ranking.order()) == ["dull", "late", "plain", "rich"]


@pytest.mark.parametrize("change, expected", [
    (dict(exchanges=4), "changed: exchanges 3 -> 4"),
    (dict(extra="seed: 9\n"), "changed: seed 0 -> 9"),
])
def test_what_makes_another_league_is_refused_saying_what_may_change(tmp_path, change, expected):
    run(tmp_path, ["rich", "plain", "dull"])
    with pytest.raises(RunDirError) as err:
        run(tmp_path, ["rich", "plain", "dull", "seeded"], **change)
    msg = str(err.value)
    assert expected in msg and "May change in place: the bot list" in msg and "May not: seed" in msg


def test_a_kept_bot_with_other_params_is_refused(tmp_path):
    run(tmp_path, ["rich", "plain", "dull"])
    BOTS["dull"] = ("plain", 0)
    try:
        with pytest.raises(RunDirError, match=r"changed adapter or params of dull\)\. .*give a changed bot a new name"):
            run(tmp_path, ["rich", "plain", "dull"])
    finally:
        BOTS["dull"] = ("dull", 0)
    # a retired bot's spec is remembered: it cannot come back changed either
    run(tmp_path, ["rich", "plain"])
    BOTS["dull"] = ("rich", 0)
    try:
        with pytest.raises(RunDirError, match="changed adapter or params of dull"):
            run(tmp_path, ["rich", "plain", "dull"])
    finally:
        BOTS["dull"] = ("dull", 0)


def test_the_readme_commands_grow_and_shrink_a_league(tmp_path):
    """README, "Growing a league": run, add a bot, run, rank, delete a bot, run."""
    from click.testing import CliRunner

    from chatmatch.cli import cli

    def chatmatch(*args):
        r = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        return r.output

    out = tmp_path / "run"
    yaml = league_yaml(tmp_path, ["rich", "plain", "dull", "seeded"])
    assert "4 bots, 6 matches, 12 games" in chatmatch("run", yaml, "--out", out)
    yaml = league_yaml(tmp_path, ["rich", "plain", "dull", "seeded", "late"])
    text = chatmatch("run", yaml, "--out", out)
    assert "5 bots, 10 matches, 20 games" in text and "8 game(s) to play" in text
    assert "late" in chatmatch("rank", out)
    yaml = league_yaml(tmp_path, ["rich", "plain", "seeded", "late"])
    text = chatmatch("run", yaml, "--out", out)
    assert "0 game(s) to play" in text or "nothing to play" in text.lower()
    ranking = chatmatch("rank", out)
    assert "dull" not in ranking and "late" in ranking


def test_a_kept_retired_bot_is_counted_in_the_header(tmp_path):
    """The stop-40 attack's 1.9: with ``retired: keep`` the header said '3 bots, 3 matches,
    6 games' while the ranking under it listed 4 bots on 12 games. The header names the
    retired bot the ranking keeps."""
    from click.testing import CliRunner

    from chatmatch.cli import cli

    def chatmatch(*args):
        r = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        return r.output

    out = tmp_path / "run"
    chatmatch("run", league_yaml(tmp_path, ["rich", "plain", "dull", "seeded"]), "--out", out)
    text = chatmatch("run", league_yaml(tmp_path, ["rich", "plain", "seeded"],
                                        extra="schedule: {retired: keep}\n"), "--out", out)
    assert "3 bots (and 1 retired, ranked on the games they played: dull), 3 matches" in text
    assert "dull" in chatmatch("rank", out)


def test_a_league_derives_its_schedule_once_per_file(tmp_path, monkeypatch):
    import chatmatch.run.league as league_module
    from chatmatch.run.league import League

    cfg = load_config(league_yaml(tmp_path, ["rich", "plain", "dull"]))
    calls = []
    real = league_module.league_games
    monkeypatch.setattr(league_module, "league_games", lambda *a: calls.append(a) or real(*a))
    league = League(roster=("rich", "plain", "dull"), founders=3, active=("rich", "plain"))
    first = league.all_games(cfg)
    first.clear()  # a caller's list is its own
    assert league.all_games(cfg) == real(league.roster, 3, league_module.seed_plan(cfg), cfg.seed)
    assert league.active_games(cfg) == league.active_games(cfg)
    assert len(calls) == 2  # once for every game, once for the active bots' games
    league.all_games(cfg.model_copy(update={"seed": cfg.seed + 1}))
    assert len(calls) == 3  # another file: derived again
    assert league == League(roster=("rich", "plain", "dull"), founders=3, active=("rich", "plain"))
