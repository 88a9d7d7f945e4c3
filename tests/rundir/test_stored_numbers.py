"""Numbers in stored records are checked once, where a record is read (the record model:
:func:`chatmatch.records.checked_points` / ``checked_raw``): a result line whose points are
NaN, 1e308, negative or an integer too large for a float (its checksum recomputed, so it
looks genuine) is a damaged line named by file:line, never ranked, never an
OverflowError, and ``chatmatch run`` scores that game again from its transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatmatch.records import MAX_POINTS, GameResult
from chatmatch.rundir.resultsfile import checksum, read_result_lines
from tests.reliability.helpers import run_cli, tournament_yaml

BAD = {"nan": "NaN", "huge": "1e308", "negative": "-1e6", "int400": "1" + "0" * 400}


def _poison(results: Path, value: str) -> str:
    """Line 1's first point replaced by ``value`` (JSON text), its checksum recomputed."""
    lines = results.read_text().splitlines()
    entry = json.loads(lines[0])
    rec = entry["record"]
    bot = rec["players"][0]
    dim = sorted(rec["points"][bot])[0]
    rec["points"][bot][dim] = "__X__"
    rec = json.loads(json.dumps(rec).replace('"__X__"', value))
    entry["record"], entry["sha256"] = rec, checksum(rec)
    results.write_text("\n".join([json.dumps(entry), *lines[1:]]) + "\n")
    return rec["game_id"]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("numbers")
    y = base / "t.yaml"
    y.write_text(tournament_yaml(bots=3, exchanges=1))
    rd = base / "run"
    r = run_cli("run", str(y), "--out", str(rd))
    assert r.returncode == 0, r.stderr
    return y, rd


@pytest.mark.parametrize("value", BAD.values(), ids=list(BAD))
def test_a_point_out_of_range_is_a_damaged_line(small_run, tmp_path, value):
    rd = tmp_path / "run"
    import shutil
    shutil.copytree(small_run[1], rd)
    gid = _poison(rd / "results.jsonl", value)
    lines, warnings = read_result_lines(rd / "results.jsonl")
    assert gid not in {r.game_id for _, r, _ in lines}
    assert len(warnings) == 1 and f"results.jsonl:1: ignored a damaged result line (points" in warnings[0]
    assert f"game {gid} is scored again from its transcript" in warnings[0]


def test_rank_show_report_and_run_refuse_an_int_of_400_digits(small_run, tmp_path):
    import shutil
    y, template = small_run
    rd = tmp_path / "run"
    shutil.copytree(template, rd)
    _poison(rd / "results.jsonl", BAD["int400"])
    for args in (("rank", str(rd)), ("show", str(rd)), ("report", str(rd))):
        r = run_cli(*args)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        assert "results.jsonl:1: ignored a damaged result line" in r.stderr, r.stderr
    r = run_cli("run", str(y), "--out", str(rd))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "1 scored now" in r.stdout + r.stderr
    totals = [json.loads(x)["record"]["points"] for x in (rd / "results.jsonl").read_text().splitlines()]
    assert all(0 <= v <= MAX_POINTS for p in totals for dims in p.values() for v in dims.values())


def test_the_view_shows_the_run_without_the_bad_line(small_run, tmp_path):
    pytest.importorskip("starlette")
    import shutil

    from starlette.testclient import TestClient

    from chatmatch.view.pages import Views
    from chatmatch.view.state import RunState
    from chatmatch.view.web import create_app
    rd = tmp_path / "run"
    shutil.copytree(small_run[1], rd)
    _poison(rd / "results.jsonl", BAD["int400"])
    c = TestClient(create_app(Views([RunState(rd)])))
    for page in ("/run/0/", "/run/0/?method=bt", "/run/0/dimensions", "/run/0/games"):
        assert c.get(page).status_code == 200, page


@pytest.mark.parametrize("raw", [float("inf"), 10 ** 400, "3", True])
def test_a_raw_score_must_be_a_finite_number(raw):
    rec = {"game_id": "g1", "players": ["a", "b"], "raw": {"a": {"d": raw}, "b": {"d": 1.0}},
           "points": {"a": {"d": 0.0}, "b": {"d": 1.0}}}
    with pytest.raises(ValueError, match=r"raw\['a'\]\['d'\] is"):
        GameResult.from_json(rec)
    rec["raw"]["a"]["d"] = None  # no score: NaN, as before
    assert GameResult.from_json(rec).points["b"]["d"] == 1.0
