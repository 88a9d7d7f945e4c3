"""A catalogue of bad inputs and the message each one gets from the ``chatmatch`` command.

Used by ``test_bad_inputs.py`` (every case must exit with status 2, print ``error:`` or a
usage message with the expected text, and no traceback) and to generate the table in
``docs/reliability.md``::

    .venv/bin/python -m tests.reliability.bad_inputs      # prints the markdown table
"""

from __future__ import annotations

import importlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import click
from click.testing import CliRunner

GOOD = """\
name: demo
exchanges: 2
scoring: {dimensions: [proactivity, specificity, diversity]}
bots:
  - name: rich
    adapter: tests.scripted:CountingBot
    params: {style: rich, ask_every: 1}
  - name: dull
    adapter: tests.scripted:CountingBot
    params: {style: dull}
  - eliza
"""
BOTS = """\
bots:
  - name: rich
    adapter: tests.scripted:CountingBot
  - name: dull
    adapter: tests.scripted:CountingBot
"""
GOOD_JSONL = "\n".join([
    '{"type": "game", "game_id": "x1", "players": ["A", "B"], "seed_utterance": "Hi"}',
    '{"type": "turn", "speaker": "A", "text": "Hi", "seed": true}',
    '{"type": "turn", "speaker": "B", "text": "Hello, what did you do?"}',
    '{"type": "turn", "speaker": "A", "text": "I went to Paris."}',
    '{"type": "turn", "speaker": "B", "text": "Nice! Why Paris?"}']) + "\n"


@dataclass(frozen=True)
class Case:
    group: str
    what: str  # the bad input, in words
    argv: tuple[str, ...]  # the command line (cwd = a folder with the files and a run 'run/')
    expect: str  # text the message must contain
    files: dict[str, str | bytes] = field(default_factory=dict)


def _yaml(what: str, text: str | bytes, expect: str) -> Case:
    return Case("tournament YAML", what, ("run", "t.yaml", "--out", "new"), expect, {"t.yaml": text})


CASES: list[Case] = [
    Case("tournament YAML", "file does not exist", ("run", "nope.yaml"), "nope.yaml: file not found"),
    Case("tournament YAML", "a directory instead of a file", ("run", "run"), "File 'run' is a directory"),
    _yaml("not UTF-8 (Latin-1 bytes)", GOOD.replace("demo", "d\xe9mo").encode("latin-1"), "not UTF-8 text"),
    _yaml("empty file", "", "the file is empty"),
    _yaml("syntax: unclosed bracket", "bots: [a, b\n", "invalid YAML"),
    _yaml("syntax: tab indentation", "bots:\n\t- eliza\n", "invalid YAML"),
    _yaml("a key given twice", "exchanges: 2\nexchanges: 3\n" + BOTS, "key 'exchanges' appears twice"),
    _yaml("a Python tag (unsafe YAML)", "bots: !!python/object/apply:os.system [ls]\n", "invalid YAML"),
    _yaml("top level is a scalar", "hello\n", "must hold a mapping"),
    _yaml("no bots", "name: x\n", "missing required key 'bots'"),
    _yaml("only one bot", "bots: [eliza]\n", "at least 2 bots"),
    _yaml("misspelt key", "exchange: 3\n" + BOTS, "unknown key 'exchange'; did you mean 'exchanges'?"),
    _yaml("wrong type", "exchanges: many\n" + BOTS, "exchanges: Input should be a valid integer"),
    _yaml("value out of range", "exchanges: 0\n" + BOTS, "exchanges: Input should be greater than or equal to 1"),
    _yaml("unknown adapter (typo)", "bots: [eliza, elisa]\n", "Did you mean: eliza?"),
    _yaml("adapter import path that does not exist", BOTS.replace("tests.scripted:CountingBot", "nosuch.mod:Bot", 1),
          "bots.0"),
    _yaml("unknown adapter parameter", BOTS + "    params: {colour: red}\n", "colour"),
    _yaml("duplicate bot name", "bots: [eliza, eliza]\n", "duplicate bot name 'eliza'"),
    _yaml("bot name with a slash", "bots:\n  - {name: a/b, adapter: eliza}\n  - eliza\n", "must not contain slashes"),
    _yaml("empty seed utterance", "seed_utterance: ' '\n" + BOTS, "seed utterances must be non-empty"),
    _yaml("unknown scoring dimension", "scoring: {dimensions: [fluency, witt]}\n" + BOTS, "witt"),
    _yaml("negative dimension weight", "scoring: {weights: {fluency: -1}}\n" + BOTS, "weights"),
    _yaml("unknown ranking method", "ranking: {method: trueskil}\n" + BOTS, "Unknown ranking method 'trueskil'"),
    _yaml("points win < tie", "ranking: {points: {win: 0, tie: 1}}\n" + BOTS, "need win >= tie >= loss"),
    _yaml("API key written in the YAML", BOTS.replace("CountingBot\n", "CountingBot\n    params: {api_key: sk-123}\n", 1),
          "a secret written in the YAML is refused"),
    Case("run directory", "resume with other bots", ("run", "t.yaml", "--out", "run"),
         "holds a run of another tournament setup (changed: bots: added eliza2",
         {"t.yaml": GOOD.replace("  - eliza\n", "  - eliza\n  - {name: eliza2, adapter: eliza}\n")}),
    Case("run directory", "resume with more exchanges", ("run", "t.yaml", "--out", "run"),
         "(changed: exchanges 2 -> 3)", {"t.yaml": GOOD.replace("exchanges: 2", "exchanges: 3")}),
    Case("run directory", "rank a folder that is not a run", ("rank", "."), "not a chatmatch run directory"),
    Case("run directory", "rank a run whose manifest is damaged", ("rank", "broken"), "unreadable manifest",
         {"broken/manifest.json": "{not json", "broken/config.yaml": GOOD}),
    Case("run directory", "show a game that does not exist", ("show", "run", "g999"), "g999"),
    Case("command line", "unknown subcommand", ("rnu",), "No such command 'rnu'"),
    Case("command line", "missing argument", ("run",), "Missing argument 'CONFIG_FILE'"),
    Case("command line", "unknown option", ("run", "t.yaml", "--fast"), "No such option '--fast'",
         {"t.yaml": GOOD}),
    Case("command line", "--out is a file", ("run", "t.yaml", "--out", "t.yaml"), "is a file",
         {"t.yaml": GOOD}),
    Case("command line", "unknown ranking method", ("rank", "run", "--method", "pointz"),
         "Did you mean: points?"),
    Case("command line", "malformed --points", ("rank", "run", "--points", "3-1"), "expected W/T/L"),
    Case("command line", "--shuffles 0", ("rank", "run", "--shuffles", "0"), "0 is not in the range"),
    Case("command line", "--seed not a number", ("rank", "run", "--seed", "abc"), "'abc' is not a valid integer"),
]

# cases for subcommands other helpers write: added when their modules exist
_LATER: list[tuple[str, Case]] = [
    ("chatmatch.cli.compare", Case("human ranking file", "unknown bot", ("compare", "run", "--human", "h.yaml"),
                                   "unknown bot 'zorro'", {"h.yaml": "ranking: {rich: 1, zorro: 2}\n"})),
    ("chatmatch.cli.compare", Case("human ranking file", "duplicate bot (YAML)", ("compare", "run", "--human", "h.yaml"),
                                   "duplicate", {"h.yaml": "ranking:\n  rich: 1\n  rich: 2\n  dull: 3\n"})),
    ("chatmatch.cli.compare", Case("human ranking file", "duplicate bot (CSV)", ("compare", "run", "--human", "h.csv"),
                                   "duplicate bot 'rich'", {"h.csv": "bot,rank\nrich,1\nrich,2\ndull,3\n"})),
    ("chatmatch.cli.compare", Case("human ranking file", "rank is not a number", ("compare", "run", "--human", "h.csv"),
                                   "expected a number", {"h.csv": "bot,rank\nrich,first\ndull,2\n"})),
    ("chatmatch.cli.compare", Case("human ranking file", "a bot without a rank", ("compare", "run", "--human", "h.yaml"),
                                   "h.yaml:3", {"h.yaml": "ranking:\n  rich: 1\n  dull:\n  eliza: 3\n"})),
    ("chatmatch.cli.compare", Case("human ranking file", "unknown file type", ("compare", "run", "--human", "h.txt"),
                                   "unknown file type", {"h.txt": "rich 1\n"})),
    ("chatmatch.cli.score", Case("transcript file", "not UTF-8", ("score", "t.jsonl", "--out", "s"),
                                 "t.jsonl", {"t.jsonl": GOOD_JSONL.replace("Paris", "P\xe4ris").encode("latin-1")})),
    ("chatmatch.cli.score", Case("transcript file", "a turn without speaker", ("score", "t.jsonl", "--out", "s"),
                                 "speaker", {"t.jsonl": GOOD_JSONL.replace('"speaker": "B", ', "", 1)})),
    ("chatmatch.cli.score", Case("transcript file", "one speaker only", ("score", "t.txt", "--out", "s"),
                                 "t.txt", {"t.txt": "A: hi\nA: anyone?\nA: hello?\n"})),
    ("chatmatch.cli.score", Case("transcript file", "empty game", ("score", "t.jsonl", "--out", "s"),
                                 "t.jsonl", {"t.jsonl": GOOD_JSONL.splitlines()[0] + "\n"})),
    ("chatmatch.cli.score", Case("transcript file", "one speaker only (JSON Lines)", ("score", "t.jsonl", "--out", "s"),
                                 "t.jsonl", {"t.jsonl": GOOD_JSONL.replace('"speaker": "B"', '"speaker": "A"')})),
    ("chatmatch.cli.score", Case("transcript file", "not JSON", ("score", "t.jsonl", "--out", "s"),
                                 "t.jsonl:1", {"t.jsonl": "{oops\n"})),
]


#: (what, file name, content, expected text) for chatmatch.importers.load_transcripts
TRANSCRIPT_FILES: list[tuple[str, str, str | bytes, str]] = [
    ("not UTF-8", "t.jsonl", GOOD_JSONL.replace("Paris", "P\xe4ris").encode("latin-1"), "not UTF-8 text"),
    ("empty file", "t.txt", "\n\n", "the file is empty"),
    ("a turn without speaker (JSON Lines)", "t.jsonl", GOOD_JSONL.replace('"speaker": "B", ', "", 1),
     "turn has no speaker"),
    ("a line without speaker (text)", "t.txt", "A: hi\njust words\nB: ok\n", "expected 'SPEAKER: utterance'"),
    ("one speaker only (text)", "t.txt", "A: hi\nA: anyone?\n", "only one speaker ('A')"),
    ("three speakers (text)", "t.txt", "A: hi\nB: yo\nC: hey\n", "a third speaker 'C'"),
    ("one speaker only (JSON Lines)", "t.jsonl", GOOD_JSONL.replace('"speaker": "B"', '"speaker": "A"'),
     "only one speaker"),
    ("empty game (header, no turns)", "t.jsonl", GOOD_JSONL.splitlines()[0] + "\n", "no turns"),
    ("speaker not among players", "t.jsonl", GOOD_JSONL.replace('"speaker": "B"', '"speaker": "C"', 1),
     "not among players"),
    ("not JSON", "t.jsonl", '{"type": "game", "players": ["A", "B"]}\n{oops\n', "t.jsonl:2: not valid JSON"),
    ("'seconds' not a number", "t.jsonl", GOOD_JSONL.replace('"text": "Hi"', '"text": "Hi", "seconds": "soon"'),
     "turn 'seconds' must be a number"),
    ("ParlAI episode without turns", "t.json", '{"dialog": []}\n', "the episode has no turns"),
    ("ParlAI act without text", "t.json", '{"dialog": [[{"id": "a"}, {"id": "b", "text": "x"}]]}\n',
     "every act needs an 'id' and a 'text' string"),
]


def transcript_file_message(folder: Path, name: str, content: str | bytes) -> str:
    """The message ``load_transcripts(strict=True)`` raises for one file."""
    from chatmatch.errors import TranscriptError
    from chatmatch.importers import load_transcripts

    _write(folder, {name: content})
    try:
        games, _ = load_transcripts([folder / name], strict=True)
    except TranscriptError as exc:
        return str(exc).replace(str(folder) + os.sep, "")
    return f"(accepted: {len(games)} game(s), {sum(len(g.turns) for g in games)} turn(s))"


def available_cases() -> list[Case]:
    extra = [c for mod, c in _LATER if importlib.util.find_spec(mod) is not None]
    return CASES + extra


def missing_modules() -> list[str]:
    return sorted({mod for mod, _ in _LATER if importlib.util.find_spec(mod) is None})


def _group() -> click.Group:
    """The chatmatch group, plus subcommands written but not (yet) registered in it."""
    from chatmatch.cli import _Group, cli

    commands = dict(cli.commands)
    for mod, _ in _LATER:
        name = mod.rsplit(".", 1)[1]
        if name not in commands and importlib.util.find_spec(mod) is not None:
            commands[name] = importlib.import_module(mod).command
    return _Group("chatmatch", commands=commands)


def _write(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        p = folder / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")


@dataclass(frozen=True)
class Outcome:
    exit_code: int
    output: str
    exception: BaseException | None

    @property
    def message(self) -> str:
        """The first 'error:' line, or the usage error line, trimmed for a table."""
        if self.exception is not None and not isinstance(self.exception, SystemExit):
            first = (str(self.exception).splitlines() or [""])[0]
            return f"TRACEBACK: {type(self.exception).__name__}: {first}"
        lines = [x for x in self.output.splitlines() if x.strip()]
        for x in lines:
            if x.startswith(("error:", "Error:")):
                return x
        return lines[-1] if lines else ""


def make_base(folder: Path) -> None:
    """A finished run of GOOD in ``folder/run``."""
    from chatmatch.config import load_config
    from chatmatch.runner import run_tournament

    _write(folder, {"good.yaml": GOOD})
    run_tournament(load_config(folder / "good.yaml"), folder / "run")


def run_case(case: Case, base: Path) -> Outcome:
    with tempfile.TemporaryDirectory(dir=base) as d:
        work = Path(d)
        os.symlink(base / "run", work / "run")
        _write(work, case.files)
        old = os.getcwd()
        os.chdir(work)
        try:
            res = CliRunner().invoke(_group(), list(case.argv), catch_exceptions=True)
        finally:
            os.chdir(old)
    return Outcome(res.exit_code, res.output, res.exception)


def iter_outcomes() -> Iterator[tuple[Case, Outcome]]:
    with tempfile.TemporaryDirectory(prefix="chatmatch-bad-") as d:
        base = Path(d)
        make_base(base)
        for case in available_cases():
            yield case, run_case(case, base)


def markdown() -> str:
    rows = ["| input | bad input | exit | message |", "|---|---|---|---|"]
    for case, out in iter_outcomes():
        msg = out.message.replace("|", "\\|")
        rows.append(f"| {case.group} | {case.what} (`chatmatch {' '.join(case.argv)}`) | "
                    f"{out.exit_code} | `{msg}` |")
    if importlib.util.find_spec("chatmatch.importers") is not None:
        with tempfile.TemporaryDirectory() as d:
            for what, name, content, _ in TRANSCRIPT_FILES:
                msg = transcript_file_message(Path(d), name, content).replace("|", "\\|")
                rows.append(f"| transcript file (importer) | {what} (`{name}`) | - | `{msg}` |")
    missing = missing_modules()
    if missing:
        rows.append(f"\n(not covered yet, module missing: {', '.join(missing)})")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown())
