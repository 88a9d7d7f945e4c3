"""Each bot is constructed once per run with the local executor: the file's check, the
pre-flight and the executor use the same object (chatmatch.play.build)."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import ClassVar

from chatmatch.bot import Bot, History, Runtime
from chatmatch.config.tournament import load_config
from chatmatch.play.build import load_tournament
from chatmatch.run.tournament import run_tournament


class ConstructionCounter(Bot):
    """Counts its constructions and its pre-flight checks, by bot name (class-wide)."""

    description = "test bot: counts how often it is built"
    built: ClassVar[Counter[str]] = Counter()
    checked: ClassVar[Counter[str]] = Counter()
    loaded: ClassVar[Counter[str]] = Counter()
    _lock = threading.Lock()

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        with ConstructionCounter._lock:
            ConstructionCounter.built[name] += 1
        self.checked_here = False

    def preflight(self) -> None:
        ConstructionCounter.checked[self.name] += 1
        self.checked_here = True

    def load(self) -> None:
        assert self.checked_here, "the executor plays another object than the pre-flight checked"
        ConstructionCounter.loaded[self.name] += 1

    def reply(self, history: History) -> str:
        return f"{self.name} says {history.turn_index}"


def _yaml(tmp_path: Path, workers: int = 1) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(
        f"name: t\nexchanges: 2\noutput_dir: {tmp_path / 'run'}\nworkers: {workers}\nbots:\n"
        + "".join(f"  - name: {n}\n    adapter: {__name__}:ConstructionCounter\n" for n in "abc")
        + "scoring:\n  dimensions: [specificity, diversity]\n")
    return path


def test_each_bot_is_built_once_per_run(tmp_path: Path) -> None:
    ConstructionCounter.built.clear(), ConstructionCounter.checked.clear()
    ConstructionCounter.loaded.clear()
    cfg, built = load_tournament(_yaml(tmp_path))
    assert ConstructionCounter.built == Counter("abc")  # the file's check built them
    summary = run_tournament(cfg, built=built)
    assert summary.games_played == 6
    assert ConstructionCounter.built == Counter("abc")  # not again for the pre-flight or the play
    assert ConstructionCounter.checked == Counter("abc") == ConstructionCounter.loaded


def test_a_second_run_of_the_same_config_builds_fresh_bots(tmp_path: Path) -> None:
    ConstructionCounter.built.clear(), ConstructionCounter.checked.clear()
    ConstructionCounter.loaded.clear()
    cfg = load_config(_yaml(tmp_path, workers=2))
    assert not ConstructionCounter.built  # checking the file builds no bot
    run_tournament(cfg)
    (tmp_path / "run").rename(tmp_path / "first")
    run_tournament(cfg)  # the first run's executor closed its bots: they are not reused
    assert ConstructionCounter.built == Counter("abc") + Counter("abc")
    assert ConstructionCounter.loaded == Counter("abc") + Counter("abc")


def test_the_built_bots_are_not_part_of_the_configuration(tmp_path: Path) -> None:
    import copy
    import pickle

    cfg, built = load_tournament(_yaml(tmp_path))
    assert cfg == load_config(tmp_path / "t.yaml")  # equal by value, no bot in it
    assert pickle.loads(pickle.dumps(cfg)) == cfg == copy.deepcopy(cfg)
    assert built.get("a") is built.get("a")  # one object per bot until it is taken
    taken = built.take("a")
    assert taken is not built.get("a")


class RuntimeRecorder(Bot):
    """Records the runtime it was told before loading."""

    description = "test bot: records its runtime"
    told: ClassVar[dict[str, tuple[str, object]]] = {}

    def use_runtime(self, runtime: Runtime) -> None:
        RuntimeRecorder.told[self.name] = (runtime.device, runtime.threads)

    def reply(self, history: History) -> str:
        return "ok"


def test_every_bot_is_told_the_runtime_block(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("name: t\nexchanges: 1\nruntime: {device: cpu, threads: 3}\nbots:\n"
                    + "".join(f"  - name: {n}\n    adapter: {__name__}:RuntimeRecorder\n" for n in "ab"))
    RuntimeRecorder.told.clear()
    load_tournament(path)
    assert RuntimeRecorder.told == {"a": ("cpu", 3), "b": ("cpu", 3)}
