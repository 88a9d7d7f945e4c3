"""The model runtime that bots, scorers and judges share: models and spaCy loaded once per
process (resources), a GGUF's dequantised weights kept on disk (gguf_cache), the language
models and their engines (the lm package: torch in lm itself, lm.ort and lm.ort_graph:
ONNX Runtime, lm.forward: batching and worker processes, lm.cache: perplexities kept on
disk per machine; ngram: a Kneser-Ney trigram model), the runtime: block (settings), the
sentence embedder (embed) and the error a model that cannot run raises (errors)."""
