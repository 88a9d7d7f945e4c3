"""Property-based tests: random and mutated inputs get a ChatmatchError (a clear message,
exit status 2 from the CLI), never another exception or a traceback."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmatch.errors import ChatmatchError, ConfigError, TranscriptError

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

VALID_YAML = """\
name: props
exchanges: 2
seed: 3
seed_utterance: ['What did you do last week?', 'Hi!']
concurrent_games: 2
scoring:
  dimensions: [proactivity, specificity, diversity]
  weights: {proactivity: 1.0, diversity: 2}
ranking:
  method: trueskill
  shuffles: 2
  points: {win: 3, tie: 1, loss: 0}
failures: {retries: 1, on_failure: forfeit, max_chars: 300}
bots:
  - name: a
    adapter: tests.scripted:CountingBot
    params: {style: rich, ask_every: 1}
  - name: b
    adapter: tests.scripted:CountingBot
  - eliza
"""

#: scalar and structural values a mutation may put anywhere
NASTY = ["", "-1", "0", "1e999", ".nan", "-.inf", "null", "~", "yes", "[", "]", "{", "}",
         "{a: 1}", "[1, [2]]", "'", '"', "&x", "*x", "!!binary AAA", "!!python/object:os.system",
         "\t", "é", "\x00", "\ufeff", "0x1F", "100000000000000000000", "true", "-", "? a",
         ": b", "--- ", "...", "%YAML 1.1", "<<: *x", "a:b", "bots", "name", "params"]


def _mutate(text: str, edits: list[tuple[int, int, int, str]]) -> str:
    """Apply (kind, position, length, token) edits: 0 delete, 1 insert, 2 replace a
    word, 3 duplicate a line, 4 drop a line, 5 swap two lines."""
    for kind, pos, length, token in edits:
        lines = text.split("\n")
        i = pos % (len(text) + 1)
        if kind == 0:
            text = text[:i] + text[i + length:]
        elif kind == 1:
            text = text[:i] + token + text[i:]
        elif kind == 2:
            j = text.find(" ", i)
            end = len(text) if j < 0 else j
            k = text.find(" ", end + 1)
            text = text[:end + 1] + token + (text[k:] if k >= 0 else "")
        elif lines:
            n = pos % len(lines)
            if kind == 3:
                lines.insert(n, lines[n])
            elif kind == 4:
                del lines[n]
            else:
                m = (pos + length) % len(lines)
                lines[n], lines[m] = lines[m], lines[n]
            text = "\n".join(lines)
    return text


edits = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 10_000), st.integers(1, 30),
                           st.sampled_from(NASTY) | st.text(max_size=8)), min_size=1, max_size=4)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="chatmatch-props-") as d:
        yield Path(d)


def _only(errors: tuple[type[BaseException], ...], fn: Callable[[], Any]) -> None:
    """Run ``fn``; it may succeed or raise one of ``errors`` with a non-empty message."""
    try:
        fn()
    except errors as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"


# --- tournament YAML ------------------------------------------------------------------------
def _load_text(workdir: Path, data: bytes) -> None:
    from chatmatch.config.tournament import load_config

    p = workdir / "cfg.yaml"
    p.write_bytes(data)
    _only((ConfigError,), lambda: load_config(p))


def test_valid_yaml_is_valid():
    from chatmatch.common.yamlloc import parse_located_yaml
    from chatmatch.config.tournament import config_from_data

    cfg = config_from_data(parse_located_yaml(VALID_YAML, "v.yaml"))
    assert cfg.bot_names == ["a", "b", "eliza"]


@SETTINGS
@given(edits)
def test_mutated_tournament_yaml_gives_only_config_errors(workdir, e):
    _load_text(workdir, _mutate(VALID_YAML, e).encode("utf-8", "surrogatepass"))


@SETTINGS
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_random_bytes_as_tournament_yaml_give_only_config_errors(workdir, data):
    _load_text(workdir, data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**20) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
_KEYS = ["name", "bots", "exchanges", "seed", "seed_utterance", "scoring", "ranking", "failures",
         "concurrent_games", "record_timings", "output_dir", "description"]


@SETTINGS
@given(st.dictionaries(st.sampled_from(_KEYS), json_values, max_size=6), json_values)
def test_well_formed_yaml_with_random_values_gives_only_config_errors(workdir, top, bots):
    valid = yaml.safe_load(VALID_YAML)
    doc = {**valid, **top}
    if isinstance(bots, list):
        doc["bots"] = bots + valid["bots"][:1]
    _load_text(workdir, yaml.safe_dump(doc, allow_unicode=True).encode())


# --- transcript files ---------------------------------------------------------------------
VALID_JSONL = "\n".join([
    '{"type": "game", "game_id": "g1", "players": ["A", "B"], "seed_utterance": "Hi", "meta": {}}',
    '{"type": "turn", "index": 0, "speaker": "A", "text": "Hi", "seconds": 0.0, "seed": true}',
    '{"type": "turn", "index": 1, "speaker": "B", "text": "Hello! How are you?", "seconds": 0.5}',
    '{"type": "turn", "index": 2, "speaker": "A", "text": "Fine, thanks.", "seconds": 0.25}',
]) + "\n"
VALID_TEXT = "A: Hi\nB: Hello! How are you?\nA: Fine, thanks.\nB: Good to hear.\n"
VALID_PARLAI = "\n".join([
    '{"dialog": [[{"id": "bot_a", "text": "Hi there"}, {"id": "bot_b", "text": "Hello! How are you?"}], '
    '[{"id": "bot_a", "text": "Fine, thanks."}, {"id": "bot_b", "text": "Good to hear."}]], '
    '"context": [{"id": "context", "text": "your persona: I like tea"}]}',
    '{"dialog": [[{"id": "m", "text": "Hey"}, {"id": "m", "text": "Hey you"}]]}']) + "\n"


def test_transcript_from_jsonl_reads_the_valid_file():
    from chatmatch.transcript import Transcript

    assert len(Transcript.from_jsonl(VALID_JSONL, file="x.jsonl").turns) == 3


@SETTINGS
@given(edits)
def test_mutated_jsonl_transcripts_give_only_transcript_errors(e):
    from chatmatch.transcript import Transcript

    text = _mutate(VALID_JSONL, e)
    _only((TranscriptError,), lambda: Transcript.from_jsonl(text, file="x.jsonl"))


_TURN_KEYS = ["index", "speaker", "text", "seconds", "seed"]
_GAME_KEYS = ["game_id", "players", "seed_utterance", "meta"]
_field_changes = (st.tuples(st.integers(1, 3), st.sampled_from(_TURN_KEYS), json_values)
                  | st.tuples(st.just(0), st.sampled_from(_GAME_KEYS), json_values)
                  | st.tuples(st.integers(0, 3), st.just("type"), json_values))


@settings(SETTINGS, max_examples=150)
@given(st.lists(_field_changes, min_size=1, max_size=3))
def test_jsonl_transcripts_with_random_field_values_give_only_transcript_errors(changes):
    import json

    from chatmatch.transcript import Transcript

    records = [json.loads(x) for x in VALID_JSONL.splitlines()]
    for line, key, value in changes:
        records[line][key] = value
    text = "\n".join(json.dumps(r) for r in records) + "\n"
    _only((TranscriptError,), lambda: Transcript.from_jsonl(text, file="x.jsonl"))


@pytest.mark.parametrize("suffix, valid", [(".jsonl", VALID_JSONL), (".txt", VALID_TEXT),
                                           (".json", VALID_PARLAI)])
def test_mutated_transcript_files_through_the_importer(workdir, suffix, valid):
    from chatmatch.run.importers import load_transcripts

    p = workdir / f"t{suffix}"
    p.write_text(valid)
    games, errors = load_transcripts([p], strict=True)
    assert games and not errors  # the unmutated file is read

    @SETTINGS
    @given(edits, st.booleans())
    def check(e, as_latin1):
        text = _mutate(valid, e)
        p.write_bytes(text.encode("latin-1", "replace") if as_latin1
                      else text.encode("utf-8", "surrogatepass"))
        _only((TranscriptError,), lambda: load_transcripts([p], strict=True))
        games, errors = load_transcripts([p], strict=False)  # lenient: problems are listed
        assert all(isinstance(x, TranscriptError) and str(x) for x in errors)

    check()


# --- human ranking files ------------------------------------------------------------------
VALID_HUMAN_YAML = "ranking:\n  a: 1\n  b: 2\n  eliza: 3\n"
VALID_HUMAN_CSV = "bot,rank\na,1\nb,2\neliza,3\n"


@SETTINGS
@given(edits, st.sampled_from([(".yaml", VALID_HUMAN_YAML), (".csv", VALID_HUMAN_CSV)]))
def test_mutated_human_ranking_files_give_only_chatmatch_errors(workdir, e, kind):
    from chatmatch.analysis.human import load_human

    suffix, valid = kind
    p = workdir / f"human{suffix}"
    p.write_bytes(_mutate(valid, e).encode("utf-8", "surrogatepass"))
    _only((ChatmatchError,), lambda: load_human(p, ["a", "b", "eliza"]))


# --- the command line ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def cli_dir(workdir: Path) -> Iterator[Path]:
    """A folder with a finished run ``run/`` of VALID_YAML, used as the CLI's cwd."""
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament

    d = workdir / "cli"
    d.mkdir()
    (d / "t.yaml").write_text(VALID_YAML + "output_dir: run\n")
    (d / "bad.yaml").write_text(VALID_YAML.replace("exchanges: 2", "exchanges: two"))
    (d / "human.yaml").write_text(VALID_HUMAN_YAML)
    (d / "t.jsonl").write_text(VALID_JSONL)
    run_tournament(load_config(d / "t.yaml"), d / "run")
    old = os.getcwd()
    os.chdir(d)
    try:
        yield d
    finally:
        os.chdir(old)


WORDS = ["run", "rank", "show", "bots", "score", "compare", "report", "plot", "--out", "-o",
         "--method", "-m", "--points", "--seed", "--shuffles", "--json", "--save", "--list",
         "--quiet", "--human", "--help", "--version", "t.yaml", "bad.yaml", "run", "run/",
         "nowhere", "human.yaml", "t.jsonl", "g001", "g999", "2/1/0", "3-1", "a/b/c", "-1", "0",
         "abc", "trueskill", "points", "pointz", "", " ", "--", "-x", "é", "run/manifest.json"]


class _NotPlayed(Exception):
    """Raised instead of playing a (valid) new tournament, to keep the test fast."""


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=6), min_size=0, max_size=5))
def test_random_command_lines_never_show_a_traceback(cli_dir, monkeypatch_module, argv):
    from chatmatch.cli import cli

    res = CliRunner().invoke(cli, argv, catch_exceptions=True)
    exc = res.exception
    if isinstance(exc, _NotPlayed):
        return
    assert exc is None or isinstance(exc, SystemExit), f"{argv}: {exc!r}\n{res.output}"
    assert res.exit_code in (0, 2), f"{argv}: exit {res.exit_code}\n{res.output}"
    assert "Traceback" not in res.output
    if res.exit_code == 2:
        assert res.output.strip(), argv


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    """Stops ``chatmatch run`` before it plays a new tournament (a resumed run that is
    already complete still goes through the real runner)."""
    import chatmatch.run.tournament as runner

    real = runner.run_tournament

    def guarded(cfg: Any, out: Any = None, **kw: Any) -> Any:
        from chatmatch.rundir.store import RunDir

        target = Path(out) if out else cfg.default_output_dir()
        if not RunDir(target).exists():
            raise _NotPlayed(str(target))
        return real(cfg, out, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(runner, "run_tournament", guarded)
    yield mp
    mp.undo()
