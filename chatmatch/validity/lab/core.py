"""The validity lab: score public human-judged data with the configured scorers and
ranking, and measure how well chatmatch agrees with people (``chatmatch validate``).

Datasets (see docs/validity.md):

* ``stb``: Spot The Bot bot-bot conversations, one dataset per domain, against the
  authors' win-rate ranking and the fooling rate (:mod:`chatmatch.validity.datasets.stb`);
* ``fed``: FED dialogue level (:mod:`chatmatch.validity.lab.fed`);
* ``dstc9``: DSTC9 interactive track, 11 systems' chats with people
  (:mod:`chatmatch.validity.datasets.dstc9`), evaluated as FED is; skipped with a note when its
  folder is absent;
* ``usr``: USR's PersonaChat replies (two people, a retrieval and two generative models
  answering the same 60 contexts; :mod:`chatmatch.validity.datasets.usr`), evaluated as FED is with
  its ``Overall`` rating, 5 responders at the system level;
* ``construct``: the fluency construct check, human-written turns against bland generated
  ones (:mod:`chatmatch.validity.lab.construct`);
* ``ladder``: the fault ladder, whose order is known by construction
  (:mod:`chatmatch.validity.lab.ladder`);
* ``gaming``: recipe bots against the real bots, which must rank above them
  (:mod:`chatmatch.validity.lab.gaming`); one dataset per gaming file (one recipe family
  each: by default all twelve, :data:`GAMING_FILES`), named by the file's tournament name.

The scorers are built once from the ``scoring`` block (models load once) and every dataset
is scored with them; rankings use the ``ranking`` block. The rated human-bot datasets
(FED, DSTC9, USR) also get the per-dimension table (each dimension against people's rating of
the matching quality, with bootstrap intervals) and the length-bias table
(:mod:`chatmatch.validity.lab.dimensions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from chatmatch.common.safeio import file_problem, folder_problem
from chatmatch.validity.datasets.datahelp import DATA_ENV as DATA_ENV
from chatmatch.validity.datasets.datahelp import data_help
from chatmatch.validity.datasets.datahelp import default_data_dir as default_data_dir
from chatmatch.analysis.fed import cross_system_rates, load_fed, system_side
from chatmatch.config.settings import EvalSettings
from chatmatch.config.settingsfile import load_settings
from chatmatch.errors import ChatmatchError
from chatmatch.progress import ProgressBar, Reporter
from chatmatch.ranking import RankingConfig
from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games
from chatmatch.transcript import Transcript
from chatmatch.validity.lab.construct import NOTES as CONSTRUCT_NOTES
from chatmatch.validity.lab.construct import (add_greedy_group, evaluate_construct, games_of,
                                          sample_groups)
from chatmatch.validity.lab.dimensions import (MATCHES, RANKING, RANKING_CROSS, dimension_rows,
                                               length_rows)
from chatmatch.validity.datasets.dstc9 import OVERALL as DSTC9_OVERALL
from chatmatch.validity.datasets.dstc9 import Dstc9Error, load_dstc9
from chatmatch.validity.datasets.dstc9 import find_files as find_dstc9
from chatmatch.validity.lab.fed import Chat, evaluate_fed, game_points
from chatmatch.validity.lab.games import GameDataset, evaluate_games
from chatmatch.stats.bootstrap import SAMPLES
from chatmatch.validity.lab.gaming import evaluate_gaming, gaming_names, play_gaming
from chatmatch.validity.lab.ladder import play_ladder
from chatmatch.validity.datasets.stb import load_stb
from chatmatch.validity.lab.stb_sides import sides as stb_sides
from chatmatch.validity.datasets.usr import FILE as USR_FILE
from chatmatch.validity.datasets.usr import NOTES as USR_NOTES
from chatmatch.validity.datasets.usr import load_usr
from chatmatch.scoring.build import build_scorers

DATASETS = ("stb", "fed", "dstc9", "usr", "construct", "ladder", "gaming")
#: the gaming files played by default: one per recipe family
#: the recipe families: the first, which the defaults were built against, and ten written
#: blind to the scorers (docs/validity.md, "The gaming suite")
GAMING_FILES = tuple(Path(f"tournaments/{n}.yaml") for n in (
    "gaming", "gaming-unseen", "gaming-blind", "gaming-fourth", "gaming-fifth", "gaming-sixth",
    "gaming-seventh", "gaming-eighth", "gaming-ninth", "gaming-tenth", "gaming-eleventh",
    "gaming-twelfth"))
#: names a gaming file's dataset may not take (another dataset's report has them)
_TAKEN = (*(d for d in DATASETS if d != "gaming"),
          "stb/convai2", "stb/dailydialog", "stb/empathetic")
DSTC9_NOTES = ("no ranking randomness: the seed spread does not apply",
               "each chat scored as a game between User and System; the System side counts")


class LabError(ChatmatchError):
    """Bad input to the validity lab."""


@dataclass(frozen=True)
class LabConfig:
    """The settings the lab scores and ranks with, and where they came from."""

    settings: EvalSettings = field(default_factory=EvalSettings)
    source: str = "built-in defaults"

    @property
    def scoring(self) -> ScoringConfig:
        return self.settings.scoring

    @property
    def ranking(self) -> RankingConfig:
        return self.settings.ranking

    @property
    def seed(self) -> int:
        return self.settings.seed


def load_lab_config(path: str | Path | None) -> LabConfig:
    """The ``scoring``, ``ranking`` and ``seed`` of a tournament YAML, validated exactly as
    ``chatmatch run`` validates them (unknown keys are errors, with file and line). A file
    without ``bots`` (only the blocks the lab reads) is accepted too. No file: the defaults."""
    if path is None:
        return LabConfig()
    return LabConfig(load_settings(path, others="check"), str(path))


def with_ngram_fluency(config: LabConfig) -> LabConfig:
    """The same settings with fluency on the n-gram backend (fast; an approximation)."""
    scoring = config.scoring
    if "fluency" in scoring.dimensions:
        params = {**scoring.params, "fluency": {**scoring.params.get("fluency", {}), "backend": "ngram"}}
        scoring = scoring.model_copy(update={"params": params})
    return LabConfig(config.settings.model_copy(update={"scoring": scoring}),
                     config.source + ", fluency on the n-gram model")




def parse_datasets(text: str) -> tuple[str, ...]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in DATASETS]
    if bad or not names:
        raise LabError(f"--datasets: unknown dataset(s) {', '.join(bad) or '(none given)'}; "
                       f"choose from {', '.join(DATASETS)}")
    return tuple(dict.fromkeys(names))


def score_with_steps(games: Sequence[Transcript], scorers: Sequence[Scorer], label: str,
                     progress: ProgressBar) -> list[dict[str, DimensionScore]]:
    """:func:`chatmatch.scoring.engine.score_games` as one progress step. The engine is
    called as a whole (not scorer by scorer) so that whatever it does across scorers is
    what the lab measures."""
    progress.update(detail=f"{label}: scoring {', '.join(s.name for s in scorers)}")
    out = score_games(games, scorers)
    progress.advance()
    return out


def quiet_steps() -> ProgressBar:
    """A bar that shows nothing: the lab's progress when nobody draws it."""
    return Reporter.off().open_bar("validity lab", None, unit="steps")


@dataclass
class Lab:
    """One lab run: settings, scorers built once, results per dataset."""

    config: LabConfig
    data_dir: Path
    datasets: tuple[str, ...] = DATASETS
    seeds: int = 5
    ladder_file: Path = Path("tournaments/ladder.yaml")
    ladder_exchanges: int | None = None
    #: the gaming suites, one dataset each (each file a recipe family)
    gaming_files: tuple[Path, ...] = GAMING_FILES
    gaming_exchanges: int | None = None
    #: one step per :meth:`steps_total`: ``update(detail=label)`` before a step (the
    #: ``validate`` command shows the label), ``advance()`` after it
    progress: ProgressBar = field(default_factory=quiet_steps)
    dstc9_dir: Path | None = None  # default: data_dir / "dstc9"
    sample: int | None = None  # DSTC9 chats per system (None: all 200)
    bootstrap: int = SAMPLES  # resamples for the per-dimension intervals
    baseline: LabConfig | None = None  # score FED/DSTC9 with it too and report differences
    #: the datasets were named by the user (not the default list): a missing USR file is
    #: then an error, not a skipped dataset
    datasets_named: bool = False
    _base: list[Scorer] | None = field(default=None, init=False, repr=False)

    def steps_total(self) -> int:
        extra = 1 if self.baseline else 0  # the baseline's scoring of FED and DSTC9
        n = {"stb": 1 + 3 * 2, "fed": 1 + 3 + extra, "dstc9": 1 + 3 + extra,
             "usr": 1 + 3 + extra, "construct": 2, "ladder": 1 + 2,
             "gaming": (1 + 2) * len(self.gaming_files)}
        return sum(n[d] for d in self.datasets)

    def check_inputs(self) -> None:
        """Fail before any model loads when an input is missing."""
        why = folder_problem(self.data_dir)
        if any(d in self.datasets for d in ("stb", "fed", "usr")) and why:
            raise LabError(f"--data {self.data_dir}: {why}; give the folder holding "
                           f"stb/ and fed/ (or set {DATA_ENV})")
        wanted = {"stb": self.data_dir / "stb" / "MongoDump.zip",
                  "fed": self.data_dir / "fed" / "fed_data.json"}
        if self.datasets_named:  # USR asked for by name must be there (else skipped, noted)
            wanted["usr"] = self.data_dir / "usr" / USR_FILE
        for name, path in wanted.items():
            if name in self.datasets and (why := file_problem(path)):
                raise LabError(f"--data {self.data_dir}: {path}: {why}; put the {name} data "
                               f"there, or leave it out with --datasets")
        if "dstc9" in self.datasets and self.dstc9_dir is not None:
            find_dstc9(self.dstc9_dir)  # asked for by name: it must be there
        if "ladder" in self.datasets and (why := file_problem(self.ladder_file)):
            raise LabError(f"--ladder {self.ladder_file}: {why}; run from the "
                           "repository root or give the ladder YAML's path")
        if "gaming" in self.datasets:
            self._check_gaming_files()

    def _check_gaming_files(self) -> None:
        """Every gaming file is there, and none is given twice."""
        if not self.gaming_files:
            raise LabError("--gaming: no gaming file given; give at least one, or leave "
                           "gaming out with --datasets")
        seen: dict[Path, Path] = {}
        for path in self.gaming_files:
            if why := file_problem(path):
                raise LabError(f"--gaming {path}: {why}; run from the repository root or "
                               "give the gaming suite's YAML path")
            key = path.resolve()
            if key in seen:
                same = "" if seen[key] == path else f" (as {seen[key]} and {path})"
                raise LabError(f"--gaming {path}: the same file given twice{same}; give each "
                               "gaming suite once")
            seen[key] = path

    def weights(self) -> dict[str, float]:
        return {d: self.config.scoring.weight(d) for d in self.config.scoring.dimensions}

    def run(self) -> dict[str, Any]:
        self.check_inputs()
        scorers = build_scorers(self.config.scoring, self.config.settings.runtime)
        self._base = (build_scorers(self.baseline.scoring, self.baseline.settings.runtime)
                      if self.baseline else None)
        # every gaming file read (and named) before any game is played
        gaming = (gaming_names(self.gaming_files, _TAKEN) if "gaming" in self.datasets
                  else [])
        reports: list[dict[str, Any]] = []
        for name in self.datasets:
            if name == "stb":
                self.progress.update(detail="stb: reading the zip")
                domains = load_stb(self.data_dir / "stb")
                self.progress.advance()
                for dom in domains:
                    ds = _stb_dataset(dom)
                    scores = score_with_steps(ds.games, scorers, ds.name, self.progress)
                    self.progress.update(detail=f"{ds.name}: ranking")
                    report = evaluate_games(ds, scores, self.weights(), self.config.ranking,
                                            seed=self.config.seed, seeds=self.seeds)
                    reports.append(self._stb_tables(report, dom, scores))
                    self.progress.advance()
            elif name == "fed":
                reports.append(self._fed(scorers))
            elif name == "dstc9":
                reports.append(self._dstc9(scorers))
            elif name == "usr":
                reports.append(self._usr(scorers))
            elif name == "construct":
                reports.append(self._construct(scorers))
            elif name == "gaming":
                reports += [self._gaming(scorers, path, ds_name)
                            for path, ds_name in zip(self.gaming_files, gaming)]
            else:
                self.progress.update(detail="ladder: playing")
                ds = play_ladder(self.ladder_file, self.ladder_exchanges)
                self.progress.advance()
                scores = score_with_steps(ds.games, scorers, "ladder", self.progress)
                self.progress.update(detail="ladder: ranking")
                reports.append(evaluate_games(ds, scores, self.weights(), self.config.ranking,
                                              seed=self.config.seed, seeds=self.seeds))
                self.progress.advance()
        for r in reports:  # only the rated human-bot datasets have these tables
            r.setdefault("per_dimension", None)
            r.setdefault("length_bias", None)
        return {"config": self.config.source,
                "scoring": self.config.scoring.model_dump(mode="json"),
                "ranking": self.config.ranking.model_dump(mode="json"),
                "seed": self.config.seed, "seeds": self.seeds, "datasets": reports}

    def _gaming(self, scorers: Sequence[Scorer], path: Path, name: str) -> dict[str, Any]:
        self.progress.update(detail=f"{name}: playing")
        ds = play_gaming(path, self.gaming_exchanges, name)
        self.progress.advance()
        scores = score_with_steps(ds.games, scorers, name, self.progress)
        self.progress.update(detail=f"{name}: ranking")
        report = evaluate_gaming(ds, scores, self.weights(), self.config.ranking,
                                 seed=self.config.seed, seeds=self.seeds)
        self.progress.advance()
        return report

    def _fed(self, scorers: Sequence[Scorer]) -> dict[str, Any]:
        self.progress.update(detail="fed: reading")
        dialogues = load_fed(self.data_dir / "fed" / "fed_data.json")
        self.progress.advance()
        return self._rated("fed", dialogues, scorers, {})

    def _dstc9(self, scorers: Sequence[Scorer]) -> dict[str, Any]:
        path = self.dstc9_dir or self.data_dir / "dstc9"
        self.progress.update(detail="dstc9: reading")
        try:
            data = load_dstc9(path).sample(self.sample, self.config.seed)
        except Dstc9Error as exc:
            if self.dstc9_dir is not None or (path.is_dir() and any(path.iterdir())):
                raise  # asked for by name, or there but unreadable: the user must know
            self.progress.advance()
            return skipped("dstc9", str(exc))
        self.progress.advance()
        return self._rated("dstc9", data.chats, scorers,
                           {"overall": DSTC9_OVERALL, "notes": DSTC9_NOTES},
                           {"chats": len(data.chats), "sampled": data.sampled})

    def _usr(self, scorers: Sequence[Scorer]) -> dict[str, Any]:
        self.progress.update(detail="usr: reading")
        path = self.data_dir / "usr" / USR_FILE
        if (why := file_problem(path)) and not self.datasets_named:
            self.progress.advance()
            return skipped("usr", f"{path}: {why} ({data_help('usr', path.parent)})")
        replies = load_usr(path)
        self.progress.advance()
        return self._rated("usr", replies, scorers, {"notes": USR_NOTES},
                           {"replies": len(replies), "responders": len({r.system for r in replies})})

    def _construct(self, scorers: Sequence[Scorer]) -> dict[str, Any]:
        fluency = [s for s in scorers if s.name == "fluency"]
        self.progress.update(detail="construct: sampling turns")
        groups = sample_groups(self.data_dir, self.config.seed)
        self.progress.advance()
        if not fluency:
            self.progress.advance()
            return skipped("construct", "fluency is not among the scored dimensions")
        notes = list(CONSTRUCT_NOTES) + [add_greedy_group(groups, fluency[0], self.progress)]
        games, labels = games_of(groups)
        scores = score_with_steps(games, fluency, "construct", self.progress)
        report = evaluate_construct(groups, labels, [s["fluency"] for s in scores],
                                    self.bootstrap, self.config.seed)
        return {**skipped("construct", ""), **report, "notes": notes, "games": len(games)}

    def _rated(self, name: str, chats: Sequence[Chat], scorers: Sequence[Scorer],
               how: dict[str, Any], facts: dict[str, Any] | None = None) -> dict[str, Any]:
        """A dataset of human-bot chats rated by people: the FED-style agreement, then the
        per-dimension and length-bias tables."""
        scores = score_with_steps([c.transcript() for c in chats], scorers, name, self.progress)
        self.progress.update(detail=f"{name}: correlating")
        report = evaluate_fed(chats, scores, self.weights(), dataset=name, **how)
        self.progress.advance()
        self.progress.update(detail=f"{name}: bootstrap intervals")
        per_chat = self._per_chat(chats, scores, self.weights())
        base = None
        if self.baseline is not None and self._base is not None:
            base_scores = score_with_steps([c.transcript() for c in chats], self._base,
                                           f"{name} (baseline)", self.progress)
            base = self._per_chat(chats, base_scores, {d: self.baseline.scoring.weight(d)
                                                       for d in self.baseline.scoring.dimensions})
        seed, n = self.config.seed, self.bootstrap
        report["per_dimension"] = dimension_rows(chats, per_chat, MATCHES[name], n, seed, base)
        overall = how.get("overall", "Overall")
        report["length_bias"] = length_rows(chats, per_chat, [overall], n, seed)
        report["facts"].update(facts or {})
        if self.baseline is not None:
            report["facts"]["baseline"] = self.baseline.source
        self.progress.advance()
        return report

    def _stb_tables(self, report: dict[str, Any], dom: Any,
                    scores: Sequence[dict[str, DimensionScore]]) -> dict[str, Any]:
        """The per-dimension and length tables from the workers' per-side checkboxes."""
        rated, per_side = stb_sides(dom.games, dom.judgements, scores, self.weights())
        n, seed = self.bootstrap, self.config.seed
        report["per_dimension"] = dimension_rows(rated, per_side, MATCHES["stb"], n, seed)
        report["length_bias"] = length_rows(rated, per_side, ["human"], n, seed)
        return report

    @staticmethod
    def _per_chat(chats: Sequence[Chat], scores: Sequence[dict[str, DimensionScore]],
                  weights: dict[str, float]) -> dict[str, list[float]]:
        per_chat = dict(system_side(scores)[0])
        per_chat[RANKING] = game_points(chats, scores, weights)
        per_chat[RANKING_CROSS] = cross_system_rates(chats, scores, weights)
        return per_chat


def skipped(name: str, reason: str) -> dict[str, Any]:
    """A dataset the lab could not run, and why (shown as a note, not an error)."""
    return {"dataset": name, "kind": "skipped", "bots": [], "games": 0, "facts": {},
            "ranking": None, "references": {}, "dimensions": {}, "notes": [f"skipped: {reason}"],
            "per_dimension": None, "length_bias": None}


def _stb_dataset(dom: Any) -> Any:
    lengths = sorted(len(g.turns) for g in dom.games)
    facts = {"conversations": len(dom.games), "conversations_with_humans_left_out":
             dom.conversations_total - len(dom.games), "judgements": len(dom.judgements),
             "turns": dom.turns_total, "turns_cleaned": dom.turns_cleaned,
             "turns_cleaned_by_system": dom.cleaned_by_system, "empty_turns": dom.empty_turns,
             "turns_min": lengths[0], "turns_median": lengths[len(lengths) // 2],
             "turns_max": lengths[-1]}
    return GameDataset(f"stb/{dom.domain}", dom.games, dom.human_rankings(), facts)
