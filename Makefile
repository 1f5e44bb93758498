# sportmafia: every target creates .venv and installs the project on first use.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# Python keeps its compiled modules (__pycache__): where the environment says not to (PYTHONDONTWRITEBYTECODE),
# every process compiles every module of the project again, some 0.5 s a process, and the suite starts hundreds
# (its workers, the servers, bots and programs its tests run, each worker's test files).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check deep flakes durations bench lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: start the server on SQLite (./var) with a demo club and print the address to open
run: $(STAMP)
	$(VENV)/bin/sportmafia serve

## test: the whole suite (unit, property, golden records, the console in Debian's Chromium), one worker per
##       core; a test file runs whole on one worker (its own servers, temp stores and PostgreSQL schemas)
test: $(STAMP)
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update && apt-get install -y chromium; \
	fi
	@if ! command -v sqlite3 >/dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "installing Debian's sqlite3 shell for the backup tests"; \
		apt-get install -y sqlite3 || (apt-get update && apt-get install -y sqlite3); \
	fi
	$(PY) -m pytest -n auto --dist loadfile

## check: the inner loop: ruff, mypy --strict and every test that needs no browser, PostgreSQL, Redis or processes
##        of its own (tests/suite.py marks them), on every core, the volume tests at their check depth
##        (tests/depth.py)
QUICK := not browser and not postgres and not redis and not processes
check: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy
	SPORTMAFIA_TEST_DEPTH=check $(PY) -m pytest -n auto --dist loadfile -m "$(QUICK)" --durations=5

## deep: the whole suite with the volume tests at their deep depth (tests/depth.py): more examples, games and
##       pairs, before a release or after a change to the engine's views or the live layer
deep: $(STAMP)
	SPORTMAFIA_TEST_DEPTH=deep $(PY) -m pytest -n auto --dist loadfile

## flakes: the tests that touch the browser, the servers or processes, ROUNDS times in random orders; lists every
##         test whose result changed (tests/flakes.py)
ROUNDS ?= 5
flakes: $(STAMP)
	$(PY) -m tests.flakes --rounds $(ROUNDS)

## durations: run the whole suite once and write each file's seconds to tests/durations.json (the longest run first)
durations: $(STAMP)
	$(PY) -m pytest -n auto --dist loadfile --junitxml=.durations.xml -q
	$(PY) -m tests.durations .durations.xml

## bench: the benchmarks, one JSON line per figure
bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/seating.py
	$(PY) bench/console.py
	$(PY) bench/online.py
	$(PY) bench/cluster.py
	$(PY) bench/seasons.py
	$(PY) bench/bots.py
	$(PY) bench/practice.py
	$(PY) bench/lab.py

## lint: ruff everywhere, mypy --strict on the pure layers
lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
