"""The gaming suite (chatmatch.validity.lab.gaming): its schedule, its table, and (slow: SmolLM2,
ChatterBot, the real scorers) the suite itself under the default judge, where every recipe
bot must rank below smollm2 and retrieval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from chatmatch.config.tournament import load_config
from chatmatch.records import GameResult
from chatmatch.scoring.points import award_points
from chatmatch.validity.lab import core
from chatmatch.validity.lab.core import GAMING_FILES, Lab, LabConfig, LabError
from chatmatch.validity.lab.gaming import (GamingError, gaming_names, gaming_table, gauntlet,
                                           play_gaming, recipes_of)
from chatmatch.validity.lab.report import render

ROOT = Path(__file__).resolve().parents[2]
GAMING = ROOT / "tournaments" / "gaming.yaml"
UNSEEN = ROOT / "tournaments" / "gaming-unseen.yaml"


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
    # stdout only: loading SmolLM2 for the first time in the process may draw transformers'
    # GGUF bar on stderr (the console script hides it; CliRunner does not run main())
    report = json.loads(out.stdout)
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


# several gaming files (one per recipe family): fast, with eliza and recipes, two dimensions

def _suite(path: Path, name: str, recipe: str = "pirate") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"name: {name}\nbots:\n  - eliza\n"
                    f"  - {{name: {recipe}, adapter: recipe-{recipe}}}\n"
                    "seed_utterance: Hi\nexchanges: 3\n")
    return path


def _fast_config(tmp_path: Path) -> Path:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("scoring: {dimensions: [specificity, diversity]}\nranking: {method: points}\n")
    return cfg


def _validate(tmp_path: Path, *args: object) -> Result:
    from chatmatch.cli import cli

    return CliRunner().invoke(cli, ["validate", "--datasets", "gaming", "--config",
                                    str(_fast_config(tmp_path)), "-q", *map(str, args)])


def test_the_default_plays_the_nine_recipe_families() -> None:
    from chatmatch.cli.validate import command

    (opt,) = [p for p in command.params if p.name == "gaming_files"]
    assert opt.multiple and tuple(opt.default) == GAMING_FILES
    names = ["gaming", "gaming-unseen", "gaming-blind", "gaming-fourth", "gaming-fifth",
             "gaming-sixth", "gaming-seventh", "gaming-eighth", "gaming-ninth",
             "gaming-tenth", "gaming-eleventh", "gaming-twelfth"]
    assert GAMING_FILES == tuple(Path(f"tournaments/{n}.yaml") for n in names)
    assert [load_config(ROOT / f).name for f in GAMING_FILES] == names
    assert gaming_names([GAMING, UNSEEN]) == ["gaming", "gaming-unseen"]
    assert Lab(LabConfig(), ROOT).gaming_files == GAMING_FILES
    help_text = " ".join(CliRunner().invoke(command, ["--help"]).output.split())
    assert "the twelve recipe families" in help_text and "repeatable" in help_text
    # every family plays the same real bots, so their verdicts compare
    for f in GAMING_FILES:
        cfg = load_config(ROOT / f)
        assert [b for b in cfg.bot_names if b in ("smollm2", "retrieval", "chatterbot")] == [
            "smollm2", "retrieval", "chatterbot"]
        assert (cfg.exchanges, cfg.seed) == (10, 7)


def test_two_gaming_files_give_two_reports_named_by_their_tournaments(tmp_path: Path) -> None:
    a, b = _suite(tmp_path / "a.yaml", "fam-a"), _suite(tmp_path / "b.yaml", "fam-b", "mirror")
    res = _validate(tmp_path, "--gaming", a, "--gaming", b, "--gaming-exchanges", 2, "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert [d["dataset"] for d in report["datasets"]] == ["fam-a", "fam-b"]
    for ds, f, recipe in zip(report["datasets"], (a, b), ("pirate", "mirror")):
        # --gaming-exchanges applies to every file (theirs: 3)
        assert ds["facts"]["file"] == str(f) and ds["facts"]["exchanges"] == 2
        assert [r["recipe"] for r in ds["gaming"]["recipes"]] == [recipe]
        assert ds["gaming"]["holds"] is None  # neither plays smollm2 or retrieval
        # each bot's share of canned turns, beside the verdict (both bots play 2 games)
        canned = ds["gaming"]["canned"]
        assert set(canned) == {"eliza", recipe} and all(0 <= v <= 1 for v in canned.values())
    text = render(report)
    assert text.count("Gaming suite ") == 2
    assert "Gaming suite fam-a: each recipe bot's rank" in text
    assert text.count("canned turns") >= 2  # a column of each suite's table
    assert "Gaming suite fam-b: each recipe bot's rank" in text
    assert text.index("Gaming suite fam-a") < text.index("pirate") < text.index(
        "Gaming suite fam-b") < text.index("mirror")
    for name, f in (("fam-a", a), ("fam-b", b)):
        assert (f"\n{name}: 2 games of 2 exchanges (seed 0, 0 forfeits); every recipe below "
                f"smollm2 or retrieval: no verdict ({f} plays neither") in text
    plain = _validate(tmp_path, "--gaming", a, "--gaming", b, "--gaming-exchanges", 2)
    assert plain.exit_code == 0 and plain.output.count("Gaming suite ") == 2


def test_a_missing_second_gaming_file_fails_before_anything_is_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[str] = []
    monkeypatch.setattr(core, "play_gaming", lambda *a, **k: played.append(a) or 1 / 0)
    a, missing = _suite(tmp_path / "a.yaml", "fam-a"), tmp_path / "nowhere" / "b.yaml"
    res = _validate(tmp_path, "--gaming", a, "--gaming", missing)
    assert res.exit_code != 0
    assert f"--gaming {missing}: no such file" in res.output, res.output
    assert played == []
    lab = Lab(LabConfig(), tmp_path, ("gaming",), gaming_files=(a, missing))
    with pytest.raises(LabError, match="nowhere"):
        lab.run()
    assert played == []


def test_the_same_gaming_file_twice_is_refused(tmp_path: Path) -> None:
    a = _suite(tmp_path / "a.yaml", "fam-a")
    res = _validate(tmp_path, "--gaming", a, "--gaming", tmp_path / "." / "a.yaml")
    assert res.exit_code != 0
    assert f"--gaming {a}: the same file given twice" in res.output, res.output
    again = tmp_path / ".." / tmp_path.name / "a.yaml"
    lab = Lab(LabConfig(), tmp_path, ("gaming",), gaming_files=(a, again))
    with pytest.raises(LabError, match=f"the same file given twice \\(as {a} and "):
        lab.check_inputs()
    with pytest.raises(LabError, match="no gaming file given"):
        Lab(LabConfig(), tmp_path, ("gaming",), gaming_files=()).check_inputs()
    # without gaming among the datasets, the gaming files are not looked at
    Lab(LabConfig(), tmp_path, ("ladder",), ladder_file=ROOT / "tournaments" / "ladder.yaml",
        gaming_files=(a, a)).check_inputs()


def test_two_files_with_the_same_tournament_name_give_distinct_datasets(tmp_path: Path) -> None:
    a, b = _suite(tmp_path / "a.yaml", "fam"), _suite(tmp_path / "b.yaml", "fam", "mirror")
    res = _validate(tmp_path, "--gaming", a, "--gaming", b, "--gaming-exchanges", 1, "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert [d["dataset"] for d in report["datasets"]] == ["fam (a)", "fam (b)"]
    text = render(report)
    assert "Gaming suite fam (a):" in text and "Gaming suite fam (b):" in text
    # the same stem too: the path tells them apart; another dataset's name: the stem
    c = _suite(tmp_path / "x" / "a.yaml", "fam")
    d = _suite(tmp_path / "ladder.yaml", "ladder")
    assert gaming_names([a, c, b, d], ["ladder"]) == [f"fam ({a})", f"fam ({c})", "fam (b)",
                                                      "ladder (ladder)"]


def test_steps_total_counts_every_gaming_file(tmp_path: Path) -> None:
    one = Lab(LabConfig(), tmp_path, ("gaming",), gaming_files=(GAMING,))
    two = Lab(LabConfig(), tmp_path, ("gaming", "ladder"), gaming_files=(GAMING, UNSEEN))
    assert one.steps_total() == 3 and two.steps_total() == 3 + 3 + 3
