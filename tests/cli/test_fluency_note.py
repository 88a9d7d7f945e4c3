"""`chatmatch run` says when a bot generates with the fluency LM (which favours its own text)."""

from __future__ import annotations

from click.testing import CliRunner

from chatmatch.cli import cli

YAML = """name: own-lm
bots:
  - {{name: tiny, adapter: causal-lm, params: {{model: "{model}", max_new_tokens: 3}}}}
  - {{name: canned, adapter: canned}}
seed_utterance: what do you like
exchanges: 2
scoring:
  dimensions: [fluency]
  params: {{fluency: {{model: "{fluency}"}}}}
ranking: {{method: points}}
output_dir: {out}
"""


def test_run_names_the_bot_on_the_fluency_lm(tmp_path, tiny_model_dir):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(YAML.format(model=tiny_model_dir, fluency=tiny_model_dir, out=tmp_path / "run"))
    res = CliRunner().invoke(cli, ["run", str(cfg), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "note: tiny generates with the fluency LM, which favours its own text" in res.stderr
    assert "canned" not in res.stderr.split("note:")[1].split("\n")[0]


def test_no_note_when_fluency_scores_with_another_lm(tmp_path, tiny_model_dir):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(YAML.format(model=tiny_model_dir, fluency="smollm2", out=tmp_path / "run")
                   .replace("dimensions: [fluency]", "dimensions: [diversity]")
                   .replace("  params: {fluency: {model: \"smollm2\"}}\n", ""))
    res = CliRunner().invoke(cli, ["run", str(cfg), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "note:" not in res.stderr
