"""Every judge in one tournament YAML against the local SmolLM2 backend (one model load,
a handful of judge calls). Slow: loading SmolLM2 alone takes ~20 s on 2 cores."""

from __future__ import annotations

import json

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.judges.backends import LocalLM
from chatmatch.run.tournament import run_tournament

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def smollm2() -> LocalLM:
    lm = LocalLM("smollm2")
    lm._load()
    return lm


def test_local_label_probabilities_are_sequence_probabilities(smollm2):
    lp = smollm2.label_probs("Rate the reply 'Hello there!' from 1 to 5.", ["1", "2", "3", "4", "5"],
                             "Score:")
    assert lp.method == "next-token"
    assert 0.0 < lp.mass <= 1.0 + 1e-6  # " 3" and "3" are distinct continuations of one prompt
    # the digits are split from the space: " 3" = " " then "3"
    assert any(len(s) == 2 for s in smollm2.spellings("3"))


def test_all_judges_in_a_tournament_with_smollm2(tmp_path, smollm2):
    local = "backend: transformers, model: smollm2, max_turns: 1"
    p = tmp_path / "local.yaml"
    p.write_text(f"""\
name: local-judges
exchanges: 3
output_dir: {tmp_path / 'run'}
bots:
  - {{name: rich, adapter: 'tests.scripted:CountingBot', params: {{style: rich}}}}
  - {{name: dull, adapter: 'tests.scripted:CountingBot', params: {{style: dull}}}}
scoring:
  dimensions: [paireval, geval, amr_judge, aspect_judge]
  params:
    paireval: {{{local}}}
    geval: {{{local}, criteria: [coherence]}}
    amr_judge: {{{local}, criteria: [coherence], slm_contexts: 150}}
    aspect_judge: {{{local}, aspects: [fluency], max_tokens: 8}}
ranking: {{method: elo, elo: {{bootstrap: 10}}}}
""")
    run = run_tournament(load_config(p)).run_dir
    games = [json.loads(f.read_text()) for f in sorted((run / "scores").glob("*.json"))]
    assert len(games) == 2
    for g in games:
        d = g["dimensions"]
        for bot in ("rich", "dull"):
            assert 0.0 <= d["paireval"]["raw"][bot] <= 1.0
            assert 1.0 <= d["geval"]["raw"][bot] <= 5.0
            assert 1.0 <= d["amr_judge"]["raw"][bot] <= 5.0
            a = d["aspect_judge"]["raw"][bot]
            assert a is None or 0.0 <= a <= 1.0  # None: no score could be read (missing)
        assert d["geval"]["details"][1]["method"] == "next-token"
        assert d["paireval"]["details"][0]["position_bias"]["pairs"] == 1
    for name in ("paireval", "geval", "amr_judge", "aspect_judge"):
        rec = json.loads((run / "judges" / f"{name}.json").read_text())
        assert rec["backend"]["model"] == "smollm2" and rec["prompts"]
