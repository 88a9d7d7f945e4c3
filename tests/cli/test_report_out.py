"""``chatmatch report --out`` never replaces a file that is not a report."""

import shutil

from click.testing import CliRunner

from chatmatch.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_report_out_refuses_the_users_own_file(scripted_run, tmp_path):
    yaml_file = tmp_path / "league.yaml"
    yaml_file.write_text("name: league\nbots: [eliza, canned]\n")
    res = invoke("report", scripted_run, "--out", yaml_file)
    assert res.exit_code == 2
    assert "not a chatmatch report" in res.output and str(yaml_file) in res.output
    assert yaml_file.read_text() == "name: league\nbots: [eliza, canned]\n"


def test_report_out_refuses_a_file_of_the_run(scripted_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(scripted_run, run)
    results = (run / "results.jsonl").read_bytes()
    res = invoke("report", run, "--out", run / "results.jsonl")
    assert res.exit_code == 2 and "not a chatmatch report" in res.output
    assert (run / "results.jsonl").read_bytes() == results


def test_report_out_writes_over_an_earlier_report_and_an_empty_file(scripted_run, tmp_path):
    page = tmp_path / "demo.html"
    page.touch()
    assert invoke("report", scripted_run, "--out", page).exit_code == 0
    first = page.read_text()
    assert "<title>chatmatch report:" in first
    assert invoke("report", scripted_run, "--out", page).exit_code == 0
    assert page.read_text() == first
