"""How well the learned judge agrees with people on data it never saw.

Every predictor is scored on every dataset's rated sides against people's rating, with
the lab's statistics (:func:`chatmatch.stats.bootstrap.agreement`: system-level Kendall
tau-b, chat-level Spearman rho, bootstrap intervals over chats resampled within systems):

* ``rule judge``: the side's game points against its partner (the seven dimensions, one
  point each), the judge chatmatch uses today;
* ``length alone``: the side's mean words a turn (a judge that ranks by length is a failure:
  the learned judge must beat this);
* ``learned, leave-dataset-out``: fitted on the other datasets only;
* ``learned, leave-systems-out``: for each system of the dataset, fitted on every other
  row (the other datasets and the dataset's other systems): no system's chats in both
  training and test;
* ``fitted weights, leave-systems-out``: the rule judge with one fitted non-negative weight
  per dimension (a linear fit of the rating on the seven point margins), the same splits;
* ``minus <dimension>``: the rule judge with one dimension's weight set to 0 (no fitting).

``length`` is each predictor against the side's mean words a turn (the length-bias check;
the ``length alone`` row's ``system_tau``/``chat_rho`` are people's own length bias).
``vs rule`` is the learned judge's tau and rho minus the rule judge's on the same resamples
(:func:`chatmatch.stats.bootstrap.paired_difference`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from sklearn.linear_model import LinearRegression

from chatmatch.scoring.base import DIMENSIONS
from chatmatch.stats.bootstrap import agreement, paired_difference
from chatmatch.validity.training.fit import SHIPPED, Recipe, fit_model, predict
from chatmatch.validity.training.table import Table

Fitter = Callable[[Table, np.ndarray, np.ndarray], np.ndarray]


def learned(table: Table, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    return predict(fit_model(table, train, SHIPPED), table, test)


def learned_with(recipe: Recipe) -> Fitter:
    """A fitter of ``recipe`` (the variants' comparison)."""
    def fit(table: Table, train: np.ndarray, test: np.ndarray) -> np.ndarray:
        return predict(fit_model(table, train, recipe), table, test)
    return fit


def weights_fit(table: Table, train: np.ndarray) -> np.ndarray:
    """Non-negative weights of the seven point margins fitted to the target (sum 7)."""
    reg = LinearRegression(positive=True).fit(table.dim_points[train], table.y[train])
    w: np.ndarray = reg.coef_
    return w * (len(w) / w.sum()) if w.sum() > 0 else np.ones(len(w))


def weighted(table: Table, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    out: np.ndarray = table.dim_points[test] @ weights_fit(table, train)
    return out


def leave_dataset_out(table: Table, name: str, fit: Fitter) -> np.ndarray:
    test = np.flatnonzero(table.dataset == name)
    return fit(table, np.flatnonzero(table.dataset != name), test)


def leave_systems_out(table: Table, name: str, fit: Fitter) -> np.ndarray:
    """Out-of-system predictions for every row of dataset ``name`` (in row order)."""
    mine = np.flatnonzero(table.dataset == name)
    out = np.empty(mine.size)
    for s in sorted(set(table.system[mine].tolist())):
        test = mine[table.system[mine] == s]
        train = np.flatnonzero(~((table.dataset == name) & (table.system == s)))
        out[np.isin(mine, test)] = fit(table, train, test)
    return out


def predictors(table: Table, name: str) -> dict[str, np.ndarray]:
    """Every predictor's value of each row of dataset ``name``."""
    mine = table.dataset == name
    out = {"rule judge": table.rule_points[mine],
           "length alone": table.column("own:turn_words")[mine]}
    if len(set(table.dataset.tolist())) > 1:
        out["learned, leave-dataset-out"] = leave_dataset_out(table, name, learned)
    out["learned, leave-systems-out"] = leave_systems_out(table, name, learned)
    out["fitted weights, leave-systems-out"] = leave_systems_out(table, name, weighted)
    for k, d in enumerate(DIMENSIONS):
        keep = np.ones(len(DIMENSIONS))
        keep[k] = 0.0
        out[f"minus {d}"] = table.dim_points[mine] @ keep
    return out


def evaluate(table: Table, samples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Per dataset, per predictor: tau and rho with intervals, and the learned judge's
    difference from the rule judge (JSON-ready)."""
    report: dict[str, Any] = {}
    for name in sorted(set(table.dataset.tolist())):
        mine = table.dataset == name
        systems, y = table.system[mine].tolist(), table.y[mine].tolist()
        preds = {k: v.tolist() for k, v in predictors(table, name).items()}
        rows = {}
        for label, values in preds.items():
            tau, rho, n_sys, n = agreement(systems, values, y, samples, seed)
            ltau, lrho, _, _ = agreement(systems, values, preds["length alone"], samples, seed)
            row = {"system_tau": tau.to_json(), "chat_rho": rho.to_json(), "systems": n_sys,
                   "sides": n, "length": {"system_tau": ltau.to_json(), "chat_rho": lrho.to_json()}}
            if label.startswith(("learned", "fitted")):
                dtau, drho = paired_difference(systems, preds["rule judge"], values, y,
                                               samples, seed)
                row["vs_rule"] = {"system_tau": dtau.to_json(), "chat_rho": drho.to_json()}
                row["vs_length"] = _vs(systems, preds["length alone"], values, y, samples, seed)
            rows[label] = row
        report[name] = rows
    return report


def _vs(systems: list[str], before: list[float], after: list[float], y: list[float],
        samples: int, seed: int) -> dict[str, Any]:
    dtau, drho = paired_difference(systems, before, after, y, samples, seed)
    return {"system_tau": dtau.to_json(), "chat_rho": drho.to_json()}


def fitted_weights(table: Table) -> dict[str, float]:
    """The weights fitted on every row (what ``scoring.weights`` would get)."""
    w = weights_fit(table, np.arange(len(table.y)))
    return {d: round(float(v), 3) for d, v in zip(DIMENSIONS, w)}
