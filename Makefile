# The two commands that set everything up from nothing: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run check test bench build vendor clean compile-own

$(BIN)/python:
	scripts/make_venv.sh $(PYTHON) $(VENV)

# The packages' bytecode is compiled once, on both cores, after pip has installed them
# (pip compiles on one): where PYTHONDONTWRITEBYTECODE is set no import ever writes it, and
# every process (a server, a CLI run, a test worker) would compile what it imports again.
COMPILE = $(BIN)/python -m compileall -q -j 0
$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q --no-compile -e .
	$(COMPILE) $(VENV)/lib > /dev/null
	touch $@

# One install with the test tools (not the plain one, then another): it installs what
# `.installed` does too.
$(VENV)/.installed-test: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q --no-compile -e '.[test]'
	$(COMPILE) $(VENV)/lib > /dev/null
	touch $(VENV)/.installed $@

# loopstep's own modules, compiled beside them (as an import writes them), lessons aside:
# their folders hold only what a lesson lists.
PACKAGES = runtime web server.py __init__.py __main__.py
compile-own:
	$(COMPILE) -x '/(lessons|vendor|static|templates)/' $(PACKAGES) > /dev/null

# The outputs the repository does not hold (the fast boot set, the precompiled recorder),
# built with Node 20+ (scripts/ensure_node.sh) and cached until their inputs change.
build:
	$(PYTHON) scripts/build.py

run: $(VENV)/.installed build
	$(BIN)/loopstep serve --host $(HOST) --port $(PORT)

# The Node tests use the Node the build uses, first on PATH.
TEST_ENV = PATH="$$(dirname "$$(scripts/ensure_node.sh)"):$$PATH" \
	LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh) LOOPSTEP_NGINX=$$(scripts/ensure_nginx.sh)
# Both cores; a test file's tests stay on one worker (they share its server and fixtures),
# the files handed out longest first (tests/long_files.txt, in the order tests/conftest.py sets).
PARALLEL = -n 2 --dist loadfile --no-loadscope-reorder

# While working: lint, the unit tests but the slow ones, and the browser smoke tests.
check: $(VENV)/.installed-test build compile-own
	$(BIN)/ruff check .
	$(TEST_ENV) $(BIN)/python -m pytest $(PARALLEL) -q -m "not slow" --ignore=tests/browser
	$(TEST_ENV) $(BIN)/python -m pytest $(PARALLEL) -q -m smoke tests/browser

# Everything against the app, then the browser tests of what a host may serve differently
# (marked `hosting`) against a static export on Python's http.server and on nginx with
# deploy/nginx/loopstep.conf.
# The two hosting runs go side by side (their sites on ports of their own); the export's
# report is printed after the nginx one.
# Chromium and nginx (root apt on Debian, scripts/ensure_*.sh) are installed while the
# environment is made and the build runs (those two side by side); what installing them
# printed is shown when it fails.
test:
	@mkdir -p build
	@{ scripts/ensure_chromium.sh && scripts/ensure_nginx.sh; } > build/browsers.log 2>&1 & \
	browsers=$$!; $(MAKE) --no-print-directory -j2 $(VENV)/.installed-test build; made=$$?; \
	wait $$browsers || { cat build/browsers.log >&2; \
		echo "make test: Chromium or nginx could not be installed (above)" >&2; exit 1; }; \
	exit $$made
	$(BIN)/ruff check .
	$(MAKE) --no-print-directory compile-own
	$(TEST_ENV) $(BIN)/python -m pytest $(PARALLEL)
	$(TEST_ENV) $(BIN)/python -m pytest -m hosting tests/browser --site=export \
		> build/hosting-export.log 2>&1 & export_run=$$!; \
	$(TEST_ENV) $(BIN)/python -m pytest -m hosting tests/browser --site=nginx; nginx=$$?; \
	wait $$export_run; exported=$$?; cat build/hosting-export.log; \
	test $$nginx -eq 0 && test $$exported -eq 0

bench: $(VENV)/.installed-test build
	PATH="$$(dirname "$$(scripts/ensure_node.sh)"):$$PATH" LOOPSTEP_CHROMIUM=$$(scripts/ensure_chromium.sh browser) LOOPSTEP_WRK=$$(scripts/ensure_wrk.sh) \
		$(BIN)/python bench/run.py

vendor:
	scripts/vendor_pyodide.sh
	scripts/vendor_codemirror.sh

clean:
	rm -rf $(VENV) build *.egg-info web/vendor/loopstep-boot-* web/static/pyc
