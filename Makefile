# The two commands that set everything up from nothing: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench boot vendor clean

$(BIN)/python:
	scripts/make_venv.sh $(PYTHON) $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/loopstep serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-test
	LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh) $(BIN)/python -m pytest
	LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh) $(BIN)/python -m pytest tests/browser --site=export

bench: $(VENV)/.installed-test
	LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh) LOOPSTEP_WRK=$$(scripts/ensure_wrk.sh) \
		$(BIN)/python bench/run.py

boot:
	scripts/build_boot.sh

vendor:
	scripts/vendor_pyodide.sh
	scripts/vendor_codemirror.sh

clean:
	rm -rf $(VENV) build *.egg-info
