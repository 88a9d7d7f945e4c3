"""Train and evaluate the combined judge (``combined``): one command, deterministic.

    python -m chatmatch.validity.training.combined --data DATA --sample 40 --stb-sample 60 \\
        --cache /tmp/learn-cache --out chatmatch/scoring/learned/combined_judge.json \\
        --evaluate combined-eval.json

The combined judge is the learned judge's linear model (:mod:`.fit`) over other features
(:func:`chatmatch.scoring.learned.features.combined_features`): the rule judge's
per-dimension outcome of the side against its partner (+1 won, -1 lost), the side's
per-turn statistics and its recipe signals (:mod:`chatmatch.scoring.learned.signals`). It
is fitted with **each kind of conversation carrying half the total weight**
(:func:`kind_weights`: bot-bot sides, Spot The Bot; human-bot sides, DSTC9 and FED), so
the thousand DSTC9 and FED sides cannot outvote Spot The Bot's.

``--evaluate FILE`` writes (JSON) and prints the out-of-sample comparison
(:func:`evaluate_combined`) of the rule judge, length alone, the learned judge and the
combined judge on the same rows and resamples: leave-one-kind-out (fitted on the other
kind only), leave-dataset-out and leave-systems-out; Spot The Bot also per domain (the
validity lab's unit); and the kind-weighted mean of docs/validity.md's rule over the
datasets this evaluation has.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from chatmatch.errors import ChatmatchError
from chatmatch.records import DimensionScore
from chatmatch.scoring.learned.features import combined_features, combined_names, training_params
from chatmatch.scoring.learned.model import FORMAT_COMBINED, PACKAGED_COMBINED, dump_model
from chatmatch.scoring.learned.model import LearnedModel
from chatmatch.stats.bootstrap import agreement, paired_difference
from chatmatch.validity.datasets.datahelp import data_dir
from chatmatch.validity.training.data import DATASETS, RatedSide
from chatmatch.validity.training.fit import SHIPPED, Recipe, fit_model, predict
from chatmatch.validity.training.table import Embed, Table, build_table, rule_scores
from chatmatch.validity.training.train import checked_datasets, data_arguments, rated_sides

#: how the combined judge is fitted: every feature (no embedding), rank targets per
#: dataset, the penalty by folds that hold out whole systems
RECIPE = Recipe(features="all", embedding=0, alpha="group", target="rank")
BOT_BOT = ("stb",)
KINDS = {"bot-bot": BOT_BOT, "human-bot": ("dstc9", "fed")}


def kind_of(dataset: str) -> str:
    return "bot-bot" if dataset in BOT_BOT else "human-bot"


def kind_weights(datasets: np.ndarray) -> np.ndarray:
    """Each row's training weight: every kind present carries the same total weight
    (the weights sum to the number of rows); with one kind, every row weighs 1."""
    kinds = np.array([kind_of(d) for d in datasets.tolist()])
    present = sorted(set(kinds.tolist()))
    out = np.ones(len(kinds))
    for k in present:
        m = kinds == k
        out[m] = len(kinds) / (len(present) * m.sum())
    return out


def combined_table(sides: Sequence[RatedSide], base: Table,
                   scores: Mapping[str, Mapping[str, DimensionScore]]) -> Table:
    """``base``'s rows (the same sides, the same order) with the combined judge's features
    (``scores``: :func:`~chatmatch.validity.training.table.rule_scores` of the sides)."""
    names = combined_names()
    rows = [combined_features(s.game, s.side, dict(scores[f"{s.dataset}:{s.game.game_id}"]))
            for s in sides]
    x = np.array([[r[n] for n in names] for r in rows], dtype=float).reshape(len(rows), len(names))
    return Table(names, x, np.zeros((len(rows), 0)), base.y, base.dataset, base.system,
                 base.rule_points, base.dim_points, base.sides, base.params)


def fit_combined(table: Table, rows: np.ndarray, weighted: bool = True,
                 trained_on: dict[str, Any] | None = None) -> LearnedModel:
    """The combined judge fitted on ``table``'s ``rows`` (kinds half each if ``weighted``)."""
    w = kind_weights(table.dataset[rows]) if weighted else None
    return fit_model(table, rows, RECIPE, trained_on, weights=w, form=FORMAT_COMBINED)


def train(data: Path, out: Path, datasets: Sequence[str] = DATASETS, cache: Path | None = None,
          sample: int | None = None, stb_sample: int | None = None,
          embed: Embed | None = None) -> tuple[Table, Table]:
    """Fit on every rated side of ``datasets``, write the model file ``out``; return the
    learned judge's table and the combined one (the same rows)."""
    sides = rated_sides(data, datasets, sample, stb_sample)
    if embed is None:
        from chatmatch.validity.training.train import minilm
        embed = minilm()
    scores = rule_scores(sides, cache, training_params())
    base = build_table(sides, embed, cache, scores)
    table = combined_table(sides, base, scores)
    counts = {d: int((table.dataset == d).sum()) for d in datasets}
    model = fit_combined(table, np.arange(len(sides)), trained_on={
        "datasets": counts, "sample": sample, "stb_sample": stb_sample,
        "weights": "bot-bot and human-bot sides carry half the total weight each",
        "target": "people's overall rating of the side, rank-normalised per dataset"})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump_model(model), encoding="utf-8")
    return base, table


Fitter = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _fitters(base: Table, comb: Table) -> dict[str, Fitter]:
    return {
        "learned": lambda tr, te: predict(fit_model(base, tr, SHIPPED), base, te),
        "combined": lambda tr, te: predict(fit_combined(comb, tr), comb, te),
        "combined, kinds unweighted": lambda tr, te: predict(fit_combined(comb, tr, False),
                                                             comb, te)}


def predictions(base: Table, comb: Table, name: str) -> dict[str, np.ndarray]:
    """Every predictor's value of each row of dataset ``name``: out of sample only."""
    mine = np.flatnonzero(base.dataset == name)
    out = {"rule judge": base.rule_points[mine],
           "length alone": base.column("own:turn_words")[mine]}
    kinds = np.array([kind_of(d) for d in base.dataset.tolist()])
    other_kind = np.flatnonzero(kinds != kind_of(name))
    other_sets = np.flatnonzero(base.dataset != name)
    for label, fit in _fitters(base, comb).items():
        if label == "combined, kinds unweighted":
            splits = ["leave-systems-out"]
        else:
            splits = ["leave-one-kind-out", "leave-dataset-out", "leave-systems-out"]
        for split in splits:
            if split == "leave-one-kind-out":
                if other_kind.size == 0:
                    continue
                out[f"{label}, {split}"] = fit(other_kind, mine)
            elif split == "leave-dataset-out":
                if other_sets.size == 0:
                    continue
                out[f"{label}, {split}"] = fit(other_sets, mine)
            else:
                pred = np.empty(mine.size)
                for s in sorted(set(base.system[mine].tolist())):
                    test = mine[base.system[mine] == s]
                    train = np.flatnonzero(~((base.dataset == name) & (base.system == s)))
                    pred[np.isin(mine, test)] = fit(train, test)
                out[f"{label}, {split}"] = pred
    return out


def _groups(table: Table) -> list[tuple[str, str, np.ndarray]]:
    """(cell, dataset, mask within the dataset's rows): every dataset, and Spot The Bot per
    domain (its systems are ``domain/system``)."""
    out = []
    for name in sorted(set(table.dataset.tolist())):
        mine = table.dataset == name
        out.append((name, name, np.ones(int(mine.sum()), dtype=bool)))
        if name == "stb":
            systems = table.system[mine]
            for dom in sorted({s.split("/", 1)[0] for s in systems.tolist()}):
                out.append((f"stb/{dom}", name,
                            np.array([s.startswith(dom + "/") for s in systems.tolist()])))
    return out


def evaluate_combined(base: Table, comb: Table, samples: int = 1000,
                      seed: int = 0) -> dict[str, Any]:
    """Per cell (a dataset, or a Spot The Bot domain), per predictor: system tau and side
    rho with 95% intervals, rho with length, and the paired differences of the learned and
    combined judges from the rule judge (and of the combined from the learned); then the
    kind-weighted means (:func:`kind_means`)."""
    preds = {name: predictions(base, comb, name) for name in sorted(set(base.dataset.tolist()))}
    cells: dict[str, Any] = {}
    for cell, name, m in _groups(base):
        mine = base.dataset == name
        systems = base.system[mine][m].tolist()
        y = base.y[mine][m].tolist()
        p = {k: v[m].tolist() for k, v in preds[name].items()}
        rows: dict[str, Any] = {}
        for label, values in p.items():
            tau, rho, n_sys, n = agreement(systems, values, y, samples, seed)
            _, lrho, _, _ = agreement(systems, values, p["length alone"], 0, seed)
            row: dict[str, Any] = {"system_tau": tau.to_json(), "chat_rho": rho.to_json(),
                                   "systems": n_sys, "sides": n, "length_rho": lrho.value}
            if label.startswith(("learned", "combined")):
                dtau, drho = paired_difference(systems, p["rule judge"], values, y, samples, seed)
                row["vs_rule"] = {"system_tau": dtau.to_json(), "chat_rho": drho.to_json()}
            if label.startswith("combined,") and "unweighted" not in label:
                twin = "learned, " + label.split(", ", 1)[1]
                if twin in p:
                    dtau, drho = paired_difference(systems, p[twin], values, y, samples, seed)
                    row["vs_learned"] = {"system_tau": dtau.to_json(),
                                         "chat_rho": drho.to_json()}
            rows[label] = row
        cells[cell] = rows
    return {"cells": cells, "kind_means": kind_means(cells)}


def kind_means(cells: dict[str, Any]) -> dict[str, Any]:
    """Per predictor: docs/validity.md's score over the cells this evaluation has: the
    bot-bot kind is the mean over Spot The Bot's domains, the human-bot kind the mean over
    DSTC9 and FED, the score the mean of the two (the ladder and USR are not rated sides:
    not in it); and the worst cell. A predictor without a value on every cell has none."""
    bot = [c for c in cells if c.startswith("stb/")]
    human: list[str] = [c for c in ("dstc9", "fed") if c in cells]
    labels = sorted({k for c in cells.values() for k in c})
    out = {}
    for label in labels:
        def tau(c: str) -> float | None:
            v = cells[c].get(label, {}).get("system_tau", {}).get("value")
            return None if v is None else float(v)
        b = [tau(c) for c in bot]
        h = [tau(c) for c in human]
        row: dict[str, Any] = {}
        if b and all(v is not None for v in b):
            row["bot-bot"] = float(np.mean(b))  # type: ignore[arg-type]
        if h and all(v is not None for v in h):
            row["human-bot"] = float(np.mean(h))  # type: ignore[arg-type]
        if "bot-bot" in row and "human-bot" in row:
            row["score"] = (row["bot-bot"] + row["human-bot"]) / 2
            every = [(v, c) for c, v in zip(bot + human, b + h)]
            worst = min(every, key=lambda t: t[0])  # type: ignore[arg-type,return-value]
            row["worst"] = {"cell": worst[1], "tau": worst[0]}
        out[label] = row
    return out


def _fmt(e: dict[str, Any] | None) -> str:
    if not e or e.get("value") is None:
        return "n/a"
    if e.get("low") is None:
        return f"{e['value']:+.2f}"
    return f"{e['value']:+.2f} [{e['low']:+.2f}, {e['high']:+.2f}]"


def report_text(report: dict[str, Any]) -> str:
    """The evaluation as plain text: one block per cell, then the kind-weighted means."""
    lines = []
    for cell, rows in report["cells"].items():
        first = next(iter(rows.values()))
        lines.append(f"{cell} ({first['systems']} systems, {first['sides']} sides): predictor | "
                     "system tau [95%] | side rho [95%] | rho with length | tau vs rule | "
                     "tau vs learned")
        for label, r in rows.items():
            lines.append(f"  {label:38s} {_fmt(r['system_tau']):24s} {_fmt(r['chat_rho']):24s} "
                         f"{r['length_rho'] if r['length_rho'] is None else format(r['length_rho'], '+.2f'):6s} "
                         f"{_fmt(r.get('vs_rule', {}).get('system_tau')) if 'vs_rule' in r else '':24s} "
                         f"{_fmt(r['vs_learned']['system_tau']) if 'vs_learned' in r else ''}")
    lines.append("kind-weighted mean tau (docs/validity.md's rule over these cells: bot-bot = "
                 "Spot The Bot's domains, human-bot = DSTC9, FED):")
    for label, r in report["kind_means"].items():
        if "score" in r:
            lines.append(f"  {label:38s} score {r['score']:+.3f}  bot-bot {r['bot-bot']:+.3f}  "
                         f"human-bot {r['human-bot']:+.3f}  worst {r['worst']['cell']} "
                         f"{r['worst']['tau']:+.3f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m chatmatch.validity.training.combined",
                                 description=__doc__.split("\n")[0])
    data_arguments(ap, Path("chatmatch") / "scoring" / "learned" / PACKAGED_COMBINED)
    ap.add_argument("--evaluate", type=Path, default=None,
                    help="also write the out-of-sample comparison (JSON) here and print it")
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args(argv)
    try:
        datasets = checked_datasets(args)
        base, table = train(data_dir(args.data), args.out, datasets, args.cache, args.sample,
                            args.stb_sample)
    except ChatmatchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({len(table.y)} rated sides)")
    if args.evaluate:
        report = evaluate_combined(base, table, args.bootstrap)
        args.evaluate.write_text(json.dumps(report, indent=1), encoding="utf-8")
        print(report_text(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
