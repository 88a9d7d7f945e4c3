"""Seed sets (chatmatch.config.seedsets): seed utterances from a file or by category, assigned to
matches reproducibly, and the ranking per seed category in rank, report and compare."""

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from chatmatch.play.schedule import SeedPlan, double_round_robin, seed_plan
from chatmatch.run.seedtables import category_rankings
from chatmatch.run.tournament import run_tournament
from chatmatch.run.storedrun import Run

REPO = Path(__file__).resolve().parents[2]
PAPER_SEEDS = REPO / "tournaments" / "seeds" / "paper_seed_types.csv"
STYLES = [("rich", 1), ("plain", 0), ("dull", 0), ("seeded", 2), ("p2", 3)]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def write_yaml(tmp_path: Path, seed_line: str, bots=STYLES) -> Path:
    lines = ["name: seeds", "exchanges: 3", f"output_dir: {tmp_path / 'run'}", seed_line, "bots:"]
    for name, ask in bots:
        style = "plain" if name == "p2" else name
        lines += [f"  - name: {name}", "    adapter: tests.scripted:CountingBot",
                  f"    params: {{style: {style}, ask_every: {ask}}}"]
    lines += ["scoring: {dimensions: [proactivity, specificity, diversity]}",
              "ranking: {method: points}"]
    p = tmp_path / "t.yaml"
    p.write_text("\n".join(lines) + "\n")
    return p


@pytest.mark.parametrize("name, text, expected", [
    ("s.txt", "# openers\nHi!\n\nWhat now?\n", ["Hi!", "What now?"]),
    ("s.csv", "category,text\nq,What now?\ng,Hi!\nq,Why?\n", {"categories": {"q": ["What now?", "Why?"], "g": ["Hi!"]}}),
    ("s.jsonl", '{"category": "q", "utterance": "What now?"}\n{"category": "g", "utterance": "Hi!"}\n',
     {"categories": {"q": ["What now?"], "g": ["Hi!"]}}),
    ("s.csv", "seed_utterance\nHi!\nYo!\n", ["Hi!", "Yo!"]),
])
def test_seed_file_formats(tmp_path, name, text, expected):
    (tmp_path / name).write_text(text)
    cfg = load_config(write_yaml(tmp_path, f"seed_utterance: {{file: {name}}}"), check_bots=False)
    got = cfg.seed_utterance if isinstance(cfg.seed_utterance, list) else cfg.seed_utterance.model_dump()
    assert got == expected


@pytest.mark.parametrize("seed_line, files, message", [
    ("seed_utterance: {file: nope.csv}", {}, "t.yaml:4: seed_utterance.file: seed file .*nope.csv does not exist"),
    ("seed_utterance: {file: s.xlsx}", {"s.xlsx": "x"}, "must end in .txt, .csv or .jsonl"),
    ("seed_utterance: {file: s.csv}", {"s.csv": "cat,words\nq,Hi\n"}, "no utterance column"),
    ("seed_utterance: {file: s.csv}", {"s.csv": "category,text\n,Hi\n"}, r"row 1 \(line 2\): needs a non-empty 'text' and category"),
    ("seed_utterance: {file: s.jsonl}", {"s.jsonl": "[1]\n"}, r"s.jsonl:1: each line must be a JSON object"),
    ("seed_utterance: {file: s.csv, extra: 1}", {"s.csv": "text\nHi\n"}, "unknown key.*extra"),
    ("seed_utterance: {categories: {q: [Hi], g: [Hi]}}", {}, "'Hi' is in two categories"),
    ("seed_utterance: {categories: {}}", {}, "at least one category"),
])
def test_bad_seed_sets_get_one_clear_line(tmp_path, seed_line, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(write_yaml(tmp_path, seed_line), check_bots=False)


def test_categories_share_the_matches_evenly_and_reproducibly():
    plan = SeedPlan((("q", ("Q1?", "Q2?")), ("d", ("D1.",)), ("g", ("Hi!",))))
    bots = [f"b{i}" for i in range(7)]
    games = double_round_robin(bots, plan, seed=3)
    assert Counter(g.seed_category for g in games) == {"q": 14, "d": 14, "g": 14}
    assert games == double_round_robin(bots, plan, seed=3)
    assert [g.seed_category for g in games] != [g.seed_category for g in double_round_robin(bots, plan, 4)]
    for g in games:  # both games of a match open with the same utterance, of its category
        assert g.seed_utterance in dict(plan.categories)[g.seed_category]
    assert {g.seed_utterance for g in games if g.seed_category == "q"} == {"Q1?", "Q2?"}
    # a plain list is used match by match, as before seed sets existed
    assert [g.seed_utterance for g in double_round_robin(bots[:3], ["a", "b"], 0)] == ["a", "a", "b", "b", "a", "a"]


def test_the_paper_seed_file_gives_a_table_per_category_in_rank_and_report(tmp_path):
    yaml = write_yaml(tmp_path, f"seed_utterance: {{file: {PAPER_SEEDS}}}")
    s = run_tournament(load_config(yaml))
    assert s.games_played == 20
    rd = tmp_path / "run"
    run = Run.load(rd)
    per = category_rankings(run)
    assert list(per) == ["question", "declarative", "greeting"]
    assert sum(r.games for r in per.values()) == 20
    r = invoke("rank", rd)
    assert r.exit_code == 0
    assert "Rank per seed category (points; games in brackets)" in r.output
    header = next(line for line in r.output.splitlines() if "overall (20)" in line)
    for cat, rk in per.items():
        assert f"{cat} ({rk.games})" in header
    doc = json.loads(invoke("rank", rd, "--json").output)
    assert set(doc["seed_categories"]) == {"question", "declarative", "greeting"}
    assert doc["seed_categories"]["greeting"]["games"] == per["greeting"].games
    out = tmp_path / "r.html"
    assert invoke("report", rd, "--out", out).exit_code == 0
    page = out.read_text()
    assert "id='seed-categories'" in page and "Seed category greeting: by points" in page
    # compare: one agreement row per category
    human = tmp_path / "h.yaml"
    human.write_text("ranking: {rich: 1, seeded: 2, p2: 3, plain: 4, dull: 5}\n")
    doc = json.loads(invoke("compare", rd, "--human", human, "--json").output)
    assert [a["label"] for a in doc["agreement"]][-3:] == ["seed: question", "seed: declarative", "seed: greeting"]


def test_a_run_without_categories_prints_no_category_table(tmp_path):
    run_tournament(load_config(write_yaml(tmp_path, "seed_utterance: ['Hi?', 'Yo?']", STYLES[:3])))
    r = invoke("rank", tmp_path / "run")
    assert r.exit_code == 0 and "seed category" not in r.output
    assert "seed_categories" not in json.loads(invoke("rank", tmp_path / "run", "--json").output)


def test_the_shipped_seed_type_tournament_loads_the_paper_seed_file():
    cfg = load_config(REPO / "tournaments" / "seed_types.yaml", check_bots=False)
    cats = dict(seed_plan(cfg).categories)
    assert list(cats) == ["question", "declarative", "greeting"]
    # the paper's example of each type (section 4.4.3) comes first
    assert [items[0] for items in cats.values()] == [
        "What did you do last week?", "Not feeling well this morning.", "Hi! How are you?"]
