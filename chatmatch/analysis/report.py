"""A self-contained HTML report of a run: one file, inline CSS, figures embedded as data
URIs, no script and no external URL, so it opens offline and can be mailed around.

Sections: leaderboard, per-dimension breakdown, head-to-head matrix, figures, agreement
with humans (when a human file is given) and every transcript, with the turns that scored
highlighted from the per-turn details the scorers wrote to ``scores/GID.json``. Every piece
of text from a bot or a file goes through :func:`html.escape`.
"""

from __future__ import annotations

import base64
import html
import math
from typing import Any, Iterable, Sequence

from chatmatch import __version__
from chatmatch.analysis.agreement import (compare_run, dimension_wins, few_bots_note,
                                          order_text, ranks_text)
from chatmatch.analysis.human import HumanRanking
from chatmatch.analysis.methods import method_table
from chatmatch.analysis.plots import head_to_head_matrix, run_figures, to_bytes
from chatmatch.common.display import shown
from chatmatch.ranking import Ranking
from chatmatch.records import ScoreRecord
from chatmatch.run.seedtables import category_rankings, category_text
from chatmatch.run.storedrun import Run
from chatmatch.scoring.details import turn_notes
from chatmatch.transcript import Transcript

_COLOURS = {"fluency": "#e3f2fd", "knowledge": "#e8f5e9", "proactivity": "#fff8e1",
            "specificity": "#f3e5f5", "diversity": "#ffebee", "consistency": "#fbe9e7",
            "relevance": "#e0f7fa"}

_CAPTIONS = {
    "ranks": "Rank of every bot by each ranking method and by the humans (paper, Figure 3).",
    "trueskill": "TrueSkill mu with +-sigma bars; the triangles are the conservative score "
                 "mu - k*sigma that orders the leaderboard.",
    "head_to_head": "Game points each bot (row) scored against each opponent (column).",
    "dimension_wins": "Games in which each bot won each dimension.",
}

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em auto;
max-width:1100px;color:#222;line-height:1.4;padding:0 1em}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0}th,td{border:1px solid #ccc;padding:.25em .6em;
text-align:right}th{background:#f4f4f4}td.name,th.name{text-align:left}
.meta{color:#555}.fig{max-width:100%;border:1px solid #eee;margin:.5em 0}
details{margin:.4em 0;border:1px solid #ddd;border-radius:4px;padding:.3em .6em}
summary{cursor:pointer;font-weight:600}
table.turns td{text-align:left;vertical-align:top}table.turns{width:100%}
tr.scored{background:#fffbea}tr.scored td.text{font-weight:600}.badge{display:inline-block;border-radius:3px;
padding:0 .35em;margin:.1em .2em .1em 0;font-size:.8em;border:1px solid #bbb}
.measure{color:#777;font-size:.8em}.seed{color:#777;font-style:italic}.note{color:#a60}
"""


def _e(v: Any) -> str:
    """``v`` shown (controls and bidirectional overrides escaped) and HTML-escaped."""
    return html.escape(shown(str(v)), quote=True)


def _num(v: Any) -> str:
    if isinstance(v, float):
        return "n/a" if math.isnan(v) else f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return _e(v)


def _table(headers: Sequence[str], rows: Iterable[Sequence[Any]], name_cols: int = 1,
           cls: str = "") -> str:
    head = "".join(f"<th class='name'>{_e(h)}</th>" if i < name_cols else f"<th>{_e(h)}</th>"
                   for i, h in enumerate(headers))
    body = []
    for r in rows:
        cells = "".join(f"<td class='name'>{_e(c)}</td>" if i < name_cols else f"<td>{_num(c)}</td>"
                        for i, c in enumerate(r))
        body.append(f"<tr>{cells}</tr>")
    c = f" class='{cls}'" if cls else ""
    return f"<table{c}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


# --- sections ----------------------------------------------------------------------------
def _leaderboard(r: Ranking) -> str:
    headers, rows = r.leaderboard()
    table = _table(headers, rows, name_cols=2)
    note = "" if r.complete else (f"<p class='note'>Incomplete: {r.games} of "
                                  f"{r.expected_games} scheduled games.</p>")
    return f"<h3>By {_e(r.method)}</h3>{table}{note}"


def _seed_categories(data: Run, main: Ranking) -> list[str]:
    """The ranking per seed category (a run whose seeds have categories), else nothing."""
    per = category_rankings(data)
    if not per:
        return []
    title, heads, rows = category_text(main, per)
    boards = "".join(_leaderboard(r).replace("<h3>By ", f"<h3>Seed category {_e(c)}: by ", 1)
                     for c, r in per.items())
    return ["<h2 id='seed-categories'>Per seed category</h2>", f"<p>{_e(title)}.</p>",
            _table(heads, rows), boards]


def _dimensions(data: Run, order: Sequence[str]) -> str:
    wins = dimension_wins(list(data.results), order)
    raw: dict[str, dict[str, list[float]]] = {d: {b: [] for b in order} for d in wins}
    for res in data.results:
        for p in res.players:
            for d, v in res.raw[p].items():
                if d in raw and not math.isnan(v):
                    raw[d][p].append(v)
    dims = list(wins)
    rows = [[b, *[wins[d][b] for d in dims],
             *[(sum(raw[d][b]) / len(raw[d][b])) if raw[d][b] else math.nan for d in dims]]
            for b in order]
    hib = {d: any(r.higher_is_better.get(d, True) for r in data.results) for d in dims}
    heads = ["bot", *[f"{d} wins" for d in dims],
             *[f"{d} mean raw ({'higher' if hib[d] else 'lower'} better)" for d in dims]]
    return ("<p>Games in which each bot won each dimension, then its mean raw score per game."
            f"</p>{_table(heads, rows)}")


def _head_to_head(data: Run, order: Sequence[str]) -> str:
    m = head_to_head_matrix(list(data.results), order)
    rows = [[b, *[m[i, j] if i != j else "—" for j in range(len(order))]]
            for i, b in enumerate(order)]
    return ("<p>Game points the row bot scored in its games against the column bot.</p>"
            + _table(["bot \\ opponent", *order], rows))


def _figures(data: Run, human: HumanRanking | None) -> str:
    out = []
    for name, fig in run_figures(data, human).items():
        b64 = base64.b64encode(to_bytes(fig, "svg")).decode("ascii")
        caption = _CAPTIONS.get(name, name)
        out.append(f"<figure><img class='fig' alt='{_e(caption)}' "
                   f"src='data:image/svg+xml;base64,{b64}'><figcaption>{_e(caption)}"
                   "</figcaption></figure>")
    return "".join(out)


def _agreement(data: Run, human: HumanRanking, ranking: Ranking) -> str:
    agreements = compare_run(ranking, list(data.results), human)
    rows = [[a.label, len(a.bots), a.tau.value, a.tau.p_value, a.rho.value, a.rho.p_value]
            for a in agreements]
    t1 = _table(["ranking", "bots", "Kendall tau-b", "p", "Spearman rho", "p"], rows)
    methods = sorted({c.p_method for a in agreements for c in (a.tau, a.rho) if c.p_method})
    how = f"<p class='meta'>p: two-sided, {_e(', '.join(methods))}.</p>" if methods else ""
    few = few_bots_note(len(agreements[0].bots))
    warn = f"<p class='note'>Warning: {_e(few)}.</p>" if few else ""
    ours = ranks_text({b: float(r) for b, r in ranking.rank_of().items()})
    theirs = ranks_text(human.ranks)
    side = _table(["bot", ranking.method, "humans"],
                  [[b, ours[b], theirs.get(b, "-")] for b in ranking.order()])
    meth = [[v.label, v.order_text(), v.tau] for v in method_table(data, human)]
    t2 = _table(["method", "order", "tau vs humans"], meth, name_cols=2)
    hr = order_text(human.ranks, show_ranks=True)
    return (f"<p>Human ranking ({human.judges} judge(s), from {_e(human.source)}; tied bots "
            f"joined by =, tied ranks shown as =N): {_e(hr)}</p>{warn}{side}{t1}{how}"
            f"<h3>Ranking methods</h3>{t2}")


# --- transcripts -------------------------------------------------------------------------
def _transcript(tr: Transcript, scores: ScoreRecord | None, summary: str,
                opened: bool = False) -> str:
    notes = turn_notes(scores)
    rows = []
    for t in tr.turns:
        badges = []
        for n in notes.get(t.index, []):
            if n.scored:
                colour = _COLOURS.get(n.dimension, "#eeeeee")
                badges.append(f"<span class='badge' style='background:{colour}'>"
                              f"{_e(n.dimension)}: {_e(n.text)}</span>")
            else:
                badges.append(f"<span class='measure'>{_e(n.dimension)}: {_e(n.text)}</span> ")
        scored_turn = any(n.scored for n in notes.get(t.index, []))
        cls = " class='scored'" if scored_turn else ""
        text = f"<span class='seed'>(seed)</span> {_e(t.text)}" if t.seed else _e(t.text)
        rows.append(f"<tr{cls}><td>{t.index}</td><td>{_e(t.speaker)}</td>"
                    f"<td class='text'>{text}</td><td>{''.join(badges)}</td></tr>")
    table = ("<table class='turns'><thead><tr><th>#</th><th class='name'>speaker</th>"
             "<th class='name'>text</th><th class='name'>what scored</th></tr></thead>"
             f"<tbody>{''.join(rows)}</tbody></table>")
    state = " open" if opened else ""
    return (f"<details id='game-{_e(tr.game_id)}'{state}><summary>{summary}</summary>"
            f"{table}</details>")


def _transcripts(data: Run) -> str:
    results = {r.game_id: r for r in data.results}
    out: list[str] = []
    for gid, tr in sorted(data.transcripts().items()):
        res = results.get(gid)
        a, b = tr.players
        head = f"{_e(gid)}: {_e(a)} vs {_e(b)}"
        if res is not None:
            head += (f" — {res.total[a]:g} : {res.total[b]:g}, "
                     f"{'winner ' + _e(res.winner) if res.winner else 'tie'}")
            if res.forfeit:
                head += f" (forfeit by {_e(res.forfeit.bot)}: {_e(res.forfeit.reason)})"
        out.append(_transcript(tr, data.scores(gid), head, opened=not out))
    return "".join(out) or "<p>No transcripts stored.</p>"


def build_report(data: Run, human: HumanRanking | None = None,
                 sections: Sequence[tuple[str, str, str]] = ()) -> str:
    """The whole report as one HTML string; ``sections``: more sections (anchor id, title,
    HTML body) put before the transcripts, e.g. the annotators' agreement."""
    main = data.rank()
    pts = data.rank(method="points")
    order = main.order()
    parts = [
        f"<h1>chatmatch report: {_e(data.name)}</h1>",
        f"<p class='meta'>{len(data.results)} scored games, {len(data.bots)} bots, dimensions "
        f"{_e(', '.join(f'{d} (weight {w:g})' for d, w in data.weights.items()))}; "
        f"chatmatch {_e(__version__)}</p>",
        "<h2 id='leaderboard'>Leaderboard</h2>", _leaderboard(main),
        *([_leaderboard(pts)] if main.method != "points" else []),
        *_seed_categories(data, main),
        "<h2 id='dimensions'>Per-dimension breakdown</h2>", _dimensions(data, order),
        "<h2 id='head-to-head'>Head to head</h2>", _head_to_head(data, order),
        "<h2 id='figures'>Figures</h2>", _figures(data, human),
    ]
    if human is not None:
        parts += ["<h2 id='humans'>Agreement with humans</h2>", _agreement(data, human, main)]
    for anchor, title, body in sections:
        parts += [f"<h2 id='{_e(anchor)}'>{_e(title)}</h2>", body]
    parts += ["<h2 id='transcripts'>Transcripts</h2>",
              "<p>Highlighted turns scored on some dimension; grey notes are measurements.</p>",
              _transcripts(data)]
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
            f"<title>chatmatch report: {_e(data.name)}</title><style>{_CSS}</style></head>"
            f"<body>{''.join(parts)}</body></html>\n")
