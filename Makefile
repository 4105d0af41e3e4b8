# harmonies-simulator: every target sets up .venv from the package registries when needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Trials per scenario for `make run` (the main study); small enough for a few minutes on 2 cores.
TRIALS ?= 20000
SEED ?= 20261130

.PHONY: venv run check test lint bench notebooks lab clean messages

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,dask,notebooks]"
	touch $(STAMP)

# The rules kernel is compiled by numba once, here, and cached on disk (~/.cache/harmonies-sim);
# a later change to its sources compiles it afresh at its first use.
# The package's bytecode is written here too: under PYTHONDONTWRITEBYTECODE (as in some
# sandboxes and containers) Python would otherwise compile every module at every start.
venv: $(STAMP)
	@$(PY) -m compileall -q simulator
	@$(PY) -m tools.kernel_warmup

run: venv
	$(PY) -m simulator study scenarios --trials $(TRIALS) --seed $(SEED) --out results --written-by "make run"
	$(PY) -m tools.readme_finding

# The tests on TEST_WORKERS processes (pytest-xdist; `make test TEST_WORKERS=0` runs them in
# this one). Two by default: the machine the guide measures on has two cores.
TEST_WORKERS ?= 2
# More options for pytest, e.g. `make check PYTEST_ARGS="--durations=40 -x"`.
PYTEST_ARGS ?=
# What CI runs (.ci/run): every test, the slow agreement tests and the browser included, on
# the compiled kernel (`venv` compiles it first if its sources changed).
test: venv
	$(PY) -m pytest -q -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The daily loop: every test but the `slow`, `compiled`, `integration` and `browser` ones
# (pyproject.toml's markers),
# with the rules kernel run as plain Python (HARMONIES_NO_JIT=1, the very same functions, the
# same numbers), so that it never waits for numba, even right after a kernel edit. It needs
# the environment only, not `venv`'s compile of the kernel. A test that hangs fails after 5 min.
check: $(STAMP)
	@$(PY) -m compileall -q simulator
	HARMONIES_NO_JIT=1 $(PY) -m pytest -q -n $(TEST_WORKERS) \
		-m "not slow and not compiled and not integration and not browser" \
		--timeout 300 $(PYTEST_ARGS)

# The catalogue: every template of the code (pybabel extract), then each .po brought up to date
# (pybabel update: new templates empty, changed ones fuzzy, gone ones kept as #~); translate
# the empty and fuzzy ones, then `make test` (tests/report/test_catalogue.py).
KEYWORDS := -k tr -k t -k word -k N_ -k Nn_:1,2 -k ntr:1,2 -k ptr:1c,2 -k phrase -k Phrase \
	-k problem:3 -k _missing:3 -k Problem:4
messages: venv
	$(VENV)/bin/pybabel extract -F babel.cfg --no-default-keywords $(KEYWORDS) \
		--no-location --sort-by-file -o build/harmonies.pot .
	$(VENV)/bin/pybabel update -i build/harmonies.pot -d simulator/locale -D harmonies \
		--width 100

lint: venv
	$(VENV)/bin/ruff check simulator tests benchmarks tools scenarios
	$(VENV)/bin/ruff format --check simulator tests benchmarks tools scenarios
	$(VENV)/bin/mypy

bench: venv
	$(PY) benchmarks/bench.py

notebooks: venv
	$(PY) -m tools.run_notebooks --full

# The notebooks opened in JupyterLab (on this machine only, in your browser). JupyterLab is
# added to .venv the first time, from the package index (the `lab` extra of pyproject.toml);
# nothing else needs it.
lab: venv
	@test -x $(VENV)/bin/jupyter-lab || $(PY) -m pip install --quiet -e ".[lab]"
	$(VENV)/bin/jupyter lab notebooks/

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
