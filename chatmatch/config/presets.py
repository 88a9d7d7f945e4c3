"""Named bundles of settings: ``preset: paper`` at the top of a tournament YAML.

A preset is a mapping of dotted keys to values, applied to the YAML data *before*
validation, filling only the keys the file does not set: an explicit key always wins over
the preset. Without a preset every key has chatmatch's default, the best configuration
measured here (docs/scoring.md, "Presets").

``paper`` reproduces the ChatMatch paper (Yang et al. 2022) and the authors' released
scorer where chatmatch's defaults differ from them:

* ``ranking.shuffles: 3`` -- the paper's three TrueSkill shuffles (default 1000);
* fluency ``aggregation: authors`` -- each turn's perplexity capped at 50, each bot's worst
  turn dropped (default: ``slor``, the median of per-turn SLOR);
* fluency ``degenerate: keep`` -- a degenerate turn (a repeat, an echo, a truncated turn)
  is scored as any turn (default: as the least fluent turn there is);
* fluency ``context: none`` -- each turn read alone by the LM (default: after the turn
  before it);
* fluency ``skip_repetitions: true`` -- the authors' scorer leaves diversity's penalised
  repetitions out of fluency (also the default; set here so the preset does not depend
  on the default);
* knowledge ``truecase: off`` -- NER on the text as it is (also the default);
* consistency ``score: count, compare: original`` -- minus the number of inconsistent
  answers, each compared with the answer to the original question only (default: the rate
  over the repeated questions the bot was asked, each answer compared with every earlier
  answer; a bot never asked again gets no point either way);
* proactivity ``skip_repetitions: false, excuse_answers: false`` and relevance
  ``skip_repetitions: false`` -- repeated questions count as questions and repetitions
  earn memory bonuses (default: a penalised repetition earns nothing outside diversity; a
  bot's own earlier words earn bonuses in both, the paper's rule, not a setting);
* specificity ``leave_out: none, method: distinct`` -- Distinct-n pooled over every turn
  (default: Distinct-n on equal-size windows, MATTR, with answers repeated only because
  the partner repeated its question left out);
* consistency ``identity: false`` -- only answers to repeated questions are tested
  (default: identity facts a bot restates too, chatmatch.scoring.identity);
* consistency ``similarity: tfidf, polarity: false`` and diversity ``similarity: tfidf`` --
  TF-IDF cosine (the default of diversity too; consistency's default compares answers by
  meaning, all-MiniLM-L6-v2, and charges an answer that says the same thing the other way);
  knowledge ``method: entities, unit: count``, proactivity ``questions: all, unit: turns``,
  relevance ``unit: count`` -- the paper's counts (default: knowledge per turn,
  proactivity's share and relevance's mean over turns of recalled / sqrt(concepts), rates
  that do not grow with the length of the chat, measured in docs/validity.md).

* knowledge ``in_context: false``, specificity ``salad: keep``, relevance
  ``degenerate: keep`` -- every entity, every turn's words and every turn count as they
  are (default: entities stuffed into off-topic turns, word-salad turns and repeated frames
  or edited echoes earn nothing; docs/scoring.md, "What each dimension is open to").

* ``scoring.canned: false`` -- a bot's stock lines count as any turn (default: a turn
  made of phrases the bot says in a fifth of its games whatever the partner says is
  degenerate, chatmatch.scoring.canned).

Every other paper setting is already chatmatch's default (sigma_r 0.95, sigma_c 0.8, d 1,
p 50 %, all weights 1, 3/1/0 points). Add a preset or a key here, in one place.
"""

from __future__ import annotations

from typing import Any

from chatmatch.common.registry import did_you_mean

PRESETS: dict[str, dict[str, Any]] = {
    "paper": {
        "ranking.shuffles": 3,
        "scoring.canned": False,
        "scoring.params.fluency.aggregation": "authors",
        "scoring.params.fluency.skip_repetitions": True,
        "scoring.params.fluency.degenerate": "keep",
        "scoring.params.fluency.context": "none",
        "scoring.params.knowledge.truecase": "off",
        "scoring.params.consistency.score": "count",
        "scoring.params.consistency.compare": "original",
        "scoring.params.proactivity.skip_repetitions": False,
        "scoring.params.proactivity.excuse_answers": False,
        "scoring.params.relevance.skip_repetitions": False,
        "scoring.params.specificity.leave_out": "none",
        "scoring.params.specificity.method": "distinct",
        "scoring.params.consistency.similarity": "tfidf",
        "scoring.params.consistency.self_contradictions": False,
        "scoring.params.consistency.identity": False,
        "scoring.params.consistency.polarity": False,
        "scoring.params.diversity.similarity": "tfidf",
        "scoring.params.knowledge.method": "entities",
        "scoring.params.knowledge.unit": "count",
        "scoring.params.proactivity.questions": "all",
        "scoring.params.proactivity.unit": "turns",
        "scoring.params.relevance.unit": "count",
        "scoring.params.relevance.method": "recall",
        "scoring.params.knowledge.in_context": False,
        "scoring.params.specificity.salad": "keep",
        "scoring.params.relevance.degenerate": "keep",
    },
}


def unknown_preset_message(name: object) -> str:
    """``Unknown preset 'papr'. Did you mean: paper? Available: paper``."""
    return (f"Unknown preset '{name}'.{did_you_mean(str(name), PRESETS)} "
            f"Available: {', '.join(sorted(PRESETS))}")


def apply_preset(data: Any) -> Any:
    """``data`` (the raw YAML mapping) with its ``preset``'s keys filled in where the file
    leaves them unset. Data without a known preset comes back as it is (an unknown name is
    reported by the config model's check of the ``preset`` key, with its line)."""
    name = data.get("preset") if isinstance(data, dict) else None
    if not isinstance(name, str) or name not in PRESETS:
        return data
    out = _copy(data)
    for dotted, value in PRESETS[name].items():
        _set_default(out, dotted.split("."), value)
    return out


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, dict) else v for k, v in data.items()}


def _set_default(data: dict[str, Any], path: list[str], value: Any) -> None:
    node = data
    for key in path[:-1]:
        if node.get(key) is None:
            node[key] = {}
        node = node[key]
        if not isinstance(node, dict):
            return  # the file has a non-mapping here: validation reports it
    node.setdefault(path[-1], value)
