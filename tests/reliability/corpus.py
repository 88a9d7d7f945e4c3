"""The hostile-input corpus: every bad file, bad command line and injected fault that
chatmatch must answer with one clear line (or a correct result), its exit status and the
text that line must hold.

One parametrised test runs every case (``test_corpus.py``); the table in
``docs/appendix/reliability-corpus.md`` is generated from the same cases and a test fails when it drifts::

    python -m tests.reliability.corpus                # print the table
    python -m tests.reliability.corpus --write-docs   # rewrite it in docs/appendix/reliability-corpus.md

Adding a case
-------------
Append a :class:`Case` to :data:`CASES` (or to the list of its group below): a stable
``id``, the ``group`` and ``what`` (the bad input in words), the ``argv`` of the
``chatmatch`` command (run in a fresh folder holding ``files`` and a finished run ``run/``),
the text ``expect`` the message must hold (``re:...`` for a regular expression), the
``exit`` status, and where needed ``setup`` (prepare the folder), ``fault`` (a name from
:data:`FAULTS`, active while the command runs), ``check`` (what must hold afterwards, e.g.
a user file unchanged) and ``issue`` (the item of the issue it comes from). Then run
``--write-docs`` and commit the table with the case. Cases for the HTTP adapter's secrets
(issue 14, items 4 and 5) and for the memory of the similarity code (item 8) belong in
:data:`LATER_CASES` (empty here: the engineers rewriting that code add them).
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import click
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs" / "appendix" / "reliability-corpus.md"
BEGIN, END = "<!-- corpus:begin (generated: python -m tests.reliability.corpus --write-docs) -->", \
    "<!-- corpus:end -->"

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


def _laughs(indent: str, depth: int = 9) -> str:
    """Anchors l0..l8, each a list of nine aliases of the one before: 9^9 values."""
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, depth):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "".join(f"{indent}{x}\n" for x in lines)


def _billion_laughs() -> str:
    return "scoring:\n  params:\n    diversity:\n" + _laughs("      ") + BOTS


@dataclass(frozen=True)
class Case:
    id: str  # stable, unique: the pytest id and the docs row
    group: str
    what: str  # the bad input, in words
    argv: tuple[str, ...]  # the chatmatch command line, run in the case's folder
    expect: str  # text the message holds ("re:" + a regular expression)
    exit: int = 2
    files: dict[str, str | bytes] = field(default_factory=dict)
    setup: Callable[[Path], None] | None = None  # prepares the folder (after ``files``)
    fault: str | None = None  # a name in FAULTS, active while the command runs
    check: Callable[[Path], None] | None = None  # must hold afterwards
    input: str | None = None  # stdin
    env: dict[str, str] = field(default_factory=dict)  # extra environment ("{work}": the folder)
    process: bool = False  # a real ``python -m chatmatch`` process (signals)
    issue: str = ""  # where it comes from, e.g. "14.2"

    def matches(self, text: str) -> bool:
        if self.expect.startswith("re:"):
            return re.search(self.expect[3:], text) is not None
        return self.expect in text


# --- setups and checks ----------------------------------------------------------------------
def _copy_run(dst: str = "mine") -> Callable[[Path], None]:
    """A private copy of the finished run (``run`` itself is shared by every case)."""
    def setup(work: Path) -> None:
        shutil.copytree(work / "run", work / dst, symlinks=False)
    return setup


def _then(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(work: Path) -> None:
        for s in steps:
            s(work)
    return setup


def _rm(rel: str) -> Callable[[Path], None]:
    def step(work: Path) -> None:
        p = work / rel
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    return step


def _mkdir(rel: str) -> Callable[[Path], None]:
    return lambda work: (work / rel).mkdir(parents=True)


def _write_file(rel: str, text: str) -> Callable[[Path], None]:
    return lambda work: (work / rel).write_text(text, encoding="utf-8")


def _append(rel: str, text: str) -> Callable[[Path], None]:
    def step(work: Path) -> None:
        with open(work / rel, "a", encoding="utf-8") as fh:
            fh.write(text)
    return step


def _edit_json(rel: str, edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def step(work: Path) -> None:
        p = work / rel
        doc = json.loads(p.read_text(encoding="utf-8"))
        edit(doc)
        p.write_text(json.dumps(doc), encoding="utf-8")
    return step


def _swap_players_of_g001(work: Path) -> None:
    p = work / "mine" / "transcripts" / "g001.jsonl"
    lines = p.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["players"] = head["players"][::-1]
    a, b = head["players"]
    turns = [json.loads(x) for x in lines[1:]]
    for t in turns:
        t["speaker"] = a if t["speaker"] == b else b
    p.write_text("\n".join(json.dumps(x) for x in [head, *turns]) + "\n", encoding="utf-8")


def _sparse_file(rel: str, size: int) -> Callable[[Path], None]:
    def step(work: Path) -> None:
        with open(work / rel, "wb") as fh:
            fh.truncate(size)  # sparse: no disk used
    return step


def _unchanged(rel: str) -> Callable[[Path], None]:
    """The file the case wrote is still there, byte for byte and with its mode."""
    def check(work: Path) -> None:
        p = work / rel
        orig = work.parent / "orig" / rel
        assert p.read_bytes() == orig.read_bytes(), f"{rel} was changed"
        assert p.stat().st_mode == orig.stat().st_mode, f"mode of {rel} changed"
        assert not (work / "manifest.json").exists() and not (work / "transcripts").exists()
    return check


def _no_run(rel: str) -> Callable[[Path], None]:
    def check(work: Path) -> None:
        assert not (work / rel / "manifest.json").exists(), f"{rel} was written"
    return check


def _exists(rel: str) -> Callable[[Path], None]:
    def check(work: Path) -> None:
        assert (work / rel).exists(), f"{rel} is missing"
    return check


def _resume_equals_reference(rel: str) -> Callable[[Path], None]:
    """Run the same command again without the fault: the run finishes and equals the
    uninterrupted reference run (``run/``)."""
    def check(work: Path) -> None:
        from tests.reliability.helpers import run_contents

        res = _invoke(("run", "good.yaml", "--out", rel, "-q"), work)
        assert res.exit_code == 0, res.output
        assert run_contents(work / rel, timings=False) == run_contents(work / "run", timings=False)
    return check


# --- faults ---------------------------------------------------------------------------------
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


@contextmanager
def _patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


@contextmanager
def _read_only(work: Path, base: Path) -> Iterator[None]:
    """Every write under the case's folder (and the shared run it links to) fails with
    EROFS, as on a read-only mount (tests may run as root, where chmod stops nothing)."""
    root = str(base.resolve())
    real_open, real_os_open, real_mkdir = builtins.open, os.open, os.mkdir

    def inside(path: Any) -> bool:
        try:
            return os.path.realpath(os.fspath(path)).startswith(root)
        except TypeError:
            return False

    def deny(path: Any) -> OSError:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))

    def fake_open(file: Any, mode: str = "r", *a: Any, **kw: Any) -> Any:
        if isinstance(file, (str, bytes, os.PathLike)) and set(mode) & set("wax+") and inside(file):
            raise deny(file)
        return real_open(file, mode, *a, **kw)

    def fake_os_open(path: Any, flags: int, *a: Any, **kw: Any) -> int:
        if flags & _WRITE_FLAGS and inside(path):
            raise deny(path)
        return real_os_open(path, flags, *a, **kw)

    def fake_mkdir(path: Any, *a: Any, **kw: Any) -> None:
        if inside(path) and not os.path.isdir(path):
            raise deny(path)
        return real_mkdir(path, *a, **kw)

    with ExitStack() as stack:
        for obj, name, value in ((builtins, "open", fake_open), (io, "open", fake_open),
                                 (os, "open", fake_os_open), (os, "mkdir", fake_mkdir)):
            stack.enter_context(_patched(obj, name, value))
        yield


@contextmanager
def _disk_full(work: Path, base: Path, after: int = 14) -> Iterator[None]:
    """``fsync`` fails with ENOSPC after ``after`` calls: the disk fills up in the middle
    of a run (after the config, the manifest and three games are saved)."""
    real = os.fsync
    calls = [0]

    def fake(fd: int) -> None:
        calls[0] += 1
        if calls[0] > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    with _patched(os, "fsync", fake):
        yield


@contextmanager
def _terminal(work: Path, base: Path) -> Iterator[None]:
    import chatmatch.cli.run as run_cmd

    with _patched(run_cmd, "stdin_is_terminal", lambda: True):
        yield


FAULTS: dict[str, Callable[[Path, Path], Any]] = {
    "read-only folder": _read_only,
    "disk full mid-run": _disk_full,
    "stdin is a terminal": _terminal,
}


# --- the cases ------------------------------------------------------------------------------
def _yaml(id: str, what: str, text: str | bytes, expect: str, issue: str = "", **kw: Any) -> Case:
    return Case(id, "tournament YAML", what, ("run", "t.yaml", "--out", "new"), expect,
                files={"t.yaml": text}, issue=issue, check=_no_run("new"), **kw)


def _log(id: str, what: str, name: str, content: str | bytes, expect: str, issue: str = "",
         **kw: Any) -> Case:
    return Case(id, "transcript file (score)", what, ("score", "--strict", name), expect,
                files={name: content}, issue=issue, **kw)


def _human(id: str, what: str, name: str, content: str, expect: str, issue: str = "") -> Case:
    return Case(id, "human ranking file", what, ("compare", "run", "--human", name), expect,
                files={name: content}, issue=issue)


def _slow_yaml(bots: int = 3) -> str:
    lines = ["name: slow", "exchanges: 4", "concurrent_games: 1", "bots:"]
    for i in range(bots):
        lines += [f"  - name: bot{i}", "    adapter: tests.scripted:SamplingBot",
                  "    params: {sleep_ms: 40}"]
    return "\n".join(lines) + "\nscoring: {dimensions: [proactivity]}\n"


def _many_bots(n: int) -> str:
    return "scoring: {dimensions: [proactivity]}\nbots:\n" + "".join(
        f"  - {{name: b{i}, adapter: echo}}\n" for i in range(n))


YAML_CASES: list[Case] = [
    Case("yaml-missing", "tournament YAML", "file does not exist", ("run", "nope.yaml"),
         "nope.yaml: file not found"),
    Case("yaml-directory", "tournament YAML", "a directory instead of a file", ("run", "run"),
         "File 'run' is a directory"),
    _yaml("yaml-latin1", "not UTF-8 (Latin-1 bytes)", GOOD.replace("demo", "d\xe9mo").encode("latin-1"),
          "not UTF-8 text"),
    _yaml("yaml-empty", "empty file", "", "the file is empty"),
    _yaml("yaml-unclosed", "syntax: unclosed bracket", "bots: [a, b\n", "invalid YAML"),
    _yaml("yaml-tab", "syntax: tab indentation", "bots:\n\t- eliza\n", "invalid YAML"),
    _yaml("yaml-dup-key", "a key given twice", "exchanges: 2\nexchanges: 3\n" + BOTS,
          "key 'exchanges' appears twice"),
    _yaml("yaml-python-tag", "a Python tag (unsafe YAML)", "bots: !!python/object/apply:os.system [ls]\n",
          "invalid YAML"),
    _yaml("yaml-scalar", "top level is a scalar", "hello\n", "must hold a mapping"),
    _yaml("yaml-no-bots", "no bots", "name: x\n", "missing required key 'bots'"),
    _yaml("yaml-one-bot", "only one bot", "bots: [eliza]\n", "at least 2 bots"),
    _yaml("yaml-misspelt", "misspelt key", "exchange: 3\n" + BOTS,
          "unknown key 'exchange'; did you mean 'exchanges'?"),
    _yaml("yaml-wrong-type", "wrong type", "exchanges: many\n" + BOTS, "exchanges: Input should be a valid integer"),
    _yaml("yaml-out-of-range", "value out of range", "exchanges: 0\n" + BOTS,
          "exchanges: Input should be greater than or equal to 1"),
    _yaml("yaml-adapter-typo", "unknown adapter (typo)", "bots: [eliza, elisa]\n", "Did you mean: eliza?"),
    _yaml("yaml-adapter-import", "adapter import path that does not exist",
          BOTS.replace("tests.scripted:CountingBot", "nosuch.mod:Bot", 1), "bots.0"),
    _yaml("yaml-adapter-param", "unknown adapter parameter", BOTS + "    params: {colour: red}\n", "colour"),
    _yaml("yaml-dup-bot", "duplicate bot name", "bots: [eliza, eliza]\n", "duplicate bot name 'eliza'"),
    _yaml("yaml-bot-slash", "bot name with a slash", "bots:\n  - {name: a/b, adapter: eliza}\n  - eliza\n",
          "must not contain slashes"),
    _yaml("yaml-empty-seed", "empty seed utterance", "seed_utterance: ' '\n" + BOTS,
          "seed utterances must be non-empty"),
    _yaml("yaml-dimension", "unknown scoring dimension", "scoring: {dimensions: [fluency, witt]}\n" + BOTS, "witt"),
    _yaml("yaml-neg-weight", "negative dimension weight", "scoring: {weights: {fluency: -1}}\n" + BOTS, "weights"),
    _yaml("yaml-ranking-method", "unknown ranking method", "ranking: {method: trueskil}\n" + BOTS,
          "Unknown ranking method 'trueskil'"),
    _yaml("yaml-points-order", "points win < tie", "ranking: {points: {win: 0, tie: 1}}\n" + BOTS,
          "need win >= tie >= loss"),
    _yaml("yaml-api-key", "API key written in the YAML",
          BOTS.replace("CountingBot\n", "CountingBot\n    params: {api_key: sk-123}\n", 1),
          "a secret written in the YAML is refused"),
    # issue 14
    _yaml("yaml-billion-laughs", "'billion laughs': aliases nested 9 deep (10^9 values)", _billion_laughs(),
          "expand this document beyond 100000 values", "14.6"),
    _yaml("yaml-recursive-alias", "an alias inside its own anchor", "bots: &a [eliza, *a]\n",
          "recursive structure", "14.6"),
    _yaml("yaml-deep", "lists nested 10,000 deep", "bots: " + "[" * 10_000 + "]" * 10_000 + "\n",
          "t.yaml:1: nested more than 100 levels deep", "14.9"),
    _yaml("yaml-list-key", "a list as a key", "? [a, b]\n: 1\n" + BOTS, "t.yaml:1: a key must be plain text",
          "14.9"),
    _yaml("yaml-sigma-0", "TrueSkill sigma: 0", "ranking: {trueskill: {sigma: 0}}\n" + BOTS,
          "ranking.trueskill.sigma: Input should be greater than 0", "14.10"),
    _yaml("yaml-sigma-neg", "TrueSkill sigma: -1", "ranking: {trueskill: {sigma: -1}}\n" + BOTS,
          "ranking.trueskill.sigma: Input should be greater than 0", "14.10"),
    _yaml("yaml-sigma-nan", "TrueSkill sigma: .nan", "ranking: {trueskill: {sigma: .nan}}\n" + BOTS,
          "ranking.trueskill.sigma: Input should be a finite number", "14.10"),
    _yaml("yaml-elo-inf", "elo.k: .inf", "ranking: {elo: {k: .inf}}\n" + BOTS,
          "ranking.elo.k: Input should be a finite number", "14.10"),
    _yaml("yaml-scorer-nan", "a scorer parameter .nan", "scoring: {params: {diversity: {sigma_r: .nan}}}\n" + BOTS,
          "scoring.params.diversity.sigma_r: scorer 'diversity': bad parameters: parameter "
          "'sigma_r' must be a number, got nan (input should be a finite number)", "14.10"),
    _yaml("yaml-bool-exchanges", "exchanges: true", "exchanges: true\n" + BOTS,
          "exchanges: expected a number, got true (a boolean)", "14.12"),
    _yaml("yaml-bool-weight", "a weight given as true", "scoring: {weights: {proactivity: true}}\n" + BOTS,
          "scoring.weights: expected a number, got true", "14.12"),
    _yaml("yaml-bool-seed", "seed: false", "seed: false\n" + BOTS, "seed: expected a number, got false", "14.12"),
    _yaml("yaml-max-chars", "failures.max_chars: 10,000,000", "failures: {max_chars: 10000000}\n" + BOTS,
          "failures.max_chars: Input should be less than or equal to 100000", "14.9"),
    Case("yaml-name-dotdot", "tournament YAML", "name: '..' and no --out (runs/.. is the project folder)",
         ("run", "t.yaml"), "name '..' must be a plain name", files={"t.yaml": "name: '..'\n" + BOTS},
         issue="14.2", check=_no_run(".")),
    _yaml("yaml-name-slash", "name with a path separator", "name: ../../etc\n" + BOTS,
          "name '../../etc' must be a plain name", "14.2"),
]

RUN_DIR_CASES: list[Case] = [
    Case("run-changed-bot", "run directory", "resume with a kept bot's params changed",
         ("run", "t.yaml", "--out", "run"),
         "holds a run of another tournament setup (changed: bots: changed adapter or params of dull",
         files={"t.yaml": GOOD.replace("{style: dull}", "{style: plain}")}),
    Case("run-more-exchanges", "run directory", "resume with more exchanges", ("run", "t.yaml", "--out", "run"),
         "(changed: exchanges 2 -> 3)", files={"t.yaml": GOOD.replace("exchanges: 2", "exchanges: 3")}),
    Case("run-not-a-run", "run directory", "rank a folder that is not a run", ("rank", "."),
         "not a chatmatch run directory"),
    Case("run-bad-manifest", "run directory", "rank a run whose manifest is damaged", ("rank", "broken"),
         "unreadable manifest", files={"broken/manifest.json": "{not json", "broken/config.yaml": GOOD}),
    Case("run-no-game", "run directory", "show a game that does not exist", ("show", "run", "g999"), "g999"),
    # issue 14, item 1
    Case("run-manifest-deleted-other-exchanges", "run directory",
         "manifest.json deleted, then a tournament with other exchanges", ("run", "t.yaml", "--out", "mine"),
         "mine holds a run of another tournament setup (changed: exchanges 2 -> 3)",
         files={"t.yaml": GOOD.replace("exchanges: 2", "exchanges: 3")},
         setup=_then(_copy_run(), _rm("mine/manifest.json")), check=_no_run("mine"), issue="14.1"),
    Case("run-manifest-deleted-other-bots", "run directory",
         "manifest.json deleted, then a tournament with other bots", ("run", "t.yaml", "--out", "mine"),
         "(changed: bots: added eliza2",
         files={"t.yaml": GOOD.replace("  - eliza\n", "  - eliza\n  - {name: eliza2, adapter: eliza}\n")},
         setup=_then(_copy_run(), _rm("mine/manifest.json")), check=_no_run("mine"), issue="14.1"),
    Case("run-manifest-deleted-same", "run directory",
         "manifest.json deleted, then the same tournament (manifest rebuilt, games re-scored)",
         ("run", "good.yaml", "--out", "mine", "-q"), "0 game(s) played and 6 scored now", exit=0,
         setup=_then(_copy_run(), _rm("mine/manifest.json")), check=_exists("mine/manifest.json"),
         issue="14.1"),
    Case("run-manifest-and-config-deleted", "run directory",
         "manifest.json and config.yaml deleted", ("run", "good.yaml", "--out", "mine"),
         "is not a chatmatch run directory (no manifest.json)",
         setup=_then(_copy_run(), _rm("mine/manifest.json"), _rm("mine/config.yaml")),
         check=_no_run("mine"), issue="14.1"),
    Case("run-foreign-transcript", "run directory",
         "a transcript of another tournament (players swapped) with a valid manifest",
         ("run", "good.yaml", "--out", "mine"), "mine: transcripts/g001.jsonl is dull vs rich",
         setup=_then(_copy_run(), _swap_players_of_g001), issue="14.1"),
    # item 2
    Case("run-out-dot-user-config", "run directory",
         "--out . in a folder holding the user's own config.yaml", ("run", "config.yaml", "--out", "."),
         "and is not a chatmatch run directory (no manifest.json)",
         files={"config.yaml": GOOD}, check=_unchanged("config.yaml"), issue="14.2"),
    Case("run-out-nonempty", "run directory", "--out a folder of other files",
         ("run", "good.yaml", "--out", "docs"), "docs: the folder is not empty (notes.txt)",
         files={"docs/notes.txt": "mine\n"}, check=_no_run("docs"), issue="14.2"),
    Case("run-output-dir-tilde", "run directory", "output_dir: ~/runs/t (expanded, not a folder named '~')",
         ("run", "t.yaml", "-q"), "Results: runs/t", exit=0,
         files={"t.yaml": GOOD + "output_dir: ~/runs/t\n"}, env={"HOME": "{work}"},
         check=_then(_exists("runs/t/manifest.json"), lambda w: _absent(w / "~")), issue="14.2"),
    # item 3
    Case("run-failures-changed", "run directory", "resume with failures.max_chars changed",
         ("run", "t.yaml", "--out", "run"), "the 'failures' settings changed (max_chars 2000 -> 12)",
         files={"t.yaml": GOOD + "failures: {max_chars: 12}\n"}, issue="14.3"),
    Case("run-failures-changed-allowed", "run directory",
         "the same, with --allow-failures-change (recorded in the manifest)",
         ("run", "t.yaml", "--out", "mine", "--allow-failures-change", "-q"), "0 game(s) played", exit=0,
         files={"t.yaml": GOOD + "failures: {max_chars: 12}\n"}, setup=_copy_run(),
         check=lambda w: _assert("failures_changed" in (w / "mine" / "manifest.json").read_text()),
         issue="14.3"),
    # item 11
    Case("run-out-is-file", "run directory", "output_dir is a file", ("run", "t.yaml"),
         "afile: is a file, not a folder", files={"t.yaml": GOOD + "output_dir: afile\n", "afile": "x\n"},
         issue="14.11"),
    Case("run-out-proc", "run directory", "output_dir under /proc", ("run", "t.yaml"),
         "/proc/chatmatch-run: cannot create the run directory",
         files={"t.yaml": GOOD + "output_dir: /proc/chatmatch-run\n"}, issue="14.11"),
    Case("run-results-is-dir", "run directory", "results.jsonl is a folder", ("run", "good.yaml", "--out", "mine"),
         "mine/results.jsonl: must be a file of the run, but is a folder",
         setup=_then(_copy_run(), _rm("mine/results.jsonl"), _mkdir("mine/results.jsonl")), issue="14.11"),
    Case("run-results-is-dir-rank", "run directory", "results.jsonl is a folder (rank)", ("rank", "mine"),
         "mine/results.jsonl: must be a file of the run, but is a folder",
         setup=_then(_copy_run(), _rm("mine/results.jsonl"), _mkdir("mine/results.jsonl")), issue="14.11"),
    Case("run-lock-is-dir", "run directory", ".lock is a folder", ("run", "good.yaml", "--out", "mine"),
         "mine/.lock: must be a file of the run, but is a folder",
         setup=_then(_copy_run(), _rm("mine/.lock"), _mkdir("mine/.lock")), issue="14.11"),
    Case("run-transcripts-is-file", "run directory", "transcripts is a file", ("run", "good.yaml", "--out", "mine"),
         "mine/transcripts: must be a folder of the run, but is a file",
         setup=_then(_copy_run(), _rm("mine/transcripts"), _write_file("mine/transcripts", "x")),
         issue="14.11"),
    Case("run-results-deep-line", "run directory", "a result line nested 100,000 deep (rank)", ("rank", "mine"),
         "mine/results.jsonl:7: ignored a damaged result line", exit=0,
         setup=_then(_copy_run(), _append("mine/results.jsonl", "[" * 100_000 + "]" * 100_000 + "\n")),
         issue="14.9"),
    Case("run-bots-described-list", "run directory", "'bots_described' a list in the manifest",
         ("run", "good.yaml", "--out", "mine"), "'bots_described' must be a JSON object",
         setup=_then(_copy_run(), _edit_json("mine/manifest.json",
                                             lambda m: m.update(bots_described=["eliza"]))), issue="14.11"),
]

FAULT_CASES: list[Case] = [
    Case("fault-readonly-run", "fault", "read-only run directory: run (resume)", ("run", "good.yaml", "--out", "run"),
         "re:run/\\S+: cannot write \\(Read-only file system\\); the file system is read-only",
         fault="read-only folder", issue="14.11"),
    Case("fault-readonly-new-run", "fault", "read-only folder: run into a new run directory",
         ("run", "good.yaml", "--out", "new"), "new: cannot create the run directory (Read-only file system)",
         fault="read-only folder", issue="14.11"),
    Case("fault-readonly-rank-save", "fault", "read-only run directory: rank --save", ("rank", "run", "--save"),
         "run/rankings/trueskill.json: cannot write (Read-only file system)", fault="read-only folder",
         issue="14.11"),
    Case("fault-readonly-report", "fault", "read-only run directory: report", ("report", "run"),
         "run/report.html: cannot write (Read-only file system)", fault="read-only folder", issue="14.11"),
    Case("fault-readonly-plot", "fault", "read-only run directory: plot", ("plot", "run"),
         "re:run/plots\\S*: cannot (read or write it|write|create the folder) \\(Read-only file system\\)",
         fault="read-only folder", issue="14.11"),
    Case("fault-disk-full", "fault", "disk full in the middle of a run (then resumed without the fault)",
         ("run", "good.yaml", "--out", "new"),
         "re:new/\\S+: cannot write \\(No space left on device\\); free some disk space and run the same "
         "command again", fault="disk full mid-run", check=_resume_equals_reference("new"), issue="14.11"),
    Case("fault-sigterm", "fault", "SIGTERM while playing", ("run", "slow.yaml", "--out", "new", "-q"),
         "terminated (SIGTERM); finished games are saved", exit=143, files={"slow.yaml": _slow_yaml()},
         process=True, issue="14.12"),
    Case("fault-many-games-terminal", "fault", "46 bots in a round-robin (2,070 games) started from a terminal, answer no",
         ("run", "t.yaml", "--out", "new"), "Start 2,070 games? (--yes skips this question)", exit=1,
         files={"t.yaml": "schedule: {method: round-robin}\n" + _many_bots(46)}, fault="stdin is a terminal", input="n\n",
         check=_no_run("new"), issue="14.13"),
    Case("run-count-printed", "fault", "not a terminal: the count and estimate are printed, then it plays",
         ("run", "good.yaml", "--out", "new", "-q"), "re:6 game\\(s\\) to play \\(18 bot turns\\); under a minute at",
         exit=0, issue="14.13"),
]

COMMAND_LINE_CASES: list[Case] = [
    Case("cli-unknown-command", "command line", "unknown subcommand", ("rnu",), "No such command 'rnu'"),
    Case("cli-missing-arg", "command line", "missing argument", ("run",), "Missing argument 'CONFIG_FILE'"),
    Case("cli-unknown-option", "command line", "unknown option", ("run", "t.yaml", "--fast"),
         "No such option '--fast'", files={"t.yaml": GOOD}),
    Case("cli-out-is-file", "command line", "--out is a file", ("run", "t.yaml", "--out", "t.yaml"), "is a file",
         files={"t.yaml": GOOD}),
    Case("cli-rank-method", "command line", "unknown ranking method", ("rank", "run", "--method", "pointz"),
         "Did you mean: points?"),
    Case("cli-points", "command line", "malformed --points", ("rank", "run", "--points", "3-1"), "expected W/T/L"),
    Case("cli-shuffles-0", "command line", "--shuffles 0", ("rank", "run", "--shuffles", "0"),
         "0 is not in the range"),
    Case("cli-seed-nan", "command line", "--seed not a number", ("rank", "run", "--seed", "abc"),
         "'abc' is not a valid integer"),
]

HUMAN_CASES: list[Case] = [
    _human("human-unknown-bot", "unknown bot", "h.yaml", "ranking: {rich: 1, zorro: 2}\n", "unknown bot 'zorro'"),
    _human("human-dup-yaml", "duplicate bot (YAML)", "h.yaml", "ranking:\n  rich: 1\n  rich: 2\n  dull: 3\n",
           "duplicate"),
    _human("human-dup-csv", "duplicate bot (CSV)", "h.csv", "bot,rank\nrich,1\nrich,2\ndull,3\n",
           "duplicate bot 'rich'"),
    _human("human-rank-nan", "rank is not a number", "h.csv", "bot,rank\nrich,first\ndull,2\n", "expected a number"),
    _human("human-no-rank", "a bot without a rank", "h.yaml", "ranking:\n  rich: 1\n  dull:\n  eliza: 3\n", "h.yaml:3"),
    _human("human-file-type", "unknown file type", "h.txt", "rich 1\n", "unknown file type"),
    _human("human-billion-laughs", "'billion laughs' aliases", "h.yaml",
           "ranking: {rich: 1, dull: 2}\nextra:\n" + _laughs("  "), "expand this document beyond", "14.6"),
    _human("human-deep", "nested 10,000 deep", "h.yaml", "ranking: " + "[" * 10_000 + "]" * 10_000 + "\n",
           "h.yaml:1: nested more than 100 levels deep", "14.9"),
]

_LONG_GAME = "".join(f"{'A' if i % 2 == 0 else 'B'}: turn {i}\n" for i in range(10_001))

LOG_CASES: list[Case] = [
    _log("log-latin1", "not UTF-8", "t.jsonl", GOOD_JSONL.replace("Paris", "P\xe4ris").encode("latin-1"),
         "not UTF-8 text"),
    _log("log-empty", "empty file", "t.txt", "\n\n", "t.txt: the file is empty"),
    _log("log-no-speaker-jsonl", "a turn without speaker (JSON Lines)", "t.jsonl",
         GOOD_JSONL.replace('"speaker": "B", ', "", 1), "t.jsonl:3: turn has no speaker"),
    _log("log-no-speaker-text", "a line without speaker (text)", "t.txt", "just words\nA: hi\nB: ok\n",
         "t.txt:1: expected 'SPEAKER: utterance'"),
    _log("log-one-speaker-text", "one speaker only (text)", "t.txt", "A: hi\nA: anyone?\n",
         "only one speaker ('A')"),
    _log("log-three-speakers", "three speakers (text)", "t.txt", "A: hi\nB: yo\nC: hey\n", "a third speaker 'C'"),
    _log("log-one-speaker-jsonl", "one speaker only (JSON Lines)", "t.jsonl",
         GOOD_JSONL.replace('"speaker": "B"', '"speaker": "A"'), "only one speaker"),
    _log("log-no-turns", "empty game (header, no turns)", "t.jsonl", GOOD_JSONL.splitlines()[0] + "\n", "no turns"),
    _log("log-unknown-speaker", "speaker not among players", "t.jsonl",
         GOOD_JSONL.replace('"speaker": "B"', '"speaker": "C"', 1), "not among players"),
    _log("log-not-json", "not JSON", "t.jsonl", '{"type": "game", "players": ["A", "B"]}\n{oops\n',
         "t.jsonl:2: not valid JSON"),
    _log("log-seconds", "'seconds' not a number", "t.jsonl",
         GOOD_JSONL.replace('"text": "Hi"', '"text": "Hi", "seconds": "soon"'), "turn 'seconds' must be a number"),
    _log("log-parlai-empty", "ParlAI episode without turns", "t.json", '{"dialog": []}\n',
         "t.json:1: the episode has no turns"),
    _log("log-parlai-no-text", "ParlAI act without text", "t.json",
         '{"dialog": [[{"id": "a"}, {"id": "b", "text": "x"}]]}\n', "every act needs an 'id' and a 'text' string"),
    # issue 14
    _log("log-huge-line", "one turn of 10 MB", "t.txt", "A: " + "x" * 10_000_000 + "\nB: ok\n",
         "t.txt: turn 1 has 10,000,000 characters, more than the 100,000", "14.9"),
    _log("log-long-game", "a game of 10,001 turns", "t.txt", _LONG_GAME,
         "t.txt: the game has 10,001 turns, more than the 10,000", "14.7"),
    Case("log-huge-file", "transcript file (score)", "a 300 MiB file (sparse)", ("score", "--strict", "big.txt"),
         "big.txt: the file has 300 MiB, more than the 256 MiB chatmatch reads", setup=_sparse_file("big.txt", 300 * 2**20),
         issue="14.7"),
    _log("log-deep-json", "JSON nested 100,000 deep", "t.jsonl", '{"a":' * 100_000 + "1" + "}" * 100_000 + "\n",
         "t.jsonl:1: JSON nested too deeply to read", "14.9"),
    _log("log-deep-json-turn", "a turn nested 100,000 deep", "t.jsonl",
         GOOD_JSONL.splitlines()[0] + '\n{"type": "turn", "text": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
         "t.jsonl:2: JSON nested too deeply to read", "14.9"),
    Case("log-skipped", "transcript file (score)", "without --strict: a bad file is skipped with a warning",
         ("score", "good.jsonl", "t.txt", "--config", "s.yaml"),
         "warning: skipped t.txt: turn 1 has 10,000,000 characters", exit=0,
         files={"good.jsonl": GOOD_JSONL, "t.txt": "A: " + "x" * 10_000_000 + "\nB: ok\n",
                "s.yaml": "scoring: {dimensions: [proactivity]}\n"}, issue="14.9"),
    Case("log-progress", "transcript file (score)", "what is scored is announced before scoring",
         ("score", "good.jsonl", "--config", "s.yaml"),
         "scoring 1 game(s), 4 turns, between 2 speaker(s) on 1 dimension(s)", exit=0,
         files={"good.jsonl": GOOD_JSONL, "s.yaml": "scoring: {dimensions: [proactivity]}\n"}, issue="14.7"),
    Case("log-out-nonempty", "transcript file (score)", "--out a folder that is not empty",
         ("score", "good.jsonl", "--out", "docs"), "docs already exists and is not empty",
         files={"good.jsonl": GOOD_JSONL, "docs/notes.txt": "x"}),
]

#: room for the cases of issue 14, items 4 and 5 (secrets in the HTTP adapter) and 8
#: (memory of the similarity code): add them here, with issue="14.4" etc.
def _http_bot(params: str) -> str:
    return ("exchanges: 2\nscoring: {dimensions: [proactivity]}\nbots:\n  - eliza\n"
            "  - name: remote\n    adapter: openai-chat\n"
            f"    params: {{model: m, {params}}}\n")


def _long_repetitive_log(turns: int) -> str:
    return "".join("A: Where are you from?\n" if i % 2 == 0 else "B: I am from Chicago.\n"
                   for i in range(turns))


LATER_CASES: list[Case] = [
    _yaml("secret-base-url-userinfo", "an API key as the password in base_url",
          _http_bot("base_url: 'http://user:sk-abc123@127.0.0.1:9/v1'"),
          "holds a user name or password", issue="14.5"),
    _yaml("secret-base-url-query", "an API key in base_url's query",
          _http_bot("base_url: 'http://127.0.0.1:9/v1?api_key=sk-abc123'"),
          "holds a secret in its query", issue="14.5"),
    _yaml("secret-header", "an Authorization header in extra_headers",
          _http_bot("base_url: 'http://127.0.0.1:9/v1', extra_headers: {Authorization: 'Bearer sk-abc123'}"),
          "a secret written in the YAML is refused", issue="14.5"),
    Case("long-game-linear-memory", "transcript file (score)",
         "a 3,000-turn game that repeats itself (similarities computed in blocks, memory linear in turns)",
         ("score", "--strict", "--config", "s.yaml", "long.txt"), "based on 1 game(s)", exit=0,
         files={"long.txt": _long_repetitive_log(3000),
                "s.yaml": "scoring: {dimensions: [diversity, consistency, proactivity]}\n"},
         issue="14.8"),
]

def _grown_league(work: Path) -> None:
    """lg/: a swiss league of 3 bots whose budget (4 games) is spent; b2.yaml adds a bot."""
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament

    budget = "schedule: {method: swiss, games: 4}\nranking: {method: points}\n"
    _write(work, {"b.yaml": GOOD + budget,
                  "b2.yaml": GOOD + "  - {name: added, adapter: echo}\n" + budget})
    run_tournament(load_config(work / "b.yaml"), work / "lg")


def _link(rel: str, target: str) -> Callable[[Path], None]:
    def step(work: Path) -> None:
        (work / rel).unlink()
        (work / rel).symlink_to(target)
    return step


_GHOST = {"adapter": "echo", "name": "ghost", "params": {}}

#: the leftovers of hardening round three (the re-check of stop 40, /work/notes/s40/recheck.md)
ROUND4_CASES: list[Case] = [
    Case("run-roster-reordered", "run directory", "manifest.json's bots (the roster) reordered by hand",
         ("run", "good.yaml", "--out", "mine"),
         "mine/manifest.json: its league record (roster, founders, retired) was edited",
         setup=_then(_copy_run(), _edit_json("mine/manifest.json", lambda m: m["bots"].reverse())),
         issue="N2"),
    Case("run-phantom-retired", "run directory", "a retired bot that never played added to manifest.json",
         ("rank", "mine"), "mine/manifest.json: its league record (roster, founders, retired) was edited",
         setup=_then(_copy_run(), _edit_json("mine/manifest.json", lambda m: m.update(
             roster=[*m["bots"], "ghost"], retired={"ghost": _GHOST}))), issue="N3"),
    Case("run-own-ranking-link", "run directory", "RUN/rankings/trueskill.json a link to a user's file",
         ("rank", "mine", "--save"), "move mine/rankings/trueskill.json away",
         files={"notes.txt": "mine\n"},
         setup=_then(_copy_run(), _link("mine/rankings/trueskill.json", "../../notes.txt")),
         check=_unchanged("notes.txt"), issue="N11"),
    Case("yaml-seed-file-key", "tournament YAML", "an API key in a seed CSV",
         ("run", "t.yaml", "--out", "new"), "s.csv:2: holds a word that looks like an API key",
         files={"t.yaml": GOOD + "seed_utterance: {file: s.csv}\n",
                "s.csv": "utterance\nuse sk-proj-AbCdEf0123456789AbCdEf0123 please\nhello\n"},
         check=lambda work: _absent(work / "new"), issue="N14"),
    Case("log-look-alike-speakers", "transcript file (score)", "'alice' in one log, 'ａｌｉｃｅ' in another",
         ("score", "--config", "s.yaml", "logs"), "'alice' speaks in logs/a.txt, 'ａｌｉｃｅ' in logs/b.txt",
         files={"logs/a.txt": "alice: hello\nbob: hi\n", "logs/b.txt": "ａｌｉｃｅ: hey\ncarol: hi\n",
                "s.yaml": "scoring: {dimensions: [proactivity]}\n"}, issue="N15"),
    Case("run-scores-folder-refused-first", "run directory", "scores/g001.json a folder (run)",
         ("run", "good.yaml", "--out", "mine"), "mine: scores/g001.json is a folder, not a regular file",
         setup=_then(_copy_run(), _rm("mine/scores/g001.json"), _mkdir("mine/scores/g001.json")),
         issue="2.11"),
    Case("run-scores-folder-footer", "run directory", "scores/g001.json a folder (rank's footer)",
         ("rank", "mine"), "until scores/g001.json is mended or moved out", exit=0,
         setup=_then(_copy_run(), _rm("mine/scores/g001.json"), _mkdir("mine/scores/g001.json")),
         issue="2.11"),
    Case("yaml-learned-model-bad", "tournament YAML", "scoring.params.learned.model not a model file",
         ("run", "t.yaml", "--out", "new"), "m.json: not a learned-judge model file",
         files={"t.yaml": GOOD.replace("[proactivity, specificity, diversity]}",
                                       "[learned], params: {learned: {model: m.json}}}"),
                "m.json": '{"format": "chatmatch-learned-judge/2"}'},
         check=lambda work: _absent(work / "new"), issue="r40"),
    Case("run-unplayed-bot-unranked", "run directory", "a bot added to a league whose budget is spent",
         ("run", "b2.yaml", "--out", "lg"), "re:^- +added ", exit=0, setup=_grown_league, issue="1.5"),
    Case("yaml-numeric-bot-name", "tournament YAML", "a bot named -1 (left-aligned, as text)",
         ("run", "t.yaml", "--out", "new"), "re:^[0-9]+=? {1,2}-1 ", exit=0,
         files={"t.yaml": GOOD + '  - {name: "-1", adapter: echo}\n'}, issue="r40"),
]

CASES: list[Case] = [*YAML_CASES, *RUN_DIR_CASES, *FAULT_CASES, *COMMAND_LINE_CASES, *HUMAN_CASES,
                     *LOG_CASES, *LATER_CASES, *ROUND4_CASES]


def _absent(p: Path) -> None:
    assert not p.exists(), f"{p} should not exist"


def _assert(cond: bool) -> None:
    assert cond


# --- running a case -------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    exit_code: int
    output: str
    exception: BaseException | None
    work: Path

    def message(self, case: Case) -> str:
        """The line of the output that the case is about (the one that matches, else the
        first error line), with the case's folder written as ``.``."""
        if self.exception is not None and not isinstance(self.exception, SystemExit):
            first = (str(self.exception).splitlines() or [""])[0]
            return f"TRACEBACK: {type(self.exception).__name__}: {first}"
        lines = [x.strip() for x in self.output.replace("\r", "\n").splitlines() if x.strip()]
        pick = next((x for x in lines if case.matches(_norm(x, self.work))), None) \
            or next((x for x in lines if x.startswith(("error:", "Error:"))), None) \
            or (lines[-1] if lines else "")
        return _norm(pick, self.work)


def _norm(text: str, work: Path) -> str:
    """The case's folder written as a relative path, wall times as N."""
    for w in {str(work), str(work.resolve())}:
        text = text.replace(w + os.sep, "").replace(w, "{work}")
    return re.sub(r"\bin \d+(\.\d+)? s\b", "in N s", text)


def _group() -> click.Group:
    from chatmatch.cli import cli

    return cli


def _invoke(argv: tuple[str, ...], work: Path, input: str | None = None,
            env: dict[str, str] | None = None) -> Any:
    old = os.getcwd()
    os.chdir(work)
    try:
        return CliRunner().invoke(_group(), list(argv), catch_exceptions=True, input=input, env=env)
    finally:
        os.chdir(old)


def _write(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        p = folder / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")


def make_base(folder: Path) -> None:
    """A finished run of GOOD in ``folder/run``."""
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament

    _write(folder, {"good.yaml": GOOD})
    run_tournament(load_config(folder / "good.yaml"), folder / "run")


def _run_process(case: Case, work: Path) -> Outcome:
    """A real process, sent SIGTERM once its first game is saved."""
    from tests.reliability.helpers import chatmatch_cmd, cli_env

    proc = subprocess.Popen(chatmatch_cmd(*case.argv), cwd=work, env=cli_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    out = work / case.argv[case.argv.index("--out") + 1] / "transcripts"
    while proc.poll() is None and time.monotonic() < deadline and not any(out.glob("*.jsonl")):
        time.sleep(0.01)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=60)
    return Outcome(proc.returncode, output, None, work)


def run_case(case: Case, base: Path) -> Outcome:
    with tempfile.TemporaryDirectory(dir=base) as d:
        work = Path(d).resolve() / "w"
        work.mkdir()
        os.symlink(base / "run", work / "run")
        shutil.copy(base / "good.yaml", work / "good.yaml")
        _write(work, case.files)
        _write(work.parent / "orig", case.files)  # what the user's files were, for checks
        if case.setup:
            case.setup(work)
        if case.process:
            out = _run_process(case, work)
        else:
            env = {k: v.replace("{work}", str(work)) for k, v in case.env.items()}
            with ExitStack() as stack:
                if case.fault:
                    stack.enter_context(FAULTS[case.fault](work, base))
                res = _invoke(case.argv, work, case.input, env or None)
            out = Outcome(res.exit_code, res.output, res.exception, work)
        if case.check and out.exit_code == case.exit:
            case.check(work)
        return out


def iter_outcomes(cases: list[Case] | None = None) -> Iterator[tuple[Case, Outcome]]:
    with tempfile.TemporaryDirectory(prefix="chatmatch-corpus-") as d:
        base = Path(d)
        make_base(base)
        for case in cases or CASES:
            yield case, run_case(case, base)


# --- the docs table -------------------------------------------------------------------------
HEADER = ["| id | issue | input | bad input or fault | command | exit | message |",
          "|---|---|---|---|---|---|---|"]


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("`", "'")
    return text if len(text) <= 300 else text[:297] + "..."


def row(case: Case, message: str, exit_code: int) -> str:
    fault = f" [fault: {case.fault}]" if case.fault else (" [SIGTERM]" if case.process else "")
    return (f"| {case.id} | {case.issue or '-'} | {case.group} | {_cell(case.what)}{fault} | "
            f"`chatmatch {_cell(' '.join(case.argv))}` | {exit_code} | `{_cell(message)}` |")


def table() -> str:
    rows = [row(c, o.message(c), o.exit_code) for c, o in iter_outcomes()]
    return "\n".join([*HEADER, *rows])


def docs_rows(text: str | None = None) -> dict[str, str]:
    """The generated rows of docs/appendix/reliability-corpus.md, by case id."""
    text = DOCS.read_text(encoding="utf-8") if text is None else text
    if BEGIN not in text or END not in text:
        return {}
    body = text.split(BEGIN, 1)[1].split(END, 1)[0]
    out = {}
    for line in body.splitlines():
        if line.startswith("| ") and not line.startswith(("| id |", "|---")):
            out[line.split("|")[1].strip()] = line
    return out


def write_docs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOCS}: markers {BEGIN!r} and {END!r} not found")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOCS.write_text(f"{head}{BEGIN}\n{table()}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    if "--write-docs" in sys.argv[1:]:
        write_docs()
        print(f"wrote {DOCS}")
    else:
        print(table())
