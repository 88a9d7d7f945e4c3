"""Few-bot statistics: exact p-values for small n, a warning under 4 bots, tied human
ranks shown as ties (compare, analyze, report)."""

import json
import itertools
import math

import pytest
from click.testing import CliRunner
from scipy import stats

from chatmatch.analysis.agreement import order_text, ranks_text
from chatmatch.stats.correlation import EXACT_MAX_N, few_bots_note, kendall, spearman
from chatmatch.cli import cli


def brute_force_p(stat, x, y):
    """Two-sided p by enumerating every ordering of x (twice the smaller one-sided p)."""
    obs = stat(x, y)
    values = [stat(list(p), y) for p in itertools.permutations(x)]
    hi = sum(v >= obs - 1e-12 for v in values) / len(values)
    lo = sum(v <= obs + 1e-12 for v in values) / len(values)
    return min(1.0, 2 * min(hi, lo))


def tau_b(x, y):
    return stats.kendalltau(x, y).statistic


def rho(x, y):
    return stats.spearmanr(x, y).statistic


def test_without_ties_kendall_p_is_exact():
    # 4 bots in the same order: the exact two-sided p is 2 / 4! (asymptotic: 0.042)
    t = kendall([1, 2, 3, 4], [1, 2, 3, 4])
    assert t.p_value == pytest.approx(2 / 24) and t.p_method == "exact"
    assert t.p_value > stats.kendalltau([1, 2, 3, 4], [1, 2, 3, 4], method="asymptotic").pvalue


@pytest.mark.parametrize("x,y", [([1, 2, 2, 4], [1, 3, 2, 4]),
                                 ([1, 1, 3, 4, 5], [2, 1, 3, 5, 4]),
                                 ([1, 2, 3, 3, 3, 6], [1, 3, 2, 4, 6, 5])])
def test_with_ties_kendall_p_is_an_exact_permutation_test(x, y):
    t = kendall(x, y)
    assert t.p_method == "exact permutation"
    assert t.p_value == pytest.approx(brute_force_p(tau_b, x, y))
    assert t.value == pytest.approx(tau_b(x, y))


def test_spearman_p_is_exact_for_few_bots_and_asymptotic_beyond():
    x, y = [1, 2, 3, 4, 5], [2, 1, 3, 5, 4]
    r = spearman(x, y)
    assert r.p_method == "exact permutation" and r.p_value == pytest.approx(brute_force_p(rho, x, y))
    many = list(range(EXACT_MAX_N + 2))
    assert spearman(many, many[::-1]).p_method == "asymptotic"


def test_p_values_can_be_skipped_and_undefined_values_have_none():
    assert math.isnan(kendall([1, 2, 3], [1, 2, 3], p_value=False).p_value)
    t = kendall([1, 1, 1], [1, 2, 3])
    assert math.isnan(t.value) and math.isnan(t.p_value) and t.p_method == ""


def test_few_bots_note_says_how_small_p_can_get():
    assert few_bots_note(4) is None and few_bots_note(7) is None
    note = few_bots_note(3)
    assert note and "only 3 bots" in note and "0.33" in note


def test_tied_ranks_are_shown_as_ties():
    ranks = {"a": 1, "b": 2, "c": 2, "d": 4}
    assert ranks_text(ranks) == {"a": "1", "b": "=2", "c": "=2", "d": "4"}
    assert order_text(ranks) == "a > b = c > d"
    assert order_text(ranks, show_ranks=True) == "a (1) > b (2) = c (2) > d (4)"
    assert ranks_text({"a": 1.5, "b": 1.5, "c": 3}) == {"a": "=1.50", "b": "=1.50", "c": "3"}


@pytest.fixture
def tied_humans(tmp_path):
    p = tmp_path / "tied.yaml"
    p.write_text("ranking: {curious: 1, chatty: 2, quiet: 2, dull: 4}\n")
    return p


@pytest.fixture
def three_humans(tmp_path):
    p = tmp_path / "three.yaml"
    p.write_text("ranking: {curious: 1, chatty: 2, dull: 3}\n")
    return p


def test_compare_shows_tied_human_ranks_and_the_p_method(scripted_run, tied_humans):
    res = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(tied_humans)])
    assert res.exit_code == 0, res.output
    rows = {line.split()[0]: line.split() for line in res.stdout.splitlines() if line.strip()}
    assert rows["chatty"][-1] == "=2" and rows["quiet"][-1] == "=2" and rows["curious"][-1] == "1"
    assert "exact permutation" in res.stdout and "=N marks a tied rank" in res.stdout
    assert "warning" not in res.stderr


def test_compare_warns_under_four_bots(scripted_run, three_humans):
    res = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(three_humans)])
    assert res.exit_code == 0, res.output
    assert "warning: only 3 bots compared" in res.stderr and "0.33" in res.stderr
    js = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(three_humans), "--json"])
    assert "warning: only 3 bots" in js.stderr and js.stdout.lstrip().startswith("{")


def test_analyze_warns_and_shows_human_ties(scripted_run, tied_humans, three_humans):
    res = CliRunner().invoke(cli, ["analyze", str(scripted_run), "--human", str(tied_humans),
                                   "--only", "methods", "-q"])
    assert res.exit_code == 0, res.output
    assert "curious (1) > chatty (2) = quiet (2) > dull (4)" in res.stdout
    few = CliRunner().invoke(cli, ["analyze", str(scripted_run), "--human", str(three_humans),
                                   "--only", "methods", "-q"])
    assert "warning: only 3 bots compared" in few.stderr
    small_k = CliRunner().invoke(cli, ["analyze", str(scripted_run), "--human", str(tied_humans),
                                       "--only", "subsets", "-k", "3", "-q"])
    assert "warning: subsets of 3 bots" in small_k.stderr


def test_report_shows_ties_and_the_few_bots_warning(scripted_run, tied_humans, three_humans, tmp_path):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(scripted_run), "--human", str(tied_humans),
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text()
    assert "chatty (2) = quiet (2)" in page and "<td>=2</td>" in page
    assert "exact permutation" in page and "Warning: only" not in page
    CliRunner().invoke(cli, ["report", str(scripted_run), "--human", str(three_humans),
                             "--out", str(out)])
    assert "Warning: only 3 bots compared" in out.read_text()


def test_compare_says_why_a_correlation_is_undefined(scripted_run, tmp_path):
    flat = tmp_path / "flat.yaml"
    flat.write_text("ranking: {curious: 1, chatty: 1, quiet: 1, dull: 1}\n")
    res = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(flat)])
    assert res.exit_code == 0, res.output
    assert "note: overall: n/a because the humans rank every bot equal" in res.stdout
    js = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(flat), "--json"])
    assert json.loads(js.stdout)["agreement"][0]["undefined"] == "the humans rank every bot equal"


def test_compare_gives_no_undefined_note_for_an_ordered_ranking(scripted_run, tied_humans):
    res = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(tied_humans)])
    assert "n/a because" not in res.stdout
