"""The model runtime that bots, scorers and judges share: models and spaCy loaded once per
process (resources), a GGUF's dequantised weights kept on disk (gguf_cache), the language
models and their engines (lm: torch, lm_llama: llama.cpp, lm_ort and lm_ort_graph: ONNX
Runtime, ngram: a Kneser-Ney trigram model; lm_forward: batching and worker processes,
lm_mixed: bf16-mixed precision, lm_cache: perplexities kept on disk per machine), the
sentence embedder (embed) and the error a model that cannot run raises (errors)."""
