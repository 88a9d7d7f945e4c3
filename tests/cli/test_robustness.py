"""``chatmatch robustness`` end to end with fast scorers and a small N."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli

TOYS = "tests.robustness.robustness_toys"  # by its package path: tests/cli is not beside it
FAST = ["-s", f"proactivity,diversity,{TOYS}:LengthScorer", "-j", f"{TOYS}:ShorterJudge"]


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def test_table_on_chitchat_is_reproducible(runner: CliRunner) -> None:
    args = ["robustness", *FAST, "-f", "repetition,dull,closed_date,paraphrase,game_repetition",
            "--n", "8", "--seed", "3"]
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert runner.invoke(cli, args).stdout == first.stdout  # progress (stderr) has timings
    out = first.stdout
    for word in ("repetition", "dull", "closed_date", "paraphrase", "game_repetition", "proactivity",
                 "length", "shorter", "tie share", "score spread", "cannot see"):
        assert word in out
    rep = next(line for line in out.splitlines() if re.match(r"\s*8\s+repetition", line))
    assert "100 [68-100]*" in rep  # diversity sees every verbatim repetition (and is its target)


def test_json_output(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["robustness", *FAST, "-f", "dull,game_repetition", "--n", "6", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["meta"]["n"] == 6 and data["evaluators"] == ["proactivity", "diversity", "length", "shorter"]
    cells = {(c["family"], c["evaluator"]): c for c in data["cells"]}
    assert cells[("dull", "length")]["n"] == 6
    assert cells[("game_repetition", "diversity")]["target"] is True
    assert ("game_repetition", "shorter") not in cells  # judges are turn-level only
    assert set(data["spread"]) == {"proactivity", "diversity", "length"}


def test_from_transcripts(runner: CliRunner, tmp_path: Path) -> None:
    lines = [f"{'ann' if k % 2 == 0 else 'bob'}: {t}" for k, t in enumerate(
        ["hi there", "hello, I have two cats", "nice, I have one dog", "do you like dogs?",
         "I do not like dogs", "why not?", "they bark a lot, I am sure", "hello, I have two cats"])]
    (tmp_path / "g.txt").write_text("\n".join(lines) + "\n")
    res = runner.invoke(cli, ["robustness", "-s", "diversity", "-f", "repetition,negation", "--n", "3",
                              "--from", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert f"source {tmp_path}" in res.output
    assert re.search(r"^\s*3\s+repetition", res.output, re.M)


@pytest.mark.parametrize("args, message", [
    (["-f", "repetiton"], "unknown family 'repetiton'. Did you mean: repetition"),
    (["-s", "fluensy"], "Did you mean: fluency?"),
    (["-j", "tests.robustness.robustness_toys:NotAnEvaluator"], "not an evaluator"),
    (["-j", "pairevl"], "Unknown judge 'pairevl'. Did you mean: paireval?"),
    (["--from", "/no/such/dir"], "no such file or directory"),
])
def test_user_errors_exit_2_without_traceback(runner: CliRunner, args: list[str], message: str) -> None:
    res = runner.invoke(cli, ["robustness", "-s", "diversity", "--n", "2", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_builtin_judge_is_wired_to_the_registry() -> None:
    from chatmatch.robustness.evaluators import JudgeEvaluator, as_game, builtin_judge
    from chatmatch.robustness.perturb import Context

    judge = builtin_judge("geval")  # the model loads on first use, not here
    assert isinstance(judge, JudgeEvaluator) and judge.name == "geval" and judge.kind == "score"
    game = as_game(Context(("hi", "hello"), ("A", "B"), "A"), "how are you?", given_history=True)
    assert [t.seed for t in game.turns] == [True, True, False]


@pytest.mark.slow
def test_fluency_with_smollm2_sees_shuffled_words(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["robustness", "-s", "fluency", "-f", "word_shuffle", "--n", "30", "--json"])
    assert res.exit_code == 0, res.output
    cell = json.loads(res.stdout)["cells"][0]
    assert cell["family"] == "word_shuffle" and cell["accuracy"] > 0.6
