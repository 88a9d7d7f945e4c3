"""The analysis commands end to end on a real scripted run (exit codes and output)."""

import json

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.run.storedrun import Run
from tests.analysis.test_fed import dialogue


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def ranks_file(tmp_path, ranks, name="h.yaml"):
    p = tmp_path / name
    p.write_text("ranking:\n" + "".join(f"  {b}: {r}\n" for b, r in ranks.items()))
    return p


def test_every_subcommand_module_is_registered():
    """Every module of chatmatch/cli that defines a click ``command`` is a subcommand (the
    CLI imports it by name when the command is used: chatmatch.cli.COMMANDS)."""
    import importlib
    import pkgutil

    import chatmatch.cli

    commands = [m.command for info in pkgutil.iter_modules(chatmatch.cli.__path__)
                if hasattr(m := importlib.import_module(f"chatmatch.cli.{info.name}"), "command")]
    assert len(commands) == 14  # view joined in issue 37
    for command in commands:
        assert cli.get_command(None, command.name) is command


@pytest.mark.parametrize("cmd", [["compare"], ["plot"], ["report"], ["analyze"],
                                 ["meta-eval"], ["meta-eval", "fed"]])
def test_every_command_has_help_with_examples(cmd):
    res = invoke(*cmd, "--help")
    assert res.exit_code == 0 and "Examples:" in res.output


def test_compare_identical_and_reversed_rankings(scripted_run, tmp_path):
    order = Run.load(scripted_run).rank().order()
    same = ranks_file(tmp_path, {b: i + 1 for i, b in enumerate(order)}, "same.yaml")
    rev = ranks_file(tmp_path, {b: len(order) - i for i, b in enumerate(order)}, "rev.yaml")
    res = invoke("compare", scripted_run, "--human", same)
    assert res.exit_code == 0, res.output
    assert "overall" in res.output and "+1.000" in res.output
    doc = json.loads(invoke("compare", scripted_run, "--human", rev, "--json").output)
    overall = doc["agreement"][0]
    assert overall["label"] == "overall"
    assert overall["kendall_tau_b"] == pytest.approx(-1.0)
    assert overall["spearman_rho"] == pytest.approx(-1.0)


def test_compare_per_dimension_rows(scripted_run, human_file):
    res = invoke("compare", scripted_run, "--human", human_file)
    assert res.exit_code == 0
    lines = [l for l in res.output.splitlines() if l.startswith(("overall", "proactivity"))]
    assert len(lines) == 2


def test_compare_unknown_bot_exits_2_with_file_and_line(scripted_run, tmp_path):
    p = ranks_file(tmp_path, {"curious": 1, "chaty": 2})
    res = CliRunner().invoke(cli, ["compare", str(scripted_run), "--human", str(p)])
    assert res.exit_code == 2
    assert f"error: {p}:3: unknown bot 'chaty' (not in the run). Did you mean 'chatty'?" in res.output
    assert "Traceback" not in res.output


def test_compare_not_a_run_dir(tmp_path, human_file):
    res = CliRunner().invoke(cli, ["compare", str(tmp_path), "--human", str(human_file)])
    assert res.exit_code == 2 and "not a chatmatch run directory" in res.output


def test_plot_writes_eight_files(scripted_run, human_file, tmp_path):
    res = invoke("plot", scripted_run, "--human", human_file, "--out", tmp_path / "figs")
    assert res.exit_code == 0
    files = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert len(files) == 8 and "ranks.png" in files and "head_to_head.svg" in files
    assert all((tmp_path / "figs" / f).stat().st_size > 1000 for f in files)


def test_report_defaults_to_the_run_dir(scripted_run, human_file):
    res = invoke("report", scripted_run, "--human", human_file)
    out = scripted_run / "report.html"
    assert res.exit_code == 0 and res.output.strip() == str(out)
    page = out.read_text()
    assert page.count("<details") == 12 and "Agreement with humans" in page
    # the scripted bots ask questions: proactivity badges are highlighted
    assert "proactivity: question</span>" in page


def test_analyze_prints_every_table(scripted_run, human_file):
    res = invoke("analyze", scripted_run, "--human", human_file, "--bootstrap", 50, "--seed", 3)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "All 1 subsets of 4 bots" in out and "mean tau" in out
    assert "-proactivity" in out and "points 2/1/0" in out and "keeps rank" in out
    again = invoke("analyze", scripted_run, "--human", human_file, "--bootstrap", 50, "--seed", 3)
    assert again.stdout == res.stdout  # seeded: same tables (progress is on stderr)


def test_analyze_subset_table_size_and_without_humans(scripted_run, human_file):
    res = invoke("analyze", scripted_run, "--human", human_file, "-k", 3, "--only", "subsets")
    assert "All 4 subsets of 3 bots" in res.output and "Ranking methods" not in res.output
    res = invoke("analyze", scripted_run, "--only", "subsets", "--only", "methods")
    assert "skipped" in res.output and "tau" not in res.output.split("Ranking methods")[1]
    bad = CliRunner().invoke(cli, ["analyze", str(scripted_run), "--human", str(human_file), "-k", "9"])
    assert bad.exit_code == 2 and "need 2 <= k <= 4" in bad.output


def test_meta_eval_fed_on_a_fixture(tmp_path):
    p = tmp_path / "fed.json"
    p.write_text(json.dumps([dialogue(q) for q in (0, 1, 2, 3)]))
    res = invoke("meta-eval", "fed", p, "--dimensions", "proactivity")
    assert res.exit_code == 0, res.output
    row = next(l for l in res.output.splitlines() if "Inquisitive" in l)
    assert row.split()[:4] == ["proactivity", "Inquisitive", "4", "4"] and "+1.000" in row
    js = json.loads(invoke("meta-eval", "fed", p, "-d", "proactivity", "--json").output)
    assert js[0]["spearman"]["r"] == pytest.approx(1.0)
    bad = CliRunner().invoke(cli, ["meta-eval", "fed", str(p), "-d", "proactivty"])
    assert bad.exit_code == 2 and "Did you mean: proactivity?" in bad.output
