"""The whole robustness run: build triples and broken games, evaluate, render the tables."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from chatmatch.common.registry import did_you_mean
from chatmatch.progress import Reporter
from chatmatch.robustness.accuracy import DEFAULT_TOLERANCE, Spread, Stability, Tally, evaluate
from chatmatch.robustness.dialogue import DIALOGUE_FAMILIES, DialogueCell, build_game_pairs, evaluate_games
from chatmatch.robustness.evaluators import DimensionEvaluator, Evaluator
from chatmatch.robustness.perturb import FAMILIES, turn_families
from chatmatch.robustness.triples import (DEFAULT_WINDOW, Conversation, RobustnessError, Triple,
                                          build_triples, closed_triples)
from chatmatch.common.tables import render_table


def all_families() -> list[str]:
    return [*turn_families(), *DIALOGUE_FAMILIES]


def check_families(names: Sequence[str]) -> list[str]:
    known = all_families()
    for name in names:
        if name not in known:
            raise RobustnessError(f"unknown family {name!r}.{did_you_mean(name, known)} "
                                  f"Available: {', '.join(known)}")
    return list(dict.fromkeys(names))


def targets(family: str) -> tuple[str, ...]:
    return DIALOGUE_FAMILIES.get(family) or FAMILIES.get(family).targets


@dataclass(frozen=True)
class SuiteReport:
    meta: dict[str, Any]
    evaluators: list[str]
    triples: list[Triple]
    turn_cells: dict[tuple[str, str], Tally | Stability]
    spreads: dict[str, Spread]
    game_cells: dict[tuple[str, str], DialogueCell] = field(default_factory=dict)

    def families(self) -> list[str]:
        present = {f for f, _ in self.turn_cells} | {f for f, _ in self.game_cells}
        return [f for f in all_families() if f in present]

    def blind_spots(self, evaluator: str) -> list[str]:
        """Break families whose 95% interval reaches down to chance (0.5) or below."""
        out = []
        for fam in self.families():
            cell = self.turn_cells.get((fam, evaluator)) or self.game_cells.get((fam, evaluator))
            if isinstance(cell, DialogueCell):
                cell = cell.tally
            if isinstance(cell, Tally) and cell.n and cell.ci[0] <= 0.5:
                out.append(fam)
        return out

    def to_json(self) -> dict[str, Any]:
        cells: list[dict[str, Any]] = []
        for (fam, ev), c in {**self.turn_cells, **self.game_cells}.items():
            cells.append({"family": fam, "evaluator": ev, "target": ev in targets(fam), **c.to_json()})
        return {"meta": self.meta, "evaluators": self.evaluators, "cells": cells,
                "spread": {k: v.to_json() for k, v in self.spreads.items()},
                "blind_spots": {ev: self.blind_spots(ev) for ev in self.evaluators}}


def run_suite(evaluators: Sequence[Evaluator], convs: Sequence[Conversation], *, families: Sequence[str],
              n: int, seed: int, window: int = DEFAULT_WINDOW,
              tolerance: float = DEFAULT_TOLERANCE, source: str = "chitchat-dataset",
              reporter: Reporter | None = None) -> SuiteReport:
    if n < 1:
        raise RobustnessError(f"--n must be at least 1, got {n}")
    families = check_families(families)
    turn_fams = [f for f in families if f in FAMILIES]
    closed = [f for f in turn_fams if FAMILIES.get(f).generate is None]
    triples = build_triples(convs, turn_fams, n=n, seed=seed, window=window)
    fixed = closed_triples(closed) if closed else []
    triples += [t for f in closed for t in [t for t in fixed if t.family == f][:n]]
    results = evaluate(evaluators, triples, seed=seed, tolerance=tolerance, reporter=reporter)
    game_fams = [f for f in families if f in DIALOGUE_FAMILIES]
    scorers = [e.scorer for e in evaluators if isinstance(e, DimensionEvaluator)]
    pairs = build_game_pairs(convs, game_fams, n=n, seed=seed) if game_fams and scorers else []
    meta = {"seed": seed, "n": n, "window": window, "tolerance": tolerance, "source": source,
            "families": families, "triples": len(triples), "game_pairs": len(pairs)}
    return SuiteReport(meta, [e.name for e in evaluators], triples, results.cells,
                       results.spreads, evaluate_games(scorers, pairs, reporter=reporter))


# --- rendering --------------------------------------------------------------------------------
def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.0f}"


def _cell(c: Tally | Stability | DialogueCell | None, target: bool) -> str:
    if c is None:
        return ""
    t = c.tally if isinstance(c, DialogueCell) else c
    lo, hi = t.ci
    return f"{_pct(t.accuracy)} [{_pct(lo)}-{_pct(hi)}]{'*' if target else ' '}"


def render(report: SuiteReport) -> str:
    evs, m = report.evaluators, report.meta
    cells = {**report.turn_cells, **report.game_cells}
    rows, ties = [], []
    for fam in report.families():
        first = next(c for (f, _), c in cells.items() if f == fam)
        n = (first.tally if isinstance(first, DialogueCell) else first).n
        rows.append([n, fam, *[_cell(cells.get((fam, e)), e in targets(fam)) for e in evs]])
        t = [cells.get((fam, e)) for e in evs]
        ties.append([n, fam, *[_pct((c.tally if isinstance(c, DialogueCell) else c).tie_share)
                               if isinstance(c, (Tally, DialogueCell)) else "" for c in t]])
    out = [f"Robustness (seed {m['seed']}, up to {m['n']} per family, window {m['window']} turns, "
           f"source {m['source']})",
           "accuracy % = good turn scored better, ties as half [Wilson 95% CI]; * = a dimension "
           f"this family should hurt; paraphrase: % within {m['tolerance']:g} sd",
           render_table(["n", "family", *evs], rows), "",
           "tie share %", render_table(["n", "family", *evs], ties)]
    if report.spreads:
        srows = [[s.n, name, f"{s.sd:.3g}", _pct(s.top_share), s.distinct]
                 for name, s in report.spreads.items()]
        out += ["", "score spread (all scored replies)",
                render_table(["n", "evaluator", "sd", "top %", "distinct"], srows)]
    out += ["", "cannot see (95% CI reaches 50% or below):"]
    out += [f"  {ev}: {', '.join(report.blind_spots(ev)) or '-'}" for ev in evs]
    return "\n".join(out)
