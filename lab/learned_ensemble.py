# lab experiment, 2026-11-27: Does an ensemble of the rule and learned judges beat both out of sample? (no)
"""Does an ensemble of the rule judge and the learned judge beat both, out of sample?

The ensemble is the mean of the two judges' within-dataset ranks of each rated side, the
learned judge's values being out of sample (leave-systems-out, leave-dataset-out: the
splits of :mod:`chatmatch.validity.training.evaluate`), on the training draw of the shipped model
(DSTC9 80 chats a system, FED, Spot The Bot 120 conversations a domain). Prints system tau
[95%], side rho and side rho with turn words per dataset and predictor.

    CHATMATCH_DATA=../shared/data PYTHONPATH=$PWD nice python lab/learned_ensemble.py
"""
import os

from pathlib import Path
import numpy as np
from scipy.stats import rankdata
from chatmatch.validity.training.data import load_sides
from chatmatch.validity.training.table import build_table
from chatmatch.validity.training.train import minilm
from chatmatch.validity.training.evaluate import leave_systems_out, leave_dataset_out, learned
from chatmatch.stats.bootstrap import agreement

sides = load_sides(Path(os.environ.get("CHATMATCH_DATA", "../shared/data")), ("dstc9", "fed", "stb"), 80, 120)
table = build_table(sides, minilm(), Path.home() / ".cache/chatmatch/learn")

for name in sorted(set(table.dataset.tolist())):
    mine = table.dataset == name
    systems, y = table.system[mine].tolist(), table.y[mine].tolist()
    rule = table.rule_points[mine]
    lso = leave_systems_out(table, name, learned)
    ldo = leave_dataset_out(table, name, learned)
    def r(v): return rankdata(v) / len(v)
    preds = {"rule": rule, "learned LSO": lso, "learned LDO": ldo,
             "ens LSO (rank mean)": r(rule) + r(lso), "ens LDO (rank mean)": r(rule) + r(ldo)}
    for k, v in preds.items():
        tau, rho, ns, n = agreement(systems, v.tolist(), y, 1000, 0)
        lt, lr, _, _ = agreement(systems, v.tolist(), table.column("own:turn_words")[mine].tolist(), 0, 0)
        print(f"{name:6s} {k:22s} tau {tau.value:+.2f} [{tau.low:+.2f},{tau.high:+.2f}] rho {rho.value:+.2f} len_rho {lr.value:+.2f}", flush=True)
