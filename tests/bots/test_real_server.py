"""``openai-chat`` against a real OpenAI-compatible server: ``transformers serve`` (from
``transformers[serving]``) on 127.0.0.1, serving a tiny Llama model that the test builds
(a word-level tokenizer and random weights: what is under test is the protocol, not the
model), offline. Its chat template is strict like Mistral's and Gemma's: it raises unless
the roles alternate user/assistant after an optional system message, so a game the HTTP
bot opens must be sent the way the adapter documents (seed in the system message)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

pytestmark = pytest.mark.slow

STRICT_TEMPLATE = (
    "{%- if messages[0]['role'] == 'system' %}{%- set system = messages[0]['content'] %}"
    "{%- set loop_messages = messages[1:] %}{%- else %}{%- set loop_messages = messages %}"
    "{%- endif %}"
    "{%- for message in loop_messages %}"
    "{%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{- raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
    "{%- endif %}"
    "{{- '<|im_start|> ' + message['role'] + ' ' + ((system + ' ') if loop.first and system "
    "is defined else '') + message['content'] + ' <|im_end|> ' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|> assistant ' }}{%- endif %}")

#: Gemma-style and stricter: no system role at all, user first, alternating
NO_SYSTEM_TEMPLATE = (
    "{%- for message in messages %}"
    "{%- if message['role'] == 'system' %}"
    "{{- raise_exception('System role not supported') }}{%- endif %}"
    "{%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{- raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
    "{%- endif %}"
    "{{- '<|im_start|> ' + message['role'] + ' ' + message['content'] + ' <|im_end|> ' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|> assistant ' }}{%- endif %}")

WORDS = ("i you we they it the a an and but so to of in on at for with my your what did do "
         "last week weekend went go swim swam lake park read book cooked dinner friends family "
         "walk walked talk talked yes no nice good great really maybe today yesterday "
         "user assistant system hello hi how are is was were . ? ! ,").split()


def build_model(folder: Path, template: str = STRICT_TEMPLATE) -> None:
    """A tiny causal LM with a word-level tokenizer and the strict template (seconds)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    specials = ["<unk>", "<|im_start|>", "<|im_end|>"]
    vocab = {w: i for i, w in enumerate(dict.fromkeys(specials + WORDS))}
    tk = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tk.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, unk_token="<unk>", bos_token="<|im_start|>",
                                  eos_token="<|im_end|>", pad_token="<|im_end|>")
    tok.chat_template = template
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=64,
                      num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                      max_position_embeddings=1024, bos_token_id=1, eos_token_id=2,
                      pad_token_id=2)
    LlamaForCausalLM(cfg).save_pretrained(folder)
    tok.save_pretrained(folder)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_up(url: str, proc: subprocess.Popen[bytes], limit_s: float = 120) -> None:
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            pytest.fail(f"transformers serve exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (its /models may fail without a hub cache)
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"transformers serve did not answer {url} within {limit_s:g} s")


def _start(root: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_CACHE": str(root / "hub"),
           "TRANSFORMERS_VERBOSITY": "error", "TQDM_DISABLE": "1"}
    cmd = [str(Path(sys.executable).parent / "transformers"), "serve", "--host", "127.0.0.1",
           "--port", str(port), "--default-seed", "0"]
    (root / "hub").mkdir(exist_ok=True)
    with open(root / f"serve-{port}.log", "ab") as log:
        return subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(base URL, strict model folder); the folder ``no-system`` beside it holds the same
    model with a template that refuses a system role."""
    pytest.importorskip("fastapi", reason="needs transformers[serving] (pip install -e '.[test]')")
    root = tmp_path_factory.mktemp("served")
    model = root / "tiny-chat"
    build_model(model)
    build_model(root / "no-system", NO_SYSTEM_TEMPLATE)
    port = _free_port()
    proc = _start(root, port)
    try:
        base = f"http://127.0.0.1:{port}/v1"
        _wait_up(f"{base}/models", proc)
        yield base, str(model)
    finally:
        _stop(proc)


def no_system(model: str) -> str:
    return str(Path(model).parent / "no-system")


def _post(base: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(f"{base}/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_the_template_is_strict(served: tuple[str, str]) -> None:
    base, model = served
    ok, _ = _post(base, {"model": model, "max_tokens": 3, "temperature": 0,
                         "messages": [{"role": "system", "content": "hi"},
                                      {"role": "user", "content": "hello"}]})
    bad, _ = _post(base, {"model": model, "max_tokens": 3, "temperature": 0,  # the old opener
                          "messages": [{"role": "assistant", "content": "what did you do ?"},
                                       {"role": "user", "content": "i swam ."}]})
    assert ok == 200 and bad >= 400


def test_tournament_through_a_real_server(served: tuple[str, str], tmp_path: Path) -> None:
    from chatmatch.config import load_config
    from chatmatch.runner import run_tournament
    from chatmatch.store import RunDir

    base, model = served
    cfg = tmp_path / "t.yaml"
    cfg.write_text(json.dumps({  # JSON is YAML
        "name": "served", "exchanges": 2, "seed": 5,
        "seed_utterance": "What did you do last week?",
        "failures": {"timeout_s": 60},
        "bots": [{"name": "served", "adapter": "openai-chat",
                  "params": {"base_url": base, "model": model, "temperature": 0.0,
                             "max_tokens": 8, "persona": "You are a friendly person.",
                             "timeout_s": 60}},
                 {"name": "eliza", "adapter": "eliza"}],
        "scoring": {"dimensions": ["proactivity", "specificity", "diversity"]}}))
    summary = run_tournament(load_config(cfg), tmp_path / "run", config_file=str(cfg))
    assert summary.games_played == 2 and summary.forfeits == []
    games = RunDir(tmp_path / "run").transcripts().values()
    starters = {tr.turns[0].speaker for tr in games}
    assert starters == {"served", "eliza"}  # one game opened by the HTTP bot
    for tr in games:
        said = [t.text for t in tr.turns_of("served") if not t.seed]
        assert said and all(s.strip() for s in said), tr.turns


def _tournament(tmp_path: Path, bots: list[dict], **extra: object) -> Path:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(json.dumps({  # JSON is YAML
        "name": "served", "exchanges": 2, "seed": 5,
        "seed_utterance": "What did you do last week?", "failures": {"timeout_s": 120},
        "bots": bots, "scoring": {"dimensions": ["proactivity", "diversity"]}, **extra}))
    return cfg


def _http_bot(name: str, base: str, model: str, **params: object) -> dict:
    return {"name": name, "adapter": "openai-chat",
            "params": {"base_url": base, "model": model, "temperature": 0.0, "max_tokens": 8,
                       "timeout_s": 60, "retries": 0, **params}}


def test_a_template_with_no_system_role(served: tuple[str, str], tmp_path: Path) -> None:
    """The default opening (the seed at the head of the first user message) and
    persona_role: user play every game; the old opening (a system message) cannot."""
    from chatmatch.config import load_config
    from chatmatch.runner import run_tournament

    base, model = served
    ok = _tournament(tmp_path, [_http_bot("served", base, no_system(model), persona_role="user",
                                          persona="You are a friendly person."), "eliza"])
    summary = run_tournament(load_config(ok), tmp_path / "ok")
    assert summary.games_played == 2 and summary.forfeits == []
    old = _tournament(tmp_path, [_http_bot("served", base, no_system(model), opening="system"),
                                 "eliza"])
    summary = run_tournament(load_config(old), tmp_path / "old")
    assert [f.bot for f in summary.forfeits] == ["served"]  # the game it opened
