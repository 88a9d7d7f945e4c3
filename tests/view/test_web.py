"""The pages of ``chatmatch view`` through Starlette's test client (no browser): every page
of a run, links from numbers to the games behind them, escaping, stored rankings used only
when fresh, the run directory untouched, and the command's bad input."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette", reason="chatmatch view needs the 'annotate' extra")
from starlette.testclient import TestClient  # noqa: E402

from chatmatch.cli import cli  # noqa: E402
from chatmatch.run.storedrun import Run  # noqa: E402
from chatmatch.view.pages import Views  # noqa: E402
from chatmatch.view.state import RunState  # noqa: E402
from chatmatch.view.web import create_app  # noqa: E402
from tests.view.conftest import EVIL_BOT, EVIL_TEXT, fingerprint  # noqa: E402


def client(*runs, **kw):
    return TestClient(create_app(Views([RunState(r) for r in runs], **kw)))


def test_every_page_of_a_run_and_the_run_is_untouched(scripted):
    before = fingerprint(scripted)
    c = client(scripted)
    assert c.get("/", follow_redirects=False).headers["location"] == "/run/0/"
    board = c.get("/run/0/").text
    assert "12 of 12 games scored" in board and "mu-k*sigma" in board
    for m, head in (("bt", "log p"), ("elo", "elo"), ("points", "pts"), ("trueskill", "mu")):
        assert f"<th>{head}</th>" in c.get(f"/run/0/?method={m}").text
    h2h = c.get("/run/0/h2h").text
    cells = re.findall(r"href='(/run/0/games\?bot=\w+&amp;vs=\w+)'", h2h)
    assert len(cells) == 12  # 4 bots, each against 3
    games = c.get(cells[0].replace("&amp;", "&")).text
    ids = re.findall(r'href="/run/0/game/(g\d+)"', games)
    assert len(ids) == 2  # the two games of a pair
    page = c.get(f"/run/0/game/{ids[0]}").text
    assert "Each dimension's verdict" in page and "higher is better" in page
    assert "<tr class='scored'>" in page and "proactivity: question" in page
    dims = c.get("/run/0/dimensions").text
    link = re.search(r"href='(/run/0/games\?bot=(\w+)&amp;dim=proactivity)'[^>]*>(\d+)<", dims)
    assert link is not None
    listed = c.get(link.group(1).replace("&amp;", "&")).text
    assert f"in which {link.group(2)} won proactivity" in listed
    assert len(re.findall(r'href="/run/0/game/', listed)) == int(link.group(3))
    people = c.get("/run/0/people").text
    assert "chatmatch annotate" in people and 'href="http://127.0.0.1:8765/"' in people
    assert c.get("/style.css").status_code == 200 and c.get("/static/view.js").status_code == 200
    assert fingerprint(scripted) == before


@pytest.mark.parametrize("url", ["/run/3/", "/run/0/game/nope", "/run/0/game/..%2Fmanifest.json",
                                 "/run/0/games?bot=nobody", "/run/0/?method=nomethod",
                                 "/run/0/games?bot=dull&dim=charm"])
def test_unknown_things_are_404_pages_that_say_what(scripted, url):
    r = client(scripted).get(url)
    assert r.status_code == 404 and re.search(r"id=\"message\">no (run|game|bot|ranking|dimension|page)", r.text)


def test_hostile_names_and_replies_are_escaped_everywhere(hostile_run, tmp_path):
    import yaml

    human = tmp_path / "h.yaml"
    human.write_text(yaml.safe_dump({"judges": {"ann": {"x": 1, EVIL_BOT: 2, "z": 3}}}))
    c = client(hostile_run, human_file=human)
    pages = ["/run/0/", "/run/0/?method=bt", "/run/0/dimensions", "/run/0/h2h", "/run/0/games",
             "/run/0/game/g001", "/run/0/people"]
    for url in pages:
        text = c.get(url).text
        assert "<script>document" not in text and "<img src=x" not in text and "<b>bold" not in text, url
        assert "&lt;img src=x onerror=" in text, url
    game = c.get("/run/0/game/g001")
    assert "&lt;b&gt;bold&lt;/b&gt;&lt;script&gt;" in game.text
    assert "script-src" not in game.headers["content-security-policy"]  # default-src 'self'
    assert "'unsafe-inline'" not in game.headers["content-security-policy"]
    assert "Kendall tau-b" in c.get("/run/0/people").text
    assert EVIL_TEXT not in c.get("/run/0/game/g002").text


def test_stored_ranking_is_used_only_while_fresh(scripted):
    stored = scripted / "rankings" / "trueskill.json"
    doc = json.loads(stored.read_text())
    doc["ranking"][0]["mu"] = 99.5  # a value no recomputation gives: shows which was used
    stored.write_text(json.dumps(doc))
    state = RunState(scripted)
    assert state.snapshot().ranking("trueskill").rows[0].stats.mu == 99.5  # type: ignore[union-attr]
    time.sleep(0.01)
    os.utime(scripted / "results.jsonl")  # results newer than the stored ranking: rank again
    assert state.snapshot().ranking("trueskill").rows[0].stats.mu != 99.5  # type: ignore[union-attr]
    doc["games"] = 3
    stored.write_text(json.dumps(doc))  # fresh, but resting on other games: rank again
    assert state.snapshot().ranking("trueskill").rows[0].stats.mu != 99.5  # type: ignore[union-attr]


def test_two_runs_ranks_moved_and_games_flipped(two_runs):
    c = client(*two_runs)
    index = c.get("/").text
    assert 'href="/run/0/"' in index and 'href="/run/1/"' in index
    page = c.get("/compare/0/1").text
    assert "2 of the 6 games both runs hold" in page
    assert page.count('href="/run/0/game/g00') == 2
    rows = re.findall(r"<tr><td class=\"name\">(\w+)</td><td>(\d)</td><td>(\d)</td>", page)
    before, after = Run.load(two_runs[0]).rank(), Run.load(two_runs[1]).rank()
    assert rows == [(b, str(before.rank_of()[b]), str(after.rank_of()[b])) for b in before.order()]
    assert any(a != b for _, a, b in rows)  # something moved


def test_live_state_changes_when_a_game_is_added(scripted):
    from tests.analysis.helpers import score_record
    from chatmatch.rundir.store import RunDir

    c = client(scripted)
    v1 = c.get("/run/0/state").json()["version"]
    assert c.get("/run/0/state").json()["version"] == v1
    store = RunDir(scripted)
    res = next(iter(store.results().values()))
    store.append_result(res, store.save_scores(score_record(res)))
    assert c.get("/run/0/state").json()["version"] != v1


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_view_command_bad_input_is_one_line(tmp_path, scripted):
    res = invoke("view", tmp_path / "nope")
    assert res.exit_code == 2 and "not a chatmatch run directory" in res.output
    assert len(res.output.strip().splitlines()) == 1
    res = invoke("view", scripted, "--human", tmp_path / "missing.yaml")
    assert res.exit_code == 2 and "missing.yaml: no such file" in res.output
    assert invoke("view", "--help").output.count("chatmatch view runs/") == 3


def test_forfeits_and_their_reasons(tmp_path):
    """A run of chatmatch's own files (tests/data/current_run) in which a bot forfeited."""
    import shutil
    from pathlib import Path

    run = tmp_path / "run"
    shutil.copytree(Path(__file__).parents[1] / "data" / "current_run", run)
    before = fingerprint(run)
    c = client(run)
    listed = c.get("/run/0/games?bot=bad").text
    assert "bad: RuntimeError: gave up (after 1 attempt(s))" in listed
    gid = re.search(r'href="/run/0/game/(g\d+)">\1</a></td><td class="name">\w+</td><td class="name">\w+</td>'
                    r"<td>[^<]*</td><td class=\"name\">\w+</td><td class=\"name\">bad:", listed)
    assert gid is not None
    page = c.get(f"/run/0/game/{gid.group(1)}").text
    assert 'class="forfeit">Forfeit by bad: RuntimeError: gave up' in page
    assert fingerprint(run) == before


def test_an_untrusted_result_line_is_left_out_and_said(scripted):
    lines = (scripted / "results.jsonl").read_text().splitlines(keepends=True)
    (scripted / "results.jsonl").write_text("".join(lines[:-1]) + lines[-1][:40])  # a torn line
    page = client(scripted).get("/run/0/").text
    assert "11 of 12 games scored" in page
    assert "1 warning(s) reading this run" in page and "damaged result line" in page


def test_a_seed_set_run_has_a_leaderboard_per_category(tmp_path):
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament
    from tests.config.test_seedsets import PAPER_SEEDS, write_yaml

    run_tournament(load_config(write_yaml(tmp_path, f"seed_utterance: {{file: {PAPER_SEEDS}}}")))
    c = client(tmp_path / "run")
    page = c.get("/run/0/").text
    assert 'id="seed-categories"' in page
    for cat in ("question", "declarative", "greeting"):
        assert f"<h3>Seed category {cat}: by points</h3>" in page
    assert "<h3>Seed category greeting: by bt</h3>" in c.get("/run/0/?method=bt").text


def test_people_page_shows_the_annotators_agreement_read_only(scripted):
    from chatmatch.cli.view import _annotations
    from tests.cli.test_annotate import judge

    judge(scripted)
    before = fingerprint(scripted)
    page = client(scripted, sections=_annotations, annotate_url="http://127.0.0.1:9000/").get(
        "/run/0/people").text
    assert '<h2 id="annotators">Agreement with your annotators</h2>' in page
    assert "Krippendorff" in page and 'href="http://127.0.0.1:9000/"' in page
    assert fingerprint(scripted) == before


def test_game_ids_of_imported_logs_are_linked_whole(tmp_path):
    """`chatmatch score --out` names games after their log files: spaces, '#', '?'."""
    from tests.analysis.helpers import game, write_run

    gid = "chat log #1?x"
    run = write_run(tmp_path / "logs", ["a", "b"], [game(gid, "a", "b", a_wins=("d1",))])
    c = client(run)
    listed = c.get("/run/0/games").text
    href = re.search(r'href="(/run/0/game/[^"]+)"', listed).group(1)
    assert href == "/run/0/game/chat%20log%20%231%3Fx"
    assert f"Game {gid}: a vs b" in c.get(href).text


def test_ties_are_shown_as_ties(tmp_path):
    from tests.analysis.helpers import won, write_run

    games = [won("g001", "a", "b", 4, 1), won("g002", "b", "a", 4, 1),
             won("g003", "a", "c", 5, 0), won("g004", "c", "a", 0, 5),
             won("g005", "b", "c", 5, 0), won("g006", "c", "b", 0, 5)]
    page = client(write_run(tmp_path / "tie", ["a", "b", "c"], games, method="points")).get("/run/0/").text
    ranks = re.findall(r"<tr><td class='name'>(\d+=?)</td><td class='name'><a [^>]*>(\w)</a>", page)
    assert ranks == [("1=", "a"), ("1=", "b"), ("3", "c")]
    assert "Ties: a = b (the ranking cannot tell them apart" in page


def test_on_this_machine_only_local_host_names_are_answered(scripted):
    """DNS rebinding: a page of another site that resolves its own name to 127.0.0.1."""
    from chatmatch.view.web import LOCAL_HOSTS

    c = TestClient(create_app(Views([RunState(scripted)]), LOCAL_HOSTS), base_url="http://127.0.0.1:8770")
    assert c.get("/run/0/").status_code == 200
    assert c.get("/run/0/", headers={"host": "localhost:8770"}).status_code == 200
    assert c.get("/run/0/", headers={"host": "evil.example:8770"}).status_code == 403
