"""The lab's verdict as plain-text tables (the ``--json`` form is the dict itself)."""

from __future__ import annotations

from typing import Any, Sequence

from chatmatch.common.tables import fmt_estimate, render_table
from chatmatch.validity.lab.gaming import MUST_BEAT

_SHORT_DATASET = {"stb/convai2": "convai2", "stb/dailydialog": "dailydlg",
                  "stb/empathetic": "empath"}
_SHORT_REF = {"win rate": "win", "fooling rate": "fool", "dialogue Overall": "dlg rho",
              "system Overall": "sys tau",
              "system Overall, cross-system games": "x-sys tau", "construction": "order"}
_STAT = {"kendall_tau_b": "tau-b", "spearman_rho": "rho"}


def _num(v: float | None) -> str:
    return "n/a" if v is None else f"{v:+.3f}"


def _columns(report: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(header, dataset report, reference block) for every reference of every dataset."""
    out = []
    for ds in report["datasets"]:
        short = _SHORT_DATASET.get(ds["dataset"], ds["dataset"])
        for name, ref in ds["references"].items():
            out.append((f"{short} {_SHORT_REF.get(name, name)}", ds, ref))
    return out


def _dims(report: dict[str, Any]) -> list[str]:
    dims: list[str] = []
    for ds in report["datasets"]:
        dims += [d for d in ds["dimensions"] if d not in dims]
    return dims


def overall_table(report: dict[str, Any]) -> str:
    rows = []
    for ds in report["datasets"]:
        for name, ref in ds["references"].items():
            seeds = ref.get("seeds")
            spread = ("-" if not seeds or seeds["min"] is None else
                      f"{seeds['min']:+.3f} / {seeds['median']:+.3f} / {seeds['max']:+.3f}")
            rows.append([ds["dataset"], name, _STAT.get(ref["statistic"], ref["statistic"]),
                         len(ds["bots"]), ds["games"], _num(ref["full"]), spread,
                         *(_subset(ds, ref, k) for k in ("shorter", "longer"))])
    return render_table(["dataset", "people's ranking", "stat", "bots", "games", "full",
                         "seeds min / median / max", "shorter", "longer"], rows)


def _subset(ds: dict[str, Any], ref: dict[str, Any], key: str) -> str:
    if ref.get(key) is None:
        return "-"
    n = ref.get(f"{key}_bots", len(ds["bots"]))
    return _num(ref[key]) + (f" ({n} bots)" if n < len(ds["bots"]) else "")


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.0f}%"


def _cell(ds: dict[str, Any], ref: dict[str, Any], part: str, dim: str) -> str:
    info = ds["dimensions"].get(dim)
    if info is None:
        return "-"
    if part == "alone" and info["never_fires"] and ref[part].get(dim) is None:
        return "never"
    return _num(ref[part].get(dim)) if dim in ref[part] else "-"


def dimension_table(report: dict[str, Any], part: str) -> str:
    cols = _columns(report)
    rows = [[dim, *[_cell(ds, ref, part, dim) for _, ds, ref in cols]] for dim in _dims(report)]
    return render_table(["dimension", *[h for h, _, _ in cols]], rows)


def fires_table(report: dict[str, Any]) -> str:
    sets = [d for d in report["datasets"] if d["kind"] != "skipped"]
    rows = []
    for dim in _dims(report):
        row: list[Any] = [dim]
        for ds in sets:
            info = ds["dimensions"].get(dim)
            if info is None:
                row.append("-")
            elif info.get("fires_longer") is None:
                row.append(f"{100 * info['fires']:.0f}%")
            else:
                row.append(f"{_pct(info['fires'])} / {_pct(info['fires_shorter'])} / "
                           f"{_pct(info['fires_longer'])}")
        rows.append(row)
    return render_table(["dimension", *[_SHORT_DATASET.get(d["dataset"], d["dataset"]) for d in sets]], rows)


def per_dimension_table(report: dict[str, Any]) -> str | None:
    rows = []
    all_rows = [r for ds in report["datasets"] for r in ds.get("per_dimension") or []]
    base = any("vs_baseline" in r for r in all_rows)
    for ds in report["datasets"]:
        for r in ds.get("per_dimension") or []:
            row = [ds["dataset"], r["dimension"], r["quality"], r["fit"], r["systems"],
                   r["chats"], fmt_estimate(r["system_tau"]), fmt_estimate(r["chat_rho"])]
            if base:
                vs = r.get("vs_baseline")
                row += [fmt_estimate(vs["system_tau"]), fmt_estimate(vs["chat_rho"])] if vs else ["-", "-"]
            rows.append(row)
    if not rows:
        return None
    heads = ["dataset", "dimension", "people's quality", "fit", "systems", "chats",
             "system tau-b [95%]", "chat rho [95%]"]
    if base:
        heads += ["tau - baseline [95%]", "rho - baseline [95%]"]
    return render_table(heads, rows)


def length_table(report: dict[str, Any]) -> str | None:
    rows = []
    for ds in report["datasets"]:
        for r in ds.get("length_bias") or []:
            tw, total = r["turn words"], r["total words"]
            rows.append([ds["dataset"], r["measure"], fmt_estimate(tw["system_tau"]),
                         fmt_estimate(total["system_tau"]), fmt_estimate(tw["chat_rho"]), fmt_estimate(total["chat_rho"])])
    if not rows:
        return None
    return render_table(["dataset", "measure", "sys tau vs turn words", "sys tau vs total words",
                         "chat rho vs turn words", "chat rho vs total words"], rows)


def facts_lines(report: dict[str, Any]) -> list[str]:
    lines = []
    for ds in report["datasets"]:
        f = ds["facts"]
        if ds["kind"] == "skipped":
            lines.append(f"{ds['dataset']}: not run")
        elif ds["kind"] == "construct":
            lines.append(f"construct: {ds['games']} turns of {len(ds['rows'])} groups; "
                         f"human-written >= bland: {'holds' if ds['holds'] else 'FAILS'}")
        elif ds.get("gaming"):  # one per gaming file, named by its tournament
            g = ds["gaming"]
            if g["holds"] is None:
                verdict = (f"every recipe below {' or '.join(MUST_BEAT)}: no verdict ("
                           f"{f['file']} plays neither; add one of them to the file to check "
                           "the suite's constraint)")
            else:
                verdict = (f"every recipe below {' and '.join(g['must_beat'])}: "
                           + ("holds" if g["holds"] else f"FAILS ({', '.join(g['failing'])})")
                           + "; recipes winning half their games or more against them: "
                           + (", ".join(g.get("head_to_head") or []) or "none"))
            lines.append(f"{ds['dataset']}: {ds['games']} games of {f['exchanges']} exchanges "
                         f"(seed {f['seed']}, {f['forfeits']} forfeits); {verdict}; "
                         f"chatmatch: {' > '.join(ds['ranking'])}")
        elif ds["dataset"] == "dstc9":
            ref = ds["references"]["system Overall"]
            lines.append(f"dstc9: {ds['games']} chats ({f['sampled']}) of {len(ds['bots'])} "
                         f"systems; people's system order {' > '.join(ref['reference_order'])}")
        elif ds["dataset"] == "usr":
            ref = ds["references"]["system Overall"]
            lines.append(f"usr: {f['replies']} replies by {f['responders']} responders; people's "
                         f"order (Overall) {' > '.join(ref['reference_order'])}")
        elif ds["dataset"].startswith("stb/"):
            by = ", ".join(f"{k} {v}" for k, v in sorted(f["turns_cleaned_by_system"].items()))
            lines.append(
                f"{ds['dataset']}: {f['conversations']} bot-bot conversations "
                f"({f['conversations_with_humans_left_out']} with humans left out), "
                f"{f['judgements']} judgements, {f['turns']} turns "
                f"({f['turns_min']}-{f['turns_max']} a conversation, median {f['turns_median']}); "
                f"{f['turns_cleaned']} turns cleaned of artefacts ({by or 'none'}), "
                f"{f['empty_turns']} empty turns; {f['shorter_games']} shorter and "
                f"{f['longer_games']} longer games than the median")
        elif ds["dataset"] == "ladder":
            lines.append(f"ladder: {ds['games']} games of {f['exchanges']} exchanges (seed "
                         f"{f['seed']}, {f['forfeits']} forfeits); true order "
                         f"{' > '.join(ds['references']['construction']['reference_order'])}; "
                         f"chatmatch: {' > '.join(ds['ranking'])}")
        else:
            ref = ds["references"]["system Overall"]
            lines.append(f"fed: {ds['games']} dialogues; people's system order "
                         f"{' > '.join(ref['reference_order'])}")
        lines += [f"  note: {n}" for n in ds["notes"]]
    return lines


def construct_table(report: dict[str, Any]) -> str | None:
    rows = []
    for ds in report["datasets"]:
        if ds["kind"] != "construct":
            continue
        for r in ds["rows"]:
            interval = ("n/a" if r["median"] is None else
                        f"{r['median']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]")
            rows.append([r["group"], r["kind"], r["turns"], interval])
        tau = "n/a" if ds["tau"] is None else f"{ds['tau']:+.2f}"
        rows.append(["(order)", "holds" if ds["holds"] else "FAILS", "", f"tau {tau}"])
        if ds.get("own_lm_holds") is not None:
            rows.append(["(the scorer's own LM)", "holds" if ds["own_lm_holds"] else "FAILS", "",
                         "people >= its greedy text"])
    if not rows:
        return None
    return render_table(["group", "kind", "turns", "fluency, oriented (higher = more fluent) [95%]"], rows)


def gaming_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Per gaming report (one per gaming file), its dataset name and its table: per recipe,
    rank, win rate against each real bot, dimensions won."""
    out = []
    for ds in report["datasets"]:
        if ds.get("gaming"):
            g = ds["gaming"]
            real = list(g["real_ranks"])
            canned = g.get("canned") or {}
            rows = [[f"{b} (real)", g["real_ranks"][b], *(["-"] * len(real)),
                     _pct(canned.get(b)), ""] for b in real]
            for r in g["recipes"]:
                ok = "" if all(r["below"].values()) else "  ABOVE A REAL BOT"
                rows.append([r["recipe"], r["rank"], *(_pct(r["win_rate"][o]) for o in real),
                             _pct(canned.get(r["recipe"])),
                             ", ".join(f"{d} {_pct(v)}" for d, v in r["dimensions_won"].items()
                                       if v > 0) + ok])
            out.append((ds["dataset"], render_table(
                ["bot", "rank", *(f"wins vs {o}" for o in real), "canned turns",
                 "dimension points won vs the real bots"], rows)))
    return out


def extra_tables(report: dict[str, Any]) -> list[str]:
    out = []
    for name, table in gaming_rows(report):
        out += [f"Gaming suite {name}: each recipe bot's rank, its win rate against each real "
                "bot (a tie counts half), its share of canned turns (its own words found in its "
                "other games in reply to different words) and the share of its games against "
                "the real bots in which it won each dimension's point", table, ""]
    construct = construct_table(report)
    if construct:
        out += ["Construct check: fluency of human-written turns vs bland generated ones (median "
                "over each group's turns, bootstrap [95%]; holds when every human-written group "
                "is at least every bland one; tau vs that order)", construct, ""]
    per_dim, length = per_dimension_table(report), length_table(report)
    if per_dim:
        out += ["Each dimension vs people's rating of the matching quality (oriented raw score, "
                "System side; system tau-b over per-system means, chat rho over chats; [95%] "
                "bootstrap over chats resampled within systems; fit: how close the quality is, "
                "docs/validity.md; '- baseline': this configuration minus --baseline's on the "
                "same resamples, better only where the whole interval is above 0)", per_dim, ""]
    if length:
        out += ["Length bias: each measure vs the System's mean words per turn and total words "
                "(a dimension close to +-1 here is mostly a length proxy; people's own rating "
                "for reference)", length, ""]
    return out


def render(report: dict[str, Any]) -> str:
    parts: Sequence[str] = [
        f"chatmatch validity lab ({report['config']}; ranking {report['ranking']['method']}, "
        f"seed {report['seed']}, {report['seeds']} ranking seed(s) for the spread)",
        "",
        "Agreement with people (+1 = the same order; seeds: over ranking seeds; shorter / "
        "longer: only the games with at most / more than the median number of turns)",
        overall_table(report),
        "",
        "Each dimension alone (weight 1, others 0; 'never' = it never decides a point there)",
        dimension_table(report, "alone"),
        "",
        "Minus each dimension (its weight set to 0)",
        dimension_table(report, "minus"),
        "",
        "How often each dimension decides its point (share of games: all / shorter / longer)",
        fires_table(report),
        "",
        *extra_tables(report),
        *facts_lines(report),
    ]
    return "\n".join(parts)
