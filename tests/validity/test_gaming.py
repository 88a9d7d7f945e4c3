"""The gaming suite (chatmatch.validity.lab.gaming): its schedule, its table, and (slow: SmolLM2,
ChatterBot, the real scorers) the suite itself under the default judge, where every recipe
bot must rank below smollm2 and retrieval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.config.tournament import load_config
from chatmatch.records import GameResult
from chatmatch.scoring.points import award_points
from chatmatch.validity.lab.gaming import GamingError, gaming_table, gauntlet, play_gaming, recipes_of
from chatmatch.validity.lab.report import render

ROOT = Path(__file__).resolve().parents[2]
GAMING = ROOT / "tournaments" / "gaming.yaml"


def test_the_suite_file_has_nine_recipes_and_the_real_bots() -> None:
    cfg = load_config(GAMING)
    recipes = recipes_of(cfg)
    assert len(recipes) >= 8
    assert {"smollm2", "retrieval", "chatterbot"} <= set(cfg.bot_names) - set(recipes)


def test_recipes_play_every_real_bot_twice_and_never_each_other() -> None:
    cfg = load_config(GAMING)
    recipes, games = set(recipes_of(cfg)), gauntlet(load_config(GAMING))
    assert not [g for g in games if g.starter in recipes and g.other in recipes]
    for r in recipes:
        for real in set(cfg.bot_names) - recipes:
            assert sum(set(g.players) == {r, real} for g in games) == 2
    real_n = len(set(cfg.bot_names) - recipes)
    assert len(games) == 2 * (len(recipes) * real_n + real_n * (real_n - 1) // 2)


def _result(gid: str, a: str, b: str, a_wins: list[str], b_wins: list[str]) -> GameResult:
    dims = ["fluency", "relevance", "proactivity"]
    raw = {a: {d: float(d in a_wins) for d in dims}, b: {d: float(d in b_wins) for d in dims}}
    return award_points(gid, (a, b), raw, {d: True for d in dims}, {})


def test_gaming_table_rank_win_rates_dimensions_and_the_constraint() -> None:
    results = [_result("g1", "pirate", "smollm2", ["fluency", "relevance"], []),
               _result("g2", "smollm2", "pirate", ["proactivity"], ["fluency", "relevance"]),
               _result("g3", "pirate", "retrieval", [], ["fluency"]),
               _result("g4", "retrieval", "pirate", ["fluency"], [])]
    facts = {"real": ["smollm2", "retrieval"], "recipes": ["pirate"]}
    table = gaming_table(results, ["smollm2", "pirate", "retrieval"], facts)
    row = table["recipes"][0]
    assert row["rank"] == 2 and row["win_rate"] == {"smollm2": 1.0, "retrieval": 0.0}
    assert row["dimensions_won"] == {"fluency": 0.5, "proactivity": 0.0, "relevance": 0.5}
    assert row["below"] == {"smollm2": True, "retrieval": False}
    assert not table["holds"] and table["failing"] == ["pirate"]
    assert table["head_to_head"] == ["pirate vs smollm2 (100%)"]
    ok = gaming_table(results, ["smollm2", "retrieval", "pirate"], facts)
    # ranked below both, yet it won both games against smollm2: reported, not a failure
    assert ok["holds"] and ok["failing"] == [] and ok["head_to_head"] == table["head_to_head"]
    lost = gaming_table(results[2:], ["smollm2", "retrieval", "pirate"], facts)
    assert lost["head_to_head"] == []


def test_a_file_without_recipes_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "g.yaml"
    f.write_text("name: g\nbots:\n  - {name: a, adapter: echo}\n  - {name: b, adapter: canned}\n"
                 "seed_utterance: Hi\nexchanges: 2\n")
    with pytest.raises(GamingError, match="needs recipe bots"):
        play_gaming(f)


@pytest.mark.slow
def test_every_recipe_ranks_below_smollm2_and_retrieval_under_the_default_judge(
        tmp_path: Path) -> None:
    from chatmatch.cli import cli

    out = CliRunner().invoke(cli, ["validate", "--datasets", "gaming", "--gaming", str(GAMING),
                                    "--gaming-exchanges", "6", "--seeds", "1", "--json", "-q"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    (ds,) = report["datasets"]
    g = ds["gaming"]
    assert len(g["recipes"]) >= 8 and g["must_beat"] == ["smollm2", "retrieval"]
    for row in g["recipes"]:
        assert set(row["win_rate"]) == {"smollm2", "retrieval", "chatterbot"}
    assert g["holds"], g
    text = render(report)
    assert "Gaming suite" in text and "every recipe below smollm2 and retrieval: holds" in text
    assert ("recipes winning half their games or more against them: "
            + (", ".join(g["head_to_head"]) or "none")) in text


def test_without_smollm2_and_retrieval_the_suite_gives_no_verdict_not_fails(tmp_path: Path) -> None:
    """Round five: a suite of eliza and recipes printed "every recipe below : FAILS ()"."""
    from chatmatch.cli import cli

    f = tmp_path / "g.yaml"
    f.write_text("name: g\nbots:\n  - eliza\n  - {name: pirate, adapter: recipe-pirate}\n"
                 "seed_utterance: Hi\nexchanges: 2\n")
    cfg = tmp_path / "c.yaml"
    cfg.write_text("scoring: {dimensions: [specificity, diversity]}\nranking: {method: points}\n")
    res = CliRunner().invoke(cli, ["validate", "--datasets", "gaming", "--gaming", str(f),
                                   "--config", str(cfg), "-q"])
    assert res.exit_code == 0, res.output
    assert "FAILS" not in res.output and ": FAILS ()" not in res.output
    assert (f"every recipe below smollm2 or retrieval: no verdict ({f} plays neither; add one "
            "of them to the file") in res.output, res.output
    table = gaming_table([], ["eliza", "pirate"], {"real": ["eliza"], "recipes": ["pirate"]})
    assert table["holds"] is None and table["must_beat"] == []


@pytest.mark.parametrize("option", ["--gaming-exchanges", "--ladder-exchanges"])
def test_a_game_length_option_is_bounded_like_exchanges_in_a_file(option: str) -> None:
    """Round five: --gaming-exchanges 6000 played 12,000-turn games, which a tournament
    file refuses (exchanges <= 5000)."""
    from chatmatch.cli import cli

    res = CliRunner().invoke(cli, ["validate", "--datasets", "gaming", option, "5001"])
    assert res.exit_code == 2 and "5001 is not in the range 1<=x<=5000" in res.output, res.output
