"""One contract for every registry (chatmatch.common.registry): bot adapters, scorers (dimensions
and judges), ranking methods, perturbation families and language-model engines. Every registered item loads and
carries its metadata, a typo gets a "did you mean", and an import path finds the same item."""

from __future__ import annotations

import configparser
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from chatmatch.adapters import ADAPTERS
from chatmatch.common.registry import Registry, UnknownNameError
from chatmatch.errors import ChatmatchError
from chatmatch.ranking import RANKERS
from chatmatch.robustness.perturb import FAMILIES, Family
from chatmatch.runtime.lm import ENGINES
from chatmatch.scoring.base import DIMENSIONS, SCORERS


#: a perturbation family of "another package", named by import path
SHOUTING = Family("shouting", "the good turn in capitals", ("fluency",),
                  lambda s, rng: s.good.upper())


@dataclass(frozen=True)
class Contract:
    registry: Registry[Any]
    group: str | None
    #: what every item's metadata must hold: key -> check of the value
    meta: dict[str, Callable[[object], bool]]
    typo: str  # a misspelt name ...
    meant: str  # ... and the name it should suggest
    path: str  # an import path ...
    path_item: Callable[[], object]  # ... and the item it names
    expected_names: tuple[str, ...]


def _text(v: object) -> bool:
    return isinstance(v, str) and bool(v.strip())


CONTRACTS = {
    "bots": Contract(ADAPTERS, "chatmatch.bots", {"description": _text}, "elisa", "eliza",
                     "chatmatch_bots.eliza:ElizaBot", lambda: ADAPTERS.get("eliza"),
                     ("canned", "chatterbot", "echo", "eliza", "faulty", "openai-chat",
                      "random-line", "retrieval", "causal-lm", "smollm2", "seq2seq",
                      *(f"recipe-{r}" for r in ("pirate", "mirror", "entities", "questions",
                                                "salad", "constant", "catchphrase", "edit",
                                                "filler")),
                      *(f"recipe-unseen-{r}" for r in ("randomline", "sycophant", "eliza",
                                                       "hijack", "facts", "proverbs",
                                                       "counter", "reverse", "summary",
                                                       "rotator", "persona")),
                      *(f"recipe-blind-{r}" for r in ("assoc", "splice", "yesand", "alternate",
                                                      "markov", "recall", "empathy", "anecdote",
                                                      "oracle", "paraphrase")),
                      *(f"recipe-fourth-{r}" for r in ("opinion", "shape", "teacher", "story",
                                                       "claim", "mix", "headline", "polite",
                                                       "borrow")),
                      *(f"recipe-fifth-{r}" for r in ("topics", "affirm", "wordnet", "chatter",
                                                      "overlap", "elaborate", "expert")),
                      *(f"recipe-sixth-{r}" for r in ("quiz", "contrast", "profile", "stats",
                                                      "planner", "recommend", "gazetteer",
                                                      "hedge", "weave")),
                      *(f"recipe-seventh-{r}" for r in ("guide", "acts", "debate", "therapist",
                                                        "stitch", "followup", "chef",
                                                        "culture")),
                      *(f"recipe-eighth-{r}" for r in ("answer", "aiml", "sequel", "oneup",
                                                       "clarify", "psychic", "polyglot",
                                                       "critic")),
                      *(f"recipe-ninth-{r}" for r in ("coin", "atlas", "jester", "commentator",
                                                      "analogy", "bucket", "whatif",
                                                      "chain")),
                      *(f"recipe-tenth-{r}" for r in ("tag", "recital", "variation", "telegram",
                                                      "vocab", "dj", "limerick",
                                                      "influencer")),
                      *(f"recipe-eleventh-{r}" for r in ("acrostic", "shipping", "faq",
                                                         "reviewer", "horoscope", "numerology",
                                                         "auction", "sommelier")),
                      *(f"recipe-twelfth-{r}" for r in ("museum", "clerk", "dewey", "adventure",
                                                        "naturalist", "dating", "risk",
                                                        "card")))),
    "scorers": Contract(SCORERS, "chatmatch.scorers",
                        {"description": _text, "higher_is_better": lambda v: isinstance(v, bool),
                         "judge": lambda v: isinstance(v, bool)},
                        "fluncy", "fluency", "chatmatch.scoring.fluency:Fluency",
                        lambda: SCORERS.get("fluency"),
                        (*DIMENSIONS, "paireval", "geval", "amr_judge", "aspect_judge",
                         "learned", "combined", "turn_length", "markdown")),
    "rankers": Contract(RANKERS, "chatmatch.rankers",
                        {"description": _text, "params": lambda v: isinstance(v, type)},
                        "trueskil", "trueskill", "chatmatch.ranking.elo:rank_elo",
                        lambda: RANKERS.get("elo"),
                        ("points", "trueskill", "bt", "elo", "bt-style")),
    "families": Contract(FAMILIES, "chatmatch.perturbations",
                         {"description": _text, "kind": lambda v: v in ("break", "stable"),
                          "targets": lambda v: set(v) <= set(DIMENSIONS)},  # type: ignore[call-overload]
                         "repetiton", "repetition", f"{__name__}:SHOUTING",
                         lambda: SHOUTING,
                         ("repetition", "paraphrase", "closed_date")),
    "engines": Contract(ENGINES, "chatmatch.engines", {}, "onnxrutime", "onnxruntime",
                        "chatmatch.runtime.lm.ort:ENGINE", lambda: ENGINES.get("onnxruntime"),
                        ("torch", "onnxruntime")),
}


@pytest.fixture(params=sorted(CONTRACTS))
def contract(request: pytest.FixtureRequest) -> Contract:
    return CONTRACTS[request.param]


def test_every_item_loads_with_its_metadata(contract: Contract) -> None:
    reg = contract.registry
    names = reg.names()
    assert set(contract.expected_names) <= set(names)
    assert reg.load_errors == []
    for name in names:
        meta = reg.meta(name)
        for key, ok in contract.meta.items():
            assert ok(meta.get(key)), f"{reg.kind} '{name}': bad or missing metadata {key!r}"


def test_a_typo_suggests_the_closest_name(contract: Contract) -> None:
    with pytest.raises(UnknownNameError) as err:
        contract.registry.get(contract.typo)
    assert str(err.value).startswith(f"Unknown {contract.registry.kind} '{contract.typo}'. "
                                     f"Did you mean: {contract.meant}")
    assert "Available: " in str(err.value)
    assert contract.typo not in contract.registry


def test_an_import_path_finds_the_registered_item(contract: Contract) -> None:
    reg = contract.registry
    assert reg.resolve(contract.path) is contract.path_item()
    assert reg.resolve(contract.meant) is reg.get(contract.meant)
    with pytest.raises(ChatmatchError, match="there is no module named 'no_such_module_xyz'"):
        reg.resolve("no_such_module_xyz:Thing")
    with pytest.raises(ChatmatchError, match="not a valid import path"):
        reg.resolve(":Thing")
    with pytest.raises(ChatmatchError, match="Cannot use .*'chatmatch.errors:ChatmatchError': it is "):
        reg.resolve("chatmatch.errors:ChatmatchError")  # exists, but is not an item of this kind


def test_plugins_are_found_through_their_entry_point_group(contract: Contract) -> None:
    assert contract.registry.group == contract.group


def test_scorer_names_and_directions_are_declared_once_on_the_class() -> None:
    for name in SCORERS:
        assert SCORERS.get(name).name == name
    assert [d for d in DIMENSIONS if not SCORERS.meta(d)["higher_is_better"]] == ["fluency"]
    judges = [n for n in SCORERS if SCORERS.meta(n)["judge"]]
    assert judges == ["amr_judge", "aspect_judge", "geval", "paireval"]
    with pytest.raises(UnknownNameError, match="Unknown judge 'fluency'. Available: amr_judge"):
        SCORERS.get("fluency", where=lambda meta: bool(meta["judge"]), kind="judge")


def test_a_plugin_that_fails_to_load_is_named_when_a_name_is_missed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reg: Registry[Any] = Registry("ranking method", group="chatmatch.rankers")
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group: [
        importlib.metadata.EntryPoint("glicko", "no_such_plugin_xyz:rank", group)])
    with pytest.raises(UnknownNameError) as err:
        reg.get("glicko")
    assert str(err.value) == (
        "Unknown ranking method 'glicko'. Available: none. Some ranking methods failed to load: "
        "entry point 'glicko = no_such_plugin_xyz:rank' (chatmatch.rankers): "
        "ModuleNotFoundError: No module named 'no_such_plugin_xyz'")


def test_a_scorer_registered_under_another_name_than_its_own_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group: [
        importlib.metadata.EntryPoint("fluent", "chatmatch.scoring.fluency:Fluency", group)])
    reg: Registry[Any] = Registry("scoring dimension", group="chatmatch.scorers", noun="scorer",
                                  name_of=lambda cls: cls.name)
    assert "fluent" not in reg
    assert reg.load_errors == ["entry point 'fluent = chatmatch.scoring.fluency:Fluency' "
                               "(chatmatch.scorers): ValueError: it calls itself 'fluency': "
                               "register it under that name"]


def test_unreadable_entry_point_metadata_is_named_not_raised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken installed package's entry_points.txt must not break the built-ins."""
    reg: Registry[Any] = Registry("ranking method", group="chatmatch.rankers")

    def broken(*, group: str) -> list[importlib.metadata.EntryPoint]:
        raise TypeError("Pair.__new__() missing 1 required positional argument: 'value'")

    monkeypatch.setattr(importlib.metadata, "entry_points", broken)
    with pytest.raises(UnknownNameError) as err:
        reg.get("glicko")
    assert "entry points of group 'chatmatch.rankers' could not be read (TypeError: " in str(err.value)


#: where chatmatch's own entry points may point: the import contracts of pyproject.toml
#: (the core never imports chatmatch_bots, scoring never imports the judges) hold for the
#: built-ins because the core's code names none of them; setup.cfg does, and only these
BUILTIN_HOMES = {"chatmatch.bots": ("chatmatch_bots.",),
                 "chatmatch.scorers": ("chatmatch.scoring.", "chatmatch.judges."),
                 "chatmatch.rankers": ("chatmatch.ranking.",),
                 "chatmatch.engines": ("chatmatch.runtime.",)}


def _declared(group: str) -> dict[str, str]:
    """The entry points of ``group`` that chatmatch's setup.cfg declares: name -> value."""
    setup = next(p / "setup.cfg" for p in Path(__file__).resolve().parents
                 if (p / "setup.cfg").is_file())
    cfg = configparser.ConfigParser()
    cfg.read(setup)
    pairs = [line.split("=", 1) for line in cfg["options.entry_points"][group].strip().splitlines()]
    return {name.strip(): value.strip() for name, value in pairs}


@pytest.mark.parametrize("group", sorted(BUILTIN_HOMES))
def test_the_builtins_are_the_entry_points_setup_cfg_declares(group: str) -> None:
    declared = _declared(group)
    installed = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=group)
                 if ep.dist is not None and ep.dist.name == "chatmatch"}
    assert installed == declared, (
        f"the installed entry points of {group} are not setup.cfg's: reinstall chatmatch "
        "(pip install -e .)")
    for name, value in declared.items():
        assert value.startswith(BUILTIN_HOMES[group]), f"{group}: {name} = {value}"


@pytest.mark.parametrize("contract", [c for k, c in sorted(CONTRACTS.items()) if k != "families"],
                         ids=["bots", "engines", "rankers", "scorers"])
def test_every_builtin_is_registered_under_its_entry_point(contract: Contract) -> None:
    assert contract.group is not None
    declared = _declared(contract.group)
    assert sorted(declared) == sorted(contract.expected_names)
    for name, value in declared.items():
        assert contract.registry.get(name) is contract.registry.import_path(value), name


def test_a_registry_whose_builtins_are_not_installed_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group: [])
    reg: Registry[Any] = Registry("ranking method", group="chatmatch.rankers",
                                  provider="chatmatch")
    with pytest.raises(UnknownNameError) as err:
        reg.get("elo")
    assert str(err.value) == (
        "Unknown ranking method 'elo'. Available: none. Some ranking methods failed to load: "
        "the built-in ranking methods (entry points 'chatmatch.rankers' of chatmatch) were not "
        "found: chatmatch is not installed in this Python environment, or was installed before "
        "they were declared; install it again (`pip install -e .` in its folder)")
