"""The learned judge's variants compared out of sample, chosen by their mean.

Each :class:`~chatmatch.validity.training.fit.Recipe` is fitted and scored on every split of
every rated dataset (leave-dataset-out where there is another dataset, leave-systems-out
always; :mod:`chatmatch.validity.training.evaluate`), beside the rule judge and length alone.
The one number a variant is chosen by is its **mean** system tau over all those cells
(its mean side rho beside it): never one dataset's.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from chatmatch.common.tables import fmt_estimate
from chatmatch.stats.bootstrap import agreement
from chatmatch.validity.training.evaluate import leave_dataset_out, leave_systems_out, learned_with
from chatmatch.validity.training.fit import Recipe
from chatmatch.validity.training.table import Table

VARIANTS: dict[str, Recipe] = {
    "shipped (all, emb 8, loo, z)": Recipe(),
    "alpha by grouped inner CV": Recipe(alpha="group"),
    "no embedding": Recipe(embedding=0),
    "no partner block": Recipe(features="own"),
    "own only, no embedding": Recipe(features="own", embedding=0),
    "pairwise (own - partner)": Recipe(features="pairwise"),
    "pairwise, grouped CV": Recipe(features="pairwise", alpha="group"),
    "rank targets": Recipe(target="rank"),
    "rank targets, grouped CV": Recipe(target="rank", alpha="group"),
}


def _cell(table: Table, name: str, values: np.ndarray, samples: int,
          seed: int) -> dict[str, Any]:
    mine = table.dataset == name
    systems, y = table.system[mine].tolist(), table.y[mine].tolist()
    tau, rho, _, _ = agreement(systems, values.tolist(), y, samples, seed)
    length = table.column("own:turn_words")[mine].tolist()
    _, lrho, _, _ = agreement(systems, values.tolist(), length, 0, seed)
    return {"system_tau": tau.to_json(), "chat_rho": rho.to_json(),
            "length_rho": lrho.value}


def compare(table: Table, recipes: Mapping[str, Recipe] = VARIANTS, samples: int = 1000,
            seed: int = 0) -> dict[str, Any]:
    """Per predictor: per "dataset/split" cell, tau and rho with intervals; and the means."""
    names = sorted(set(table.dataset.tolist()))
    out: dict[str, Any] = {}
    for label in ("rule judge", "length alone"):
        cells = {}
        for name in names:
            mine = table.dataset == name
            v = table.rule_points[mine] if label == "rule judge" else \
                table.column("own:turn_words")[mine]
            cells[f"{name}/as is"] = _cell(table, name, v, samples, seed)
        out[label] = {"cells": cells, **_means(cells)}
    for label, recipe in recipes.items():
        fit, cells = learned_with(recipe), {}
        for name in names:
            if len(names) > 1:
                cells[f"{name}/dataset out"] = _cell(
                    table, name, leave_dataset_out(table, name, fit), samples, seed)
            cells[f"{name}/systems out"] = _cell(
                table, name, leave_systems_out(table, name, fit), samples, seed)
        out[label] = {"cells": cells, **_means(cells)}
    return out


def _means(cells: Mapping[str, Any]) -> dict[str, float | None]:
    def mean(key: str) -> float | None:
        vals = [c[key]["value"] for c in cells.values() if c[key]["value"] is not None]
        return float(np.mean(vals)) if vals else None
    lr = [c["length_rho"] for c in cells.values() if c["length_rho"] is not None]
    return {"mean_tau": mean("system_tau"), "mean_rho": mean("chat_rho"),
            "mean_length_rho": float(np.mean(lr)) if lr else None}


def variants_text(report: Mapping[str, Any]) -> str:
    """One line per predictor and cell: tau [95%], rho [95%], rho with length; means last."""
    lines = []
    for label, r in report.items():
        lines.append(f"{label}: mean tau {_f(r['mean_tau'])}, mean rho {_f(r['mean_rho'])}, "
                     f"mean rho with length {_f(r['mean_length_rho'])}")
        for cell, c in r["cells"].items():
            lines.append(f"  {cell:22s} tau {fmt_estimate(c['system_tau'])}  rho {fmt_estimate(c['chat_rho'])}"
                         f"  length {_f(c['length_rho'])}")
    return "\n".join(lines)


def _f(v: float | None) -> str:
    return "n/a" if v is None else f"{v:+.2f}"


