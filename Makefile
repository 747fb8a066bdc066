# Two entry points (see README): `make run` (main job) and `make test` (the test suite).
PY      ?= python3.11
VENV    ?= .venv
BIN     := $(VENV)/bin
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export GRADIO_ANALYTICS_ENABLED := False
export ANONYMIZED_TELEMETRY := False
export TOKENIZERS_PARALLELISM := false

.PHONY: install run ingest test test-fast clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first: the CPU wheel lying on disk; a bare `torch` would pull a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# Main job: ingest the default corpus and print the report (later: index and open the chat UI).
run: install
	$(BIN)/legal-rag ingest

test: install
	$(BIN)/python -m pytest -q

test-fast: install
	$(BIN)/python -m pytest -q -m "not slow and not browser"

clean:
	rm -rf $(VENV) .legal_rag
