from __future__ import annotations

import importlib.metadata
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from chatmatch import adapters
from chatmatch.adapters import ADAPTERS, ENTRY_POINT_GROUP, create_bot, list_adapters, resolve_adapter
from chatmatch.adapters.params import BotParams, params_model
from chatmatch.bot import Bot, History
from chatmatch.common.registry import Registry, UnknownNameError
from chatmatch.errors import BotError, ChatmatchError
from tests.scripted import ParrotBot

MINE = {"eliza": "chatmatch_bots.eliza", "canned": "chatmatch_bots.baseline", "echo": "chatmatch_bots.baseline",
        "random-line": "chatmatch_bots.baseline", "retrieval": "chatmatch_bots.retrieval",
        "chatterbot": "chatmatch_bots.chatterbot_bot"}


def test_builtins_are_registered_by_name_without_load_errors() -> None:
    names = ADAPTERS.names()
    for name, module in MINE.items():
        assert name in names
        assert ADAPTERS.get(name).__module__ == module
    assert ADAPTERS.load_errors == []


def test_list_adapters_gives_one_line_descriptions() -> None:
    listed = dict(list_adapters())
    assert set(MINE) <= set(listed)
    assert listed["eliza"] == ADAPTERS.get("eliza").description
    assert all(desc and "\n" not in desc for desc in listed.values())


def test_every_builtin_adapter_declares_a_params_model() -> None:
    builtins = [ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
                if ep.value.startswith("chatmatch_bots.")]
    assert len(builtins) >= 11
    for name in builtins:
        cls = ADAPTERS.get(name)
        assert issubclass(cls.Params, BotParams), name  # type: ignore[attr-defined]
        assert params_model(cls) is cls.Params  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(MINE))
def test_my_adapters_build_from_their_params(name: str) -> None:
    params = inspect.signature(ADAPTERS.get(name).__init__).parameters
    assert list(params)[:3] == ["self", "name", "params"]
    bot = create_bot("b1", name, {})  # cheap: nothing is loaded here
    assert bot.name == "b1" and bot.describe()["class"].startswith(MINE[name])


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownNameError, match=r"Did you mean: eliza\?") as err:
        resolve_adapter("elisa")
    assert "Available:" in str(err.value) and "package.module:Class" in str(err.value)


def test_dotted_name_hints_at_the_colon_form() -> None:
    with pytest.raises(UnknownNameError, match="'chatmatch_bots.eliza:ElizaBot'"):
        resolve_adapter("chatmatch_bots.eliza.ElizaBot")


def test_import_path_resolves_a_test_class() -> None:
    assert resolve_adapter("tests.scripted:ParrotBot") is ParrotBot
    bot = create_bot("p", "tests.scripted:ParrotBot", {"prefix": "> "})
    assert bot.reply(History((), "")) == "> "


@pytest.mark.parametrize("spec, expected", [
    ("no_such_package_xyz.mod:Bot", "there is no module named 'no_such_package_xyz.mod'"),
    ("chatmatch_bots.no_such_module:Bot", "there is no module named 'chatmatch_bots.no_such_module'"),
    ("bots.eliza:ElizaBot", "the package 'bots' was renamed 'chatmatch_bots'; write "
                            "'chatmatch_bots.eliza:ElizaBot'"),
    ("bots.base:Bot", "the package 'bots' was renamed 'chatmatch_bots'; write 'chatmatch.bot:Bot'"),
    ("chatmatch_bots.eliza:Nope", "has no attribute 'Nope'. Bot classes it defines: ElizaBot"),
    ("chatmatch_bots.eliza:eliza_reply", "it is a function that does not subclass chatmatch.bot.Bot"),
    ("chatmatch.bot:History", "it is a class that does not subclass"),
    (":ElizaBot", "not a valid import path"),
    ("chatmatch_bots.eliza:", "not a valid import path"),
])
def test_bad_import_paths(spec: str, expected: str) -> None:
    with pytest.raises(BotError) as err:
        resolve_adapter(spec)
    assert expected in str(err.value)


def test_import_path_with_a_missing_dependency_names_it(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cm_plugin_missing_dep.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotError, match="module 'no_such_dependency_xyz' is missing"):
        resolve_adapter("cm_plugin_missing_dep:Bot")
    monkeypatch.delitem(sys.modules, "cm_plugin_missing_dep", raising=False)


def _fresh(monkeypatch: pytest.MonkeyPatch,
           eps: list[importlib.metadata.EntryPoint] | None = None,
           asked: list[str] | None = None) -> Registry[type[Bot]]:
    """An adapter registry in place of the global one, with these entry points
    (each entry point discovery appends its group to ``asked``)."""
    asked = [] if asked is None else asked

    def fake_entry_points(*, group: str) -> list[importlib.metadata.EntryPoint]:
        asked.append(group)
        return list(eps or [])

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    reg: Registry[type[Bot]] = Registry(
        "bot adapter", group=ENTRY_POINT_GROUP, noun="adapter",
        check=adapters._check_adapter, describe=adapters._describe_adapter, error=BotError)
    monkeypatch.setattr(adapters, "ADAPTERS", reg)
    return reg


def _ep(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def test_entry_points_register_classes_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    fresh = _fresh(monkeypatch, eps=[
        _ep("parrot", "tests.scripted:ParrotBot"), _ep("broken", "no_such_plugin_xyz:Bot"),
        _ep("not-a-bot", "chatmatch.bot:History")], asked=asked)
    assert asked == []  # nothing is discovered before the first lookup
    assert resolve_adapter("parrot") is ParrotBot
    assert asked == [ENTRY_POINT_GROUP]
    assert fresh.load_errors == []  # only the entry point asked for was loaded
    with pytest.raises(UnknownNameError) as err:
        resolve_adapter("broken")
    assert "entry point 'broken = no_such_plugin_xyz:Bot'" in str(err.value)
    assert "does not subclass chatmatch.bot.Bot" in str(err.value)
    assert len(fresh.load_errors) == 2


def test_entry_point_may_name_a_self_registering_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cm_plugin_selfreg.py").write_text(
        "from chatmatch.bot import Bot\nfrom chatmatch.adapters import ADAPTERS\n\n"
        "@ADAPTERS.register('selfreg')\nclass SelfRegBot(Bot):\n"
        "    description = 'registers itself'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fresh = _fresh(monkeypatch, eps=[_ep("selfreg-module", "cm_plugin_selfreg"),
                                     _ep("selfreg", "cm_plugin_selfreg:SelfRegBot")])
    assert fresh.get("selfreg").__name__ == "SelfRegBot"
    assert "selfreg-module" not in fresh
    assert fresh.load_errors == []  # same class under the same name: not a clash
    monkeypatch.delitem(sys.modules, "cm_plugin_selfreg", raising=False)


def test_entry_point_name_clash_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = _fresh(monkeypatch, eps=[_ep("parrot", "tests.scripted:ParrotBot"),
                                     _ep("parrot", "chatmatch_bots.eliza:ElizaBot"),
                                     _ep("parrot2", "tests.scripted:ParrotBot")])
    assert fresh.get("parrot") is ParrotBot and fresh.get("parrot2") is ParrotBot
    assert "registered twice" in fresh.load_errors[0]


def test_a_broken_builtin_does_not_hide_the_others(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cm_builtin_broken_dep.py").write_text("import no_such_dependency_xyz\n")
    (tmp_path / "cm_builtin_raises.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fresh = _fresh(monkeypatch, eps=[_ep("a", "cm_builtin_broken_dep:Bot"),
                                     _ep("b", "cm_builtin_raises:Bot"),
                                     _ep("parrot", "tests.scripted:ParrotBot")])
    assert fresh.names() == ["parrot"]
    errors = fresh.load_errors
    assert len(errors) == 2
    assert "cm_builtin_broken_dep" in errors[0] and "no_such_dependency_xyz" in errors[0]
    assert "RuntimeError: boom" in errors[1]
    with pytest.raises(UnknownNameError, match="Some adapters failed to load: entry point 'a = "):
        resolve_adapter("a")


def test_a_builtin_is_imported_only_when_its_name_is_asked_for() -> None:
    assert set(MINE) <= {ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    code = ("import sys; from chatmatch.adapters import resolve_adapter; resolve_adapter('eliza'); "
            "print(sorted(m for m in sys.modules if m.startswith('chatmatch_bots.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["['chatmatch_bots.eliza',", "'chatmatch_bots.eliza_script']"]


def test_create_bot_unknown_parameter_names_bot_adapter_and_accepted() -> None:
    with pytest.raises(BotError) as err:
        create_bot("bob", "retrieval", {"max_pair": 10})
    msg = str(err.value)
    assert "Bot 'bob' (adapter 'retrieval')" in msg
    assert "'max_pair' (did you mean 'max_pairs'?)" in msg
    assert "Accepted parameters: max_pairs: int | None = None, context_turns: int = 1" in msg


def test_create_bot_missing_required_parameter() -> None:
    with pytest.raises(BotError) as err:
        create_bot("m", "tests.scripted:NeedsModelBot", {})
    msg = str(err.value)
    assert "missing required parameter(s) 'model'" in msg
    assert "model: str (required), temperature: float = 0.7" in msg
    assert create_bot("m", "tests.scripted:NeedsModelBot", {"model": "x"}).model == "x"


def test_create_bot_wraps_type_and_value_errors_from_the_constructor() -> None:
    with pytest.raises(BotError, match=r"Bot 'p' .*bad parameters: .*str.*size: int = 1"):
        create_bot("p", "tests.scripted:PickyBot", {"size": "big"})
    with pytest.raises(BotError, match="'context_turns' must be a positive integer"):
        create_bot("r", "retrieval", {"context_turns": 0})


def test_create_bot_rejects_name_in_params_and_unknown_adapter() -> None:
    with pytest.raises(BotError, match="parameter 'name' cannot be set"):
        create_bot("e", "eliza", {"name": "x"})
    with pytest.raises(ChatmatchError, match="Did you mean: eliza"):
        create_bot("e", "elisa", {})


class KwargsBot(Bot):
    """A third-party style adapter: no Params model, a ``**kwargs`` constructor."""

    def __init__(self, name: str = "", *, size: int = 1, **rest: object) -> None:
        super().__init__(name)
        self.size, self.rest = size, rest

    def reply(self, history: History) -> str:
        return "x" * self.size


def test_a_plugin_without_params_gets_a_model_derived_once_from_its_constructor() -> None:
    from tests.scripted import NeedsModelBot, PickyBot

    model = params_model(NeedsModelBot)
    assert params_model(NeedsModelBot) is model and issubclass(model, BotParams)
    assert list(model.model_fields) == ["model", "temperature"]
    assert model.model_fields["model"].is_required()
    assert params_model(PickyBot) is not model
    bot = create_bot("k", f"{__name__}:KwargsBot", {"size": 3, "colour": "red"})
    assert bot.size == 3 and bot.rest == {"colour": "red"}  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="parameter 'size' must be an integer, got 'big'"):
        create_bot("k", f"{__name__}:KwargsBot", {"size": "big"})


def test_a_builtin_is_built_from_validated_params_or_from_keywords() -> None:
    from chatmatch.adapters.params import given
    from chatmatch_bots.retrieval import RetrievalBot

    bot = create_bot("r", "retrieval", {"context_turns": 2})
    assert bot.key.context_turns == 2  # type: ignore[attr-defined]
    assert RetrievalBot("r", avoid_repeats=False).avoid_repeats is False
    with pytest.raises(ValueError, match="'context_turns' must be a positive integer"):
        RetrievalBot("r", context_turns=0)
    with pytest.raises(TypeError, match="not both"):
        given(RetrievalBot.Params, RetrievalBot.Params(), {"context_turns": 2})
    with pytest.raises(BotError, match="parameter 'memory' must be true or false, got 1"):
        create_bot("e", "eliza", {"memory": 1})


class OddBot(Bot):
    """A constructor pydantic cannot model (a parameter with a leading underscore)."""

    def __init__(self, name: str = "", *, _hidden: int = 1, size: int = 2) -> None:
        super().__init__(name)
        self.size = size


def test_a_constructor_pydantic_cannot_model_is_still_built_unchecked() -> None:
    bot = create_bot("o", f"{__name__}:OddBot", {"size": 5})
    assert bot.size == 5  # type: ignore[attr-defined]
