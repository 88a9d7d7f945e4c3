"""A self-contained HTML report of a run: one file, inline CSS, figures embedded as data
URIs, no script and no external URL, so it opens offline and can be mailed around.

Sections, listed in a contents list at the top: leaderboard, per-dimension breakdown,
head-to-head matrix, figures, agreement with humans (when a human file is given), the games
of each bot (every bot's name in the tables links there; each game links to its transcript)
and every transcript, with the turns that scored highlighted and each turn's deciding
values (fluency SLOR, questions counted or not, turns left out or degenerate) from the
per-turn details the scorers wrote to ``scores/GID.json``. The page is
``templates/report.html``, drawn with the same table macros as the ``chatmatch view`` app
(``templates/tables.html``); every piece of text from a bot or a file is HTML-escaped
(Jinja2's autoescape, :func:`html.escape` in the sections built here). Every table sits in
a scroll container, so the page keeps its width (1,280 px) whatever the number of bots or
dimensions.
"""

from __future__ import annotations

import base64
import html
import math
from typing import Any, Iterable, Sequence

from markupsafe import Markup

from chatmatch import __version__
from chatmatch.analysis.agreement import compare_run, order_text, ranks_text
from chatmatch.stats.correlation import few_bots_note
from chatmatch.analysis.human import HumanRanking
from chatmatch.analysis.methods import method_table
from chatmatch.analysis.plots import run_figures, to_bytes
from chatmatch.analysis.runtables import board, dimension_table, head_to_head
from chatmatch.analysis.templating import environment, stylesheet
from chatmatch.common.display import shown
from chatmatch.ranking import Ranking
from chatmatch.run.seedtables import category_rankings, category_text
from chatmatch.run.storedrun import Run
from chatmatch.scoring.details import turn_notes

_CAPTIONS = {
    "ranks": "Rank of every bot by each ranking method and by the humans (paper, Figure 3).",
    "trueskill": "TrueSkill mu with +-sigma bars; the triangles are the conservative score "
                 "mu - k*sigma that orders the leaderboard.",
    "head_to_head": "Game points each bot (row) scored against each opponent (column).",
    "dimension_wins": "Games in which each bot won each dimension.",
}



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
    return (f"<div class='scroll'><table{c}><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


# --- sections ----------------------------------------------------------------------------
def _figures(data: Run, human: HumanRanking | None, only: Sequence[str] = ()) -> str:
    out = []
    for name, fig in run_figures(data, human).items():
        if only and name not in only:
            continue
        b64 = base64.b64encode(to_bytes(fig, "svg")).decode("ascii")
        caption = _CAPTIONS.get(name, name)
        out.append(f"<figure><img class='fig' alt='{_e(caption)}' "
                   f"src='data:image/svg+xml;base64,{b64}'><figcaption>{_e(caption)}"
                   "</figcaption></figure>")
    return "".join(out)


def agreement_html(data: Run, human: HumanRanking, ranking: Ranking) -> str:
    """The agreement section: tau and rho against the human ranking, the ranks side by
    side, every ranking method against the humans."""
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


def rank_chart_html(data: Run, human: HumanRanking) -> str:
    """The rank chart (every method and the humans) as an inline SVG figure."""
    return _figures(data, human, only=("ranks",))


def seed_categories(data: Run, main: Ranking) -> dict[str, Any] | None:
    """The ranking per seed category by ``main``'s method (a run whose seeds have
    categories), else None."""
    per = category_rankings(data, method=main.method)
    if not per:
        return None
    title, heads, rows = category_text(main, per)
    return {"title": title, "table": Markup(_table(heads, rows)),
            "boards": [(c, board(r)) for c, r in per.items()]}


def contents(categories: bool, human: bool, sections: Sequence[tuple[str, str, str]]
             ) -> list[tuple[str, str]]:
    """The report's contents list: (anchor, title) of each section it has."""
    return [("leaderboard", "Leaderboard"),
            *([("seed-categories", "Per seed category")] if categories else []),
            ("dimensions", "Per-dimension breakdown"), ("head-to-head", "Head to head"),
            ("figures", "Figures"), *([("humans", "Agreement with humans")] if human else []),
            *((a, t) for a, t, _ in sections), ("games-by-bot", "Games by bot"),
            ("transcripts", "Transcripts")]


def build_report(data: Run, human: HumanRanking | None = None,
                 sections: Sequence[tuple[str, str, str]] = ()) -> str:
    """The whole report as one HTML string; ``sections``: more sections (anchor id, title,
    HTML body) put before the transcripts, e.g. the annotators' agreement."""
    main = data.rank()
    boards = [board(main)] + ([board(data.rank(method="points"))] if main.method != "points" else [])
    order = main.order()
    results = {r.game_id: r for r in data.results}
    transcripts = dict(sorted(data.transcripts().items()))
    games = [{"id": gid, "tr": tr, "res": results.get(gid), "notes": turn_notes(data.scores(gid))}
             for gid, tr in transcripts.items()]
    cats = seed_categories(data, main)
    bots = order + [b for b in data.bots if b not in order]
    anchors = {b: f"bot-{i}" for i, b in enumerate(bots, 1)}
    by_bot = [(b, anchors[b], [g for g, tr in zip(games, transcripts.values()) if b in tr.players])
              for b in bots]
    page = environment().get_template("report.html").render(
        contents=contents(cats is not None, human is not None, sections), by_bot=by_bot,
        bot_link=lambda name: f"#{anchors.get(name, 'games-by-bot')}",
        name=data.name, games=len(data.results), expected=data.manifest.expected_games,
        bots=len(data.bots), version=__version__,
        weights=", ".join(f"{d} (weight {w:g})" for d, w in data.weights.items()),
        css=Markup(stylesheet()), boards=boards, categories=cats,
        dimensions=dimension_table(list(data.results), order), order=order,
        h2h=head_to_head(list(data.results), order), figures=Markup(_figures(data, human)),
        agreement=Markup(agreement_html(data, human, main)) if human is not None else "",
        sections=[(a, t, Markup(body)) for a, t, body in sections], transcripts=games)
    return page.rstrip() + "\n"
