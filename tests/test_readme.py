"""The README's tournament example is a valid tournament file (bots aside: it names a
package of the reader's own)."""

import re
from pathlib import Path

from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_tournament_example_validates():
    block = re.search(r"## A tournament file\n\n```yaml\n(.*?)```", README.read_text(), re.S)
    assert block, "README lost its tournament example"
    cfg = config_from_data(parse_located_yaml(block.group(1), "README.md"), check_bots=False)
    assert cfg.bot_names == ["smollm2", "mine", "eliza"]
    assert cfg.ranking.method == "trueskill" and cfg.executor == "local"
