"""The pages of ``chatmatch view``: what each one shows of a run, as template context.
Every page reads a :class:`~chatmatch.view.state.Snapshot` (cached until the run changes);
only a game's page reads a transcript and a score record."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlencode

from markupsafe import Markup

from chatmatch.analysis.human import HumanRanking, load_human
from chatmatch.analysis.report import agreement_html, rank_chart_html, seed_categories
from chatmatch.analysis.runtables import (board, compare_ranks, dimension_table, flipped_games,
                                          head_to_head, select_games, selection_title, verdicts)
from chatmatch.common.safeio import read_text_bounded
from chatmatch.errors import ChatmatchError
from chatmatch.ranking.base import RANKERS
from chatmatch.run.storedrun import Run
from chatmatch.scoring.details import turn_notes
from chatmatch.transcript import Transcript
from chatmatch.view.judging import judge_differences, judge_text
from chatmatch.view.state import RunState, Snapshot

#: a game id that names a file of the run's transcripts folder (anything else is a 404,
#: never a path elsewhere): no separator, no NUL, not . or ..
GAME_ID = re.compile(r"^(?!\.{1,2}$)[^/\\\x00]{1,255}$")
#: the ranking methods every board offers first; then every other registered method
#: (:data:`chatmatch.ranking.base.RANKERS`: bt-style, a plugin's)
FIRST_METHODS = ("trueskill", "bt", "elo", "points")


def methods() -> tuple[str, ...]:
    """The ranking methods the board's menu offers and ``?method=`` accepts."""
    return tuple(dict.fromkeys((*FIRST_METHODS, *RANKERS.names())))

#: more sections of a run's people page: (anchor, title, HTML), e.g. the annotators'
Sections = Callable[[Run], Sequence[tuple[str, str, str]]]


class NotFound(ChatmatchError):
    """A page that does not exist (an unknown run, game, bot or method)."""


@dataclass
class Views:
    """The runs the app shows, and where their people data comes from."""

    states: list[RunState]
    human_file: Path | None = None
    sections: Sections | None = None
    annotate_url: str = "http://127.0.0.1:8765/"
    poll_ms: int = 2000
    _names: dict[int, str] = field(default_factory=dict)

    def state(self, i: int) -> RunState:
        if not 0 <= i < len(self.states):
            raise NotFound(f"no run number {i}; this view has {len(self.states)}")
        return self.states[i]

    def loaded(self, i: int) -> tuple[Snapshot, Run]:
        snap = self.state(i).snapshot()
        if snap.run is None:
            raise ChatmatchError(snap.error)
        return snap, snap.run

    def common(self, i: int, snap: Snapshot, here: str) -> dict[str, Any]:
        """What every run page's frame shows (name, tabs, the live line)."""
        run = snap.run
        name = run.name if run else self.state(i).path.name
        return {"i": i, "run": name, "here": here, "version": snap.version,
                "games_done": snap.games, "expected": snap.expected, "poll_ms": self.poll_ms,
                "runs": len(self.states), "path": str(self.state(i).path),
                "warnings": list(run.store.warnings) if run else []}

    def link(self, i: int) -> Callable[[Mapping[str, str]], str]:
        return lambda q: f"/run/{i}/games?{urlencode(dict(q))}"

    # --- pages ---------------------------------------------------------------------------
    def board(self, i: int, method: str | None) -> dict[str, Any]:
        snap, run = self.loaded(i)
        if method is not None and method not in methods():
            raise NotFound(f"no ranking method {method!r}; methods: {', '.join(methods())}")
        ctx = self.common(i, snap, "board")
        if not run.results:
            return {**ctx, "board": None, "methods": methods(), "method": method or run.ranking.method,
                    "categories": None}
        r = snap.ranking(method)
        cats = snap.memo(f"categories:{r.method}", lambda: seed_categories(run, r))
        if cats:
            cats = {**cats, "table": Markup(cats["table"])}
        return {**ctx, "board": board(r), "meta": r.meta, "methods": methods(), "method": r.method,
                "categories": cats, "link": self.link(i)}

    def dimensions(self, i: int) -> dict[str, Any]:
        snap, run = self.loaded(i)
        order = snap.ranking().order() if run.results else list(run.bots)
        table = snap.memo("dimensions", lambda: dimension_table(list(run.results), order))
        return {**self.common(i, snap, "dimensions"), "table": table, "link": self.link(i)}

    def h2h(self, i: int) -> dict[str, Any]:
        snap, run = self.loaded(i)
        order = snap.ranking().order() if run.results else list(run.bots)
        rows = snap.memo("h2h", lambda: head_to_head(list(run.results), order))
        return {**self.common(i, snap, "h2h"), "order": order, "rows": rows, "link": self.link(i)}

    def games(self, i: int, query: Mapping[str, str]) -> dict[str, Any]:
        snap, run = self.loaded(i)
        bot, vs, dim = query.get("bot"), query.get("vs"), query.get("dim")
        for who in (bot, vs):
            if who is not None and who not in run.bots:
                raise NotFound(f"no bot {who!r} in run {run.name}")
        if dim is not None and dim not in run.dimensions:
            raise NotFound(f"no dimension {dim!r} in run {run.name}")
        chosen = select_games(run.results, bot, vs, dim)
        what = selection_title(bot, vs, dim)
        return {**self.common(i, snap, "games"), "what": what, "games": chosen}

    def game(self, i: int, gid: str) -> dict[str, Any]:
        snap, run = self.loaded(i)
        path = run.store.transcript_path(gid)
        if not GAME_ID.match(gid) or not path.is_file():
            raise NotFound(f"no game {gid!r} in run {run.name}")
        try:
            tr = Transcript.from_jsonl(read_text_bounded(path), file=str(path))
        except (ChatmatchError, OSError, UnicodeDecodeError, RecursionError) as exc:
            raise ChatmatchError(f"{path}: cannot read this game ({exc})") from None
        res = next((r for r in run.results if r.game_id == gid), None)
        scores = run.scores(gid) if res is not None else None
        return {**self.common(i, snap, "games"), "gid": gid, "tr": tr, "res": res,
                "notes": turn_notes(scores), "verdicts": verdicts(res, scores, tr) if res else []}

    def people(self, i: int) -> dict[str, Any]:
        snap, run = self.loaded(i)
        ctx = {**self.common(i, snap, "people"), "human_file": str(self.human_file or ""),
               "annotate_url": self.annotate_url, "agreement": "", "chart": "", "error": "",
               "sections": []}
        if self.human_file is not None and run.results:
            try:
                human: HumanRanking = snap.memo("human", lambda: load_human(self.human_file or "", run.bots))
                ctx["agreement"] = Markup(snap.memo("agreement", lambda: agreement_html(
                    run, human, snap.ranking())))
                ctx["chart"] = Markup(snap.memo("chart", lambda: rank_chart_html(run, human)))
            except ChatmatchError as exc:
                ctx["error"] = str(exc)
        if self.sections is not None and run.results:
            found = snap.memo("sections", lambda: list((self.sections or (lambda r: []))(run)))
            ctx["sections"] = [(a, t, Markup(h)) for a, t, h in found]
        return ctx

    def compare(self, i: int, j: int) -> dict[str, Any]:
        (sa, ra), (sb, rb) = self.loaded(i), self.loaded(j)
        if not ra.results or not rb.results:
            raise ChatmatchError("both runs need scored games to be compared")
        a, b = sa.ranking(), sb.ranking()
        return {**self.common(i, sa, "compare"), "j": j, "name_a": ra.name, "name_b": rb.name,
                "method_a": a.method, "method_b": b.method, "ranks": compare_ranks(a, b),
                "judge_a": judge_text(ra), "judge_b": judge_text(rb),
                "judge_differs": judge_differences(ra, rb),
                "judges_recorded": bool(ra.manifest.scorers and rb.manifest.scorers),
                "flipped": flipped_games(ra.results, rb.results),
                "same_games": len({r.game_id for r in ra.results} & {r.game_id for r in rb.results})}

    def index(self) -> dict[str, Any]:
        rows = []
        for k, st in enumerate(self.states):
            snap = st.snapshot()
            rows.append((k, snap.run.name if snap.run else st.path.name, str(st.path),
                         snap.games, snap.expected, snap.error))
        return {"rows": rows, "runs": len(self.states)}
