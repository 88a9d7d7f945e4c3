"""``scoring.canned`` (the default) in a run: a bot's canned turns are found across its
games, so once play ends the run scores every game again in one call and its stored points
are those of the games scored together, whatever batches they were scored in while
playing."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.tournament import load_config
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from chatmatch.scoring.build import build_scorers
from chatmatch.scoring.engine import score_games

DIMS = "[proactivity, specificity, diversity]"


def _cfg(tmp_path: Path, extra: str = "", concurrent: int = 2):  # type: ignore[no-untyped-def]
    text = (f"name: c\nexchanges: 4\nseed: 3\noutput_dir: {tmp_path / 'run'}\n"
            f"concurrent_games: {concurrent}\nbots:\n"
            "  - {name: pirate, adapter: recipe-pirate}\n"
            "  - {name: questions, adapter: recipe-questions}\n"
            "  - {name: eliza, adapter: eliza}\n"
            f"scoring:\n  dimensions: {DIMS}\n  params: {{proactivity: {{questions: all}}}}\n"
            + extra)
    p = tmp_path / "c.yaml"
    p.write_text(text)
    return load_config(p)


def _stored(run: Path) -> dict[str, dict[str, dict[str, float]]]:
    return {p.stem: {d: v["raw"] for d, v in json.loads(p.read_text())["dimensions"].items()}
            for p in sorted((run / "scores").iterdir())}


def _events(run: Path) -> list[dict]:  # type: ignore[type-arg]
    return [h for h in json.loads((run / "manifest.json").read_text())["history"]
            if h["event"] == "scored together"]


def test_a_run_stores_the_points_of_its_games_scored_together(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path)
    assert cfg.scoring.canned is True  # the default
    run_tournament(cfg)
    run = tmp_path / "run"
    games = sorted(RunDir(run).transcripts().values(), key=lambda g: g.game_id)
    assert len(games) == 6
    together = score_games(games, build_scorers(cfg.scoring))
    apart = [score_games([g], build_scorers(cfg.scoring))[0] for g in games]
    stored = _stored(run)
    assert stored == {g.game_id: {d: s.raw for d, s in sc.items()} for g, sc in zip(games, together)}
    # scored one at a time (no other game to find canned turns in), some points differ
    assert any(t["proactivity"].raw != a["proactivity"].raw for t, a in zip(together, apart))
    assert [e["games"] for e in _events(run)] == [6]
    # every result line matches its score record (readers trust it)
    assert len(RunDir(run).results()) == 6
    # show tags the canned turns: what decided the point
    shown = "".join(CliRunner().invoke(cli, ["show", str(run), g.game_id, "--width", "200"]).stdout
                    for g in games)
    assert "not counted (canned)" in shown


def test_a_finished_run_run_again_is_not_scored_again(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path)
    run_tournament(cfg)
    before = (tmp_path / "run" / "results.jsonl").read_text()
    s = run_tournament(cfg)
    assert s.games_played == 0
    assert len(_events(tmp_path / "run")) == 1
    assert (tmp_path / "run" / "results.jsonl").read_text() == before


def test_without_canned_nothing_is_scored_again(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, extra="  canned: false\n")
    run_tournament(cfg)
    assert _events(tmp_path / "run") == []
    games = sorted(RunDir(tmp_path / "run").transcripts().values(), key=lambda g: g.game_id)
    alone = {g.game_id: {d: s.raw for d, s in score_games([g], build_scorers(cfg.scoring))[0].items()}
             for g in games}
    assert _stored(tmp_path / "run") == alone  # each game's points its own
