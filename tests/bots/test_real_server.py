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
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament
    from chatmatch.rundir.store import RunDir

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


def _tournament(tmp_path: Path, bots: list, **extra: object) -> Path:
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
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament

    base, model = served
    ok = _tournament(tmp_path, [_http_bot("served", base, no_system(model), persona_role="user",
                                          persona="You are a friendly person."), "eliza"])
    summary = run_tournament(load_config(ok), tmp_path / "ok")
    assert summary.games_played == 2 and summary.forfeits == []
    old = _tournament(tmp_path, [_http_bot("served", base, no_system(model), opening="system"),
                                 "eliza"])
    summary = run_tournament(load_config(old), tmp_path / "old")
    assert [f.bot for f in summary.forfeits] == ["served"]  # the game it opened


def test_a_cut_reply_is_trimmed_only_because_it_was_cut(served: tuple[str, str]) -> None:
    """max_tokens 3: the real server says finish_reason length; the bot counts it."""
    from chatmatch.adapters import create_bot
    from chatmatch.bot import History, Message

    base, model = served
    status, body = _post(base, {"model": model, "max_tokens": 3, "temperature": 0,
                                "messages": [{"role": "user", "content": "hello"}]})
    assert status == 200 and json.loads(body)["choices"][0]["finish_reason"] == "length"
    bot = create_bot("b", "openai-chat", {"base_url": base, "model": model, "max_tokens": 3,
                                          "temperature": 0.0, "retries": 0})
    bot.load()
    try:
        reply = bot.reply(History((Message("partner", "hello"),), "hello", "g1", 1, 1))
    finally:
        bot.close()
    assert bot.counts["cut_replies"] == 1  # type: ignore[attr-defined]
    assert reply.strip() and not reply.endswith("'")


def test_a_wrong_model_name_is_refused_by_the_preflight(served: tuple[str, str]) -> None:
    from chatmatch.adapters import create_bot
    from chatmatch.errors import BotError

    base, model = served
    bot = create_bot("b", "openai-chat", {"base_url": base, "model": model + "-typo",
                                          "retries": 0, "preflight_timeout_s": 60})
    with pytest.raises(BotError, match=r"model '.*-typo' cannot be used"):
        bot.preflight()  # type: ignore[attr-defined]
    create_bot("b", "openai-chat", {"base_url": base, "model": model}).preflight()  # type: ignore[attr-defined]


def test_a_server_restart_costs_retries_not_the_game(served: tuple[str, str],
                                                     tmp_path: Path) -> None:
    """A second server is stopped after the bot loaded and started again on the same
    port while the bot retries."""
    import threading

    from chatmatch.adapters import create_bot
    from chatmatch.bot import History, Message

    _, model = served
    port = _free_port()
    base = f"http://127.0.0.1:{port}/v1"
    proc = _start(tmp_path, port)
    procs = [proc]
    try:
        _wait_up(f"{base}/models", proc)
        bot = create_bot("b", "openai-chat", {"base_url": base, "model": model, "max_tokens": 4,
                                              "retries": 8, "backoff_s": 1.0,
                                              "max_retry_wait_s": 60, "timeout_s": 60})
        bot.load()
        hist = History((Message("partner", "hello"),), "hello", "g1", 1, 1)
        assert bot.reply(hist).strip()
        _stop(proc)

        def restart() -> None:
            time.sleep(2)
            procs.append(_start(tmp_path, port))
        threading.Thread(target=restart, daemon=True).start()
        assert bot.reply(hist).strip()  # answered by the restarted server
        assert bot.counts["retries"] >= 1  # type: ignore[attr-defined]
        bot.close()
    finally:
        for p in procs:
            if p.poll() is None:
                _stop(p)


def test_an_endpoint_judge_against_the_real_server(served: tuple[str, str],
                                                   tmp_path: Path) -> None:
    """Pre-flight, the label probabilities (logprobs or sampled), text answers and the call
    cache, against transformers serve; a wrong judge model is refused."""
    from chatmatch.judges.backends import JudgeError, OpenAIJudge

    base, model = served
    judge = OpenAIJudge(base, model, samples=2, retries=0)
    judge.use_cache(tmp_path / "calls.sqlite")
    judge.preflight()
    prompt = "Which response is better? Response A: hi . Response B: hello . Answer A or B ."
    got = judge.label_probs(prompt, ["A", "B"])
    assert got is None or got.method in ("logprobs", "sampling")  # a random model may say neither
    assert isinstance(judge.generate("hello how are you ?", max_tokens=4), str)
    assert judge.cache is not None and len(judge.cache) >= 2
    with pytest.raises(JudgeError, match="cannot be used"):
        OpenAIJudge(base, model + "-typo", retries=0).preflight()


def test_done_when_two_http_and_two_offline_bots_on_a_strict_template(
        served: tuple[str, str], tmp_path: Path) -> None:
    """Issue 22's 'done when': two HTTP bots and two offline bots against a real server
    whose template has no system role play every game with whole replies; a bot whose
    timeout is too short forfeits, and raising timeout_s then --replay-forfeits in the
    same run directory plays those games again, reusing the cached replies."""
    from chatmatch.config.tournament import load_config
    from chatmatch.play.reply_cache import CACHE_FILE, ReplyCache
    from chatmatch.run.tournament import run_tournament
    from chatmatch.rundir.store import RunDir

    base, model = served
    nosys = no_system(model)

    def cfg(timeout_s: float) -> Path:
        return _tournament(tmp_path, [
            _http_bot("chatty", base, nosys, persona="You are friendly.", persona_role="user"),
            _http_bot("terse", base, nosys, timeout_s=timeout_s),
            "eliza", "canned"], exchanges=3)

    run = tmp_path / "run"
    first = run_tournament(load_config(cfg(0.001)), run)  # terse cannot answer in 1 ms
    lost = {g for f in first.forfeits for g in f.games}
    assert [f.bot for f in first.forfeits] == ["terse"] and len(lost) == 6
    cached = len(ReplyCache(run / CACHE_FILE))
    fixed = run_tournament(load_config(cfg(60)), run, replay_forfeits=True)
    assert sorted(fixed.replayed) == sorted(lost) and fixed.forfeits == []
    assert fixed.games_played == 6 and fixed.games_total == 12
    games = RunDir(run).transcripts()
    assert len(games) == 12 and not any(tr.forfeit for tr in games.values())
    http_turns = sum(1 for g in lost for t in games[g].turns
                     if t.speaker in ("chatty", "terse") and not t.seed)
    added = len(ReplyCache(run / CACHE_FILE)) - cached
    assert 0 < added < http_turns  # chatty's replies in those games came from the cache
    for tr in games.values():
        for t in tr.turns:
            if t.speaker in ("chatty", "terse") and not t.seed:
                assert t.text.strip() and not t.text.endswith("'"), t


def test_a_query_in_base_url_reaches_the_real_server(served: tuple[str, str]) -> None:
    """Issue 35 (5.7 of stop 40's attack): a base_url with a query (Azure's ?api-version=)
    used to send '.../v1?x=1/models'; the real server answers the pre-flight and a reply
    with the query kept after the path."""
    from chatmatch.adapters import create_bot
    from chatmatch.bot import History, Message

    base, model = served
    bot = create_bot("b", "openai-chat", {"base_url": base + "?api-version=2024-06-01",
                                          "model": model, "max_tokens": 5,
                                          "temperature": 0.0, "retries": 0,
                                          "preflight_timeout_s": 60})
    bot.preflight()  # type: ignore[attr-defined]
    bot.load()
    try:
        reply = bot.reply(History((Message("partner", "hello"),), "hello", "g1", 1, 1))
    finally:
        bot.close()
    assert reply.strip()
