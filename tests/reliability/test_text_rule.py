"""Family 4 of issue 35, text that reaches other programs: one rule for every name
(chatmatch.config.names.check_name: bots, speakers, seed categories) and one for every text
shown (chatmatch.common.display.shown: controls and bidirectional overrides escaped in the
terminal, error messages, report.html and the annotation page); every CSV chatmatch writes
neutralises cells a spreadsheet would run as formulas (a leading ')."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from chatmatch.annotate.report import export
from chatmatch.annotate.store import Judgement
from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from tests.reliability.helpers import run_cli

FORMULAS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "plain"]


def _yaml(tmp_path: Path, names: list[str], seed: str = "", adapter: str = "tests.scripted:CountingBot",
          params: str = "{style: rich, ask_every: 1}") -> Path:
    lines = ["name: text", "exchanges: 2", "concurrent_games: 1", "record_timings: false",
             "scoring: {dimensions: [proactivity, specificity, diversity]}",
             "ranking: {method: points}", seed, "bots:"]
    for n in names:
        lines += [f"  - name: '{n}'", f"    adapter: {adapter}", f"    params: {params}"]
    p = tmp_path / "t.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def _cells(text: str, column: str) -> list[str]:
    return [row[column] for row in csv.DictReader(io.StringIO(text))]


def test_formula_names_are_neutralised_in_every_rankings_csv(tmp_path):
    run = tmp_path / "run"
    r = run_cli("run", str(_yaml(tmp_path, FORMULAS[:3] + FORMULAS[3:])), "--out", str(run))
    assert r.returncode == 0, r.stderr
    for f in sorted((run / "rankings").glob("*.csv")):
        bots = _cells(f.read_text(encoding="utf-8"), "bot")
        assert sorted(bots) == sorted(["'=1+1", "'+SUM(A1)", "'-2+3", "'@cmd", "plain"]), f
        assert all(not b.startswith(("=", "+", "-", "@")) for b in bots)
    scores = _cells((run / "rankings" / "points.csv").read_text(), "score")
    assert all(float(s) >= 0 for s in scores)  # numbers stay numbers


def test_formula_names_are_neutralised_in_an_annotations_export(tmp_path):
    j = Judgement("@alice", "i1", "q1", "g001", "=HYPERLINK(\"http://x\")", "g002", "-2+3",
                  "a", "2026-01-01", "2026-01-01")
    assert export([j], tmp_path / "out.csv", tmp_path / "annotations.sqlite") == 1
    row = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text())))[1]
    assert row[0] == "'@alice" and row[4] == "'=HYPERLINK(\"http://x\")" and row[6] == "'-2+3"


@pytest.mark.parametrize("category", ["\\u202eevil", "a\\e[2Jb", "nul\\0"])  # YAML escapes
def test_seed_categories_follow_the_name_rule(tmp_path, category):
    seed = 'seed_utterance: {categories: {"%s": ["Hi there!"], ok: ["Why?"]}}' % category
    path = _yaml(tmp_path, ["a", "b"], seed=seed)
    with pytest.raises(ConfigError, match="seed category .* holds"):
        load_config(path, check_bots=False)


def test_control_bytes_in_replies_and_seeds_never_reach_report_html(tmp_path):
    seed = 'seed_utterance: ["Hello \\e[31m red\\0 there \\u202e"]'
    path = _yaml(tmp_path, ["evil", "calm"], seed=seed, adapter="tests.reliability.evilbots:Evil",
                 params="{where: reply, how: escape}")
    run = tmp_path / "run"
    assert run_cli("run", str(path), "--out", str(run)).returncode == 0
    transcript = "".join(p.read_text() for p in (run / "transcripts").iterdir())
    assert "\\u001b" in transcript or "\x1b" in transcript  # stored as it came
    r = run_cli("report", str(run))
    assert r.returncode == 0, r.stderr
    html = (run / "report.html").read_text(encoding="utf-8")
    assert not any(c in html for c in "\x1b\x00\x07\u202e")
    assert "\\x1b[2J" in html


def test_a_bidi_override_in_a_human_file_is_shown_escaped(tmp_path):
    run = tmp_path / "run"
    assert run_cli("run", str(_yaml(tmp_path, ["a", "b"])), "--out", str(run)).returncode == 0
    human = tmp_path / "h.csv"
    human.write_text("bot,rank\na,1\n\u202eb,2\n", encoding="utf-8")
    r = run_cli("compare", str(run), "--human", str(human))
    assert r.returncode == 2 and "\u202e" not in r.stderr and "\\u202e" in r.stderr, r.stderr
