"""``chatmatch annotate``'s bad input, and ``compare``/``analyze``/``report`` reading the
judgements (exit codes and output)."""

from __future__ import annotations

import json
import random
import socket

import pytest
from click.testing import CliRunner

from chatmatch.annotate.session import Session, Settings
from chatmatch.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def judge(run_dir, annotators=("ann", "bob"), per=6, seed=0):
    """Judge like the page does: each annotator takes the next item and answers."""
    session = Session.open(run_dir, Settings())
    rng = random.Random(seed)
    for _ in range(per):
        for who in annotators:
            item = session.next_for(who)
            if item is not None:
                session.store.save(who, item, {q.key: rng.choice(["a", "b", "tie"])
                                               for q in session.questions})
    return session


def test_annotate_help_has_examples():
    res = invoke("annotate", "--help")
    assert res.exit_code == 0 and "Examples:" in res.output and "--show-names" in res.output


def test_annotate_unknown_run(tmp_path):
    res = invoke("annotate", tmp_path / "nope")
    assert res.exit_code == 2 and "not a chatmatch run directory" in res.output
    assert not (tmp_path / "nope").exists()


def test_annotate_port_in_use(scripted):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        res = invoke("annotate", scripted, "--port", port)
    assert res.exit_code == 2
    assert f"port {port} on 127.0.0.1 is in use" in res.output and "--port 0" in res.output


def test_annotate_bad_dimension_and_host(scripted):
    res = invoke("annotate", scripted, "--dimensions", "diversty")
    assert res.exit_code == 2 and "Did you mean 'diversity'?" in res.output
    res = invoke("annotate", scripted, "--host", "no.such.host.invalid")
    assert res.exit_code == 2 and "--host no.such.host.invalid: not an address" in res.output


def test_annotate_damaged_annotations_file(scripted):
    (scripted / "annotations.sqlite").write_text("garbage" * 200)
    res = invoke("annotate", scripted, "--port", 0)
    assert res.exit_code == 2 and "damaged annotations file" in res.output


def test_compare_annotations(scripted, tmp_path):
    judge(scripted)
    res = invoke("compare", scripted, "--annotations", "--bootstrap", 30)
    assert res.exit_code == 0, res.output
    assert "12 judgement(s) of" in res.output and "by 2 annotator(s) (ann, bob)" in res.output
    for q in ("overall", "proactivity", "diversity"):
        assert q in res.output
    assert "Krippendorff's alpha" in res.output
    res = invoke("compare", scripted, "--annotations", "--bootstrap", 30, "--json",
                 "--export", tmp_path / "j.jsonl")
    doc = json.loads(res.stdout)
    overall = doc["questions"][0]
    assert overall["question"] == "overall" and doc["judgements"] == 12
    assert len(overall["kendall_tau_interval"]) == 2 and "krippendorff_alpha" in overall
    lines = (tmp_path / "j.jsonl").read_text().splitlines()
    assert len(lines) == doc["answers"] and json.loads(lines[0])["annotator"] in ("ann", "bob")
    res = invoke("compare", scripted, "--annotations", "--export", tmp_path / "j.csv")
    assert (tmp_path / "j.csv").read_text().startswith("annotator,item,question,")
    res = invoke("compare", scripted, "--annotations", "--export", tmp_path / "j.xlsx")
    assert res.exit_code == 2 and "ending in .csv or .jsonl" in res.output


def test_compare_needs_one_source(scripted, tmp_path):
    res = invoke("compare", scripted)
    assert res.exit_code == 2 and "give --human FILE" in res.output
    res = invoke("compare", scripted, "--annotations")
    assert res.exit_code == 2 and "no annotations yet" in res.output
    assert not (scripted / "annotations.sqlite").exists()
    res = invoke("compare", scripted, "--human", tmp_path / "h.yaml", "--export", tmp_path / "x.csv")
    assert res.exit_code == 2 and "--export writes the judgements of --annotations" in res.output


def test_compare_damaged_annotations(scripted):
    (scripted / "annotations.sqlite").write_bytes(b"\x00junk" * 300)
    res = invoke("compare", scripted, "--annotations")
    assert res.exit_code == 2 and "damaged annotations file" in res.output


def test_analyze_and_report_use_the_annotations(scripted):
    judge(scripted)
    res = invoke("analyze", scripted, "--annotations", "--only", "methods")
    assert res.exit_code == 0, res.output
    assert "Human ranking:" in res.output and "tau" in res.output
    res = invoke("report", scripted)
    assert res.exit_code == 0
    page = (scripted / "report.html").read_text()
    assert "Agreement with your annotators" in page and "Krippendorff" in page


def test_report_without_or_with_damaged_annotations(scripted):
    res = invoke("report", scripted)
    assert "Agreement with your annotators" not in (scripted / "report.html").read_text()
    (scripted / "annotations.sqlite").write_bytes(b"junk" * 300)
    res = invoke("report", scripted)
    assert res.exit_code == 0 and "warning:" in res.output and "damaged" in res.output
    assert (scripted / "report.html").exists()


def test_analyze_takes_one_human_source(scripted, tmp_path):
    res = invoke("analyze", scripted, "--annotations", "--human", tmp_path / "h.yaml")
    assert res.exit_code == 2 and "give --human FILE or --annotations, not both" in res.output
    res = invoke("analyze", scripted, "--annotations", "--only", "methods")
    assert res.exit_code == 2 and "no annotations yet" in res.output


def test_compare_export_never_replaces_a_file_of_the_run(scripted):
    judge(scripted)
    for target in (scripted / "results.jsonl", next((scripted / "transcripts").iterdir())):
        before = target.read_bytes()
        res = invoke("compare", scripted, "--annotations", "--export", target)
        assert res.exit_code == 2 and "that is a file of the run" in res.output
        assert target.read_bytes() == before
    res = invoke("compare", scripted, "--annotations", "--export", scripted / "judgements.csv")
    assert res.exit_code == 0 and (scripted / "judgements.csv").is_file()
