"""Capabilities are declared on the interfaces (class attributes and methods of Bot and of
the judge Backend), never found by probing: the pre-flight calls only the bots that declare
one, a committee forwards the declared calls to every member."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from chatmatch.bot import Bot, BotWrapper, History
from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data
from chatmatch.judges.backends import Committee, LabelProbs, LocalLM
from chatmatch.play.build import BuiltBots
from chatmatch.progress import Reporter
from chatmatch.run.tournament import preflight

PACKAGE = Path(__file__).resolve().parents[2] / "chatmatch"
CHECKED: list[str] = []


class Plain(Bot):
    def reply(self, history: History) -> str:
        return "hi"


class Checked(Plain):
    def preflight(self) -> None:
        CHECKED.append(self.name)


class CheckedToo(Checked):
    """Inherits the check and its declaration."""


class OptedOut(Checked):
    has_preflight = False


def test_defining_preflight_declares_it() -> None:
    assert not Plain.has_preflight and not BotWrapper.has_preflight
    assert Checked.has_preflight and CheckedToo.has_preflight
    assert not OptedOut.has_preflight
    Plain("p").preflight()  # the interface's own check does nothing


def test_the_pre_flight_calls_the_bots_that_declare_one() -> None:
    text = "bots:\n" + "".join(f"  - {{name: {n}, adapter: '{__name__}:{c}'}}\n" for n, c in (
        ("a", "Plain"), ("b", "Checked"), ("c", "CheckedToo"), ("d", "OptedOut")))
    cfg = config_from_data(parse_located_yaml(text, "t.yaml"))
    CHECKED.clear()
    preflight(cfg, BuiltBots(cfg.bots), {"a", "b", "c", "d"}, [], Reporter.off())
    assert CHECKED == ["b", "c"]


class Member:
    """A judge backend of the interface's shape that records the declared calls."""

    def __init__(self, name: str) -> None:
        self.name, self.calls = name, []  # type: ignore[var-annotated]

    def label_probs(self, prompt: str, labels: Sequence[str],
                    answer_prefix: str = "") -> LabelProbs | None:
        return LabelProbs({l: 1 / len(labels) for l in labels}, "uniform")

    def generate(self, prompt: str, max_tokens: int = 60, answer_prefix: str = "") -> str:
        return "A"

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name}

    def use_cache(self, path: Path) -> None:
        self.calls.append(("use_cache", path.name))

    def preflight(self) -> None:
        self.calls.append(("preflight",))


def test_a_committee_forwards_the_declared_calls_and_a_local_member_does_nothing(tmp_path: Path) -> None:
    local, remote = LocalLM("smollm2"), Member("endpoint")
    committee = Committee([local, remote])
    committee.preflight()
    committee.use_cache(tmp_path / "calls.sqlite")
    assert remote.calls == [("preflight",), ("use_cache", "calls.sqlite")]
    assert local._lm is None and not list(tmp_path.iterdir())  # nothing loaded or written


def test_no_capability_is_probed_with_getattr() -> None:
    names = "|".join(("preflight", "has_preflight", "use_cache", "remote", "operational_params",
                      "supports_batch", "thread_safe", "deterministic", "retries_inside"))
    probe = re.compile(rf"getattr\([^\n]*?,\s*['\"]({names})['\"]")
    found = [f"{p.relative_to(PACKAGE)}: {m.group(0)}" for p in PACKAGE.rglob("*.py")
             for m in probe.finditer(p.read_text())]
    assert not found
