"""docs/scoring.md's "Configuration" block spells out every scorer setting at its default:
it must say what the code does (a default changed without the docs fails here)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from chatmatch.scoring.build import SCORERS

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def _configuration_block() -> dict:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Configuration"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block, "docs/scoring.md: no yaml block under '## Configuration'"
    return yaml.safe_load(block.group(1))


def test_the_documented_params_are_the_defaults() -> None:
    params = _configuration_block()["scoring"]["params"]
    assert set(params) == {"fluency", "knowledge", "proactivity", "specificity", "diversity",
                           "consistency", "relevance"}
    for name, shown in params.items():
        fields = SCORERS.get(name).Params.model_fields
        defaults = {k: f.default for k, f in fields.items()}
        assert set(shown) <= set(defaults), (name, set(shown) - set(defaults))
        # read as a tournament file's params are (YAML's `off` is false: the model takes it)
        read = SCORERS.get(name).Params.model_validate(shown).model_dump()
        assert {k: read[k] for k in shown} == {k: defaults[k] for k in shown}, name
        # every setting with a fixed default is shown (polarity / self_contradictions are
        # "unset", explained in the block's comment)
        assert {k for k, v in defaults.items() if v is not None} <= set(shown), name
