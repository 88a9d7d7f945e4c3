"""`preset: paper`: one line for the paper's and the authors' settings; explicit keys win."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.presets import PRESETS, apply_preset
from chatmatch.config.tournament import TournamentConfig, dump_config, load_config
from chatmatch.errors import ChatmatchError, ConfigError
from chatmatch.ranking.trueskill_rank import DEFAULT_SHUFFLES
from chatmatch.run.scorelogs import load_score_config
from chatmatch.scoring.build import build_scorers

BOTS = "bots: [eliza, canned]\n"


def write(tmp_path, text, name="t.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def resolved(cfg, dotted: str):
    """The value of a dotted key in a validated config (scorer params as resolved)."""
    parts = dotted.split(".")
    if parts[:2] == ["scoring", "params"]:
        return getattr(cfg.scoring.scorer_params(parts[2]), parts[3])
    node = cfg
    for p in parts:
        node = getattr(node, p)
    return node


def test_paper_preset_sets_the_papers_and_authors_settings(tmp_path):
    cfg = load_config(write(tmp_path, "preset: paper\n" + BOTS))
    assert cfg.preset == "paper"
    assert cfg.ranking.shuffles == 3
    fluency = cfg.scoring.scorer_params("fluency")
    assert fluency.aggregation == "authors" and fluency.cap == 50 and fluency.skip_repetitions
    assert fluency.degenerate == "keep" and not cfg.scoring.scorer_params("consistency").identity
    assert cfg.scoring.scorer_params("proactivity").questions == "all"
    assert not cfg.scoring.scorer_params("knowledge").in_context
    assert cfg.scoring.scorer_params("specificity").salad == "keep"
    assert cfg.scoring.scorer_params("relevance").degenerate == "keep"
    assert cfg.scoring.scorer_params("knowledge").truecase == "off"
    assert cfg.scoring.scorer_params("specificity").method == "distinct"
    consistency = cfg.scoring.scorer_params("consistency")
    assert consistency.similarity == "tfidf" and not consistency.checks_polarity()
    assert consistency.threshold() == 0.8
    assert cfg.scoring.scorer_params("diversity").similarity == "tfidf"
    assert cfg.scoring.canned is False  # a bot's stock lines count as any turn
    assert not any(s.canned for s in build_scorers(cfg.scoring))


def test_no_preset_is_the_measured_default(tmp_path):
    cfg = load_config(write(tmp_path, BOTS))
    assert cfg.preset is None and cfg.ranking.shuffles == DEFAULT_SHUFFLES != 3
    fluency = cfg.scoring.scorer_params("fluency")
    assert fluency.aggregation == "slor" and fluency.skip_repetitions
    assert fluency.degenerate == "share" and cfg.scoring.scorer_params("consistency").identity
    assert cfg.scoring.scorer_params("proactivity").questions == "conversational"
    assert cfg.scoring.scorer_params("knowledge").in_context
    assert cfg.scoring.scorer_params("specificity").salad == "discount"
    assert cfg.scoring.scorer_params("relevance").degenerate == "zero"
    assert cfg.scoring.scorer_params("consistency").degenerate == "untested"
    assert cfg.scoring.scorer_params("knowledge").truecase == "off"
    assert cfg.scoring.scorer_params("relevance").own_concepts
    assert cfg.scoring.scorer_params("specificity").method == "mattr"
    # rates, not counts: measured not to follow the length of chats and turns (issue 20)
    assert cfg.scoring.scorer_params("knowledge").unit == "per_turn"
    assert cfg.scoring.scorer_params("proactivity").unit == "share"
    # relevance: the reply's meaning, restating the partner discounted (issue 20); recall's
    # unit recalled / sqrt(concepts) per turn (per_concept broke two known orders)
    assert cfg.scoring.scorer_params("relevance").method == "reply"
    assert cfg.scoring.scorer_params("relevance").restating == "discounted"
    assert cfg.scoring.scorer_params("relevance").unit == "turn_sqrt"
    # answers compared by meaning, and their polarity (issue 20, consistency)
    assert cfg.scoring.scorer_params("consistency").similarity == "embedding"
    assert cfg.scoring.scorer_params("consistency").checks_polarity()
    # canned turns (stock phrases in a fifth of a bot's games) are degenerate (issue 43)
    assert cfg.scoring.canned is True and all(s.canned for s in build_scorers(cfg.scoring))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_key_reaches_the_validated_config(name):
    cfg = TournamentConfig.model_validate({"preset": name, "bots": ["eliza", "canned"]})
    for dotted, value in PRESETS[name].items():
        assert resolved(cfg, dotted) == value, dotted


def test_explicit_keys_win_over_the_preset(tmp_path):
    cfg = load_config(write(tmp_path, "preset: paper\n" + BOTS + (
        "ranking: {shuffles: 7}\n"
        "scoring:\n  params:\n    fluency: {aggregation: median, backend: ngram}\n")))
    assert cfg.ranking.shuffles == 7
    fluency = cfg.scoring.scorer_params("fluency")
    # the explicit key wins, the preset's other keys in the same block still apply
    assert fluency.aggregation == "median" and fluency.backend == "ngram"
    assert fluency.skip_repetitions is True
    assert cfg.scoring.scorer_params("knowledge").truecase == "off"


def test_preset_under_empty_sections_and_input_not_mutated():
    data = {"preset": "paper", "bots": ["eliza", "canned"], "scoring": None,
            "ranking": {"method": "points"}}
    out = apply_preset(data)
    assert data["scoring"] is None and "shuffles" not in data["ranking"]
    assert out["ranking"] == {"method": "points", "shuffles": 3}
    TournamentConfig.model_validate(out)
    assert apply_preset({"bots": []}) == {"bots": []}


def test_unknown_preset_is_one_line_with_file_line_and_names(tmp_path):
    path = write(tmp_path, BOTS + "seed: 1\npreset: papr\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == (f"{path}:3: preset: Unknown preset 'papr'. Did you mean: paper? "
                               "Available: paper")
    res = CliRunner().invoke(cli, ["run", str(path)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.output.strip().splitlines() == [f"error: {info.value}"]


@pytest.mark.parametrize("value,message", [
    ("[paper]", "preset: Input should be a valid string"),
    ("3", "preset: Input should be a valid string"),
    ("{a: 1}", "preset: Input should be a valid string"),
])
def test_preset_of_the_wrong_type(tmp_path, value, message):
    path = write(tmp_path, BOTS + f"preset: {value}\n")
    with pytest.raises(ConfigError, match=f"^{path}:2: {message}"):
        load_config(path)


def test_resolved_config_round_trips(tmp_path):
    cfg = load_config(write(tmp_path, "preset: paper\n" + BOTS + "ranking: {shuffles: 5}\n"))
    again = load_config(write(tmp_path, dump_config(cfg), "dumped.yaml"))
    assert again == cfg and again.ranking.shuffles == 5


def test_score_config_preset_from_file_and_option(tmp_path):
    assert load_score_config(None, "paper").ranking.shuffles == 3
    assert load_score_config(None).ranking.shuffles == DEFAULT_SHUFFLES
    f = write(tmp_path, "preset: paper\nranking: {shuffles: 4}\n", "score.yaml")
    cfg = load_score_config(f)
    assert cfg.ranking.shuffles == 4
    assert cfg.scoring.scorer_params("fluency").aggregation == "authors"
    # --preset replaces the file's preset; the file's explicit keys still win
    plain = write(tmp_path, "ranking: {method: points}\n", "plain.yaml")
    cfg = load_score_config(plain, "paper")
    assert cfg.ranking.method == "points" and cfg.ranking.shuffles == 3
    with pytest.raises(ChatmatchError, match=r"^--preset: Unknown preset 'nope'\. Available: paper$"):
        load_score_config(None, "nope")
    bad = write(tmp_path, "preset: papers\n", "bad.yaml")
    with pytest.raises(ConfigError, match=r"bad.yaml:1: preset: Unknown preset 'papers'"):
        load_score_config(bad)


def test_score_cli_preset_option(tmp_path):
    (tmp_path / "a.txt").write_text("alice: Where do you live?\nbob: In Paris.\n")
    res = CliRunner().invoke(cli, ["score", str(tmp_path / "a.txt"), "--preset", "nope"])
    assert res.exit_code == 2 and "Unknown preset 'nope'" in res.output
    assert "Traceback" not in res.output
