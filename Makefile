# The two commands that set everything up from nothing: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench build vendor clean

$(BIN)/python:
	scripts/make_venv.sh $(PYTHON) $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@

# The outputs the repository does not hold (the fast boot set, the precompiled recorder),
# built with Node 20+ (scripts/ensure_node.sh) and cached until their inputs change.
build:
	$(PYTHON) scripts/build.py

run: $(VENV)/.installed build
	$(BIN)/loopstep serve --host $(HOST) --port $(PORT)

# Three runs of the browser suite: against the app, a static export on Python's http.server,
# and the export on nginx with deploy/nginx/loopstep.conf.
# The Node tests use the Node the build uses, first on PATH.
TEST_ENV = PATH="$$(dirname "$$(scripts/ensure_node.sh)"):$$PATH" \
	LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh) LOOPSTEP_NGINX=$$(scripts/ensure_nginx.sh)

test: $(VENV)/.installed-test build
	$(TEST_ENV) $(BIN)/python -m pytest
	$(TEST_ENV) $(BIN)/python -m pytest tests/browser --site=export
	$(TEST_ENV) $(BIN)/python -m pytest tests/browser --site=nginx

bench: $(VENV)/.installed-test build
	PATH="$$(dirname "$$(scripts/ensure_node.sh)"):$$PATH" LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh) LOOPSTEP_WRK=$$(scripts/ensure_wrk.sh) \
		$(BIN)/python bench/run.py

vendor:
	scripts/vendor_pyodide.sh
	scripts/vendor_codemirror.sh

clean:
	rm -rf $(VENV) build *.egg-info web/vendor/loopstep-boot-* web/static/pyc
