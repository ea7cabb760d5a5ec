# playtest: `make demo` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all bench install clean

# uv installs the pinned dependencies in parallel: 18 s against pip's 43 (docs/performance.md).
UV := uv>=0.13.9,<0.14

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet '$(UV)'
	$(BIN)/python -m uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[test,dask]'
	touch $(STAMP)

install: $(STAMP)

# The main job: 100,000 four-player Gremios games with the default strategy mix, a summary on
# the terminal, and the balance report (RUN/report/report.html).
demo: $(STAMP)
	out=runs/demo-$$(date +%Y%m%d-%H%M%S) && \
	$(BIN)/playtest run gremios --players 4 --games 100000 --seed 1 --out $$out && \
	$(BIN)/playtest report $$out

# The fast suite (slow statistical tests are marked and skipped; `make test-all` runs them too).
# Most of a cold run is numba compiling the games' kernels, on one core each: `simulator.warm`
# first compiles every game's kernels once, a game per core, so that no two test workers
# compile the same kernel at once; then one worker per core, a test file per worker at a time.
# The suite compiles at LLVM's -O1 (NUMBA_OPT=1): the same code, optimised less, playing the same
# bytes; a cold suite compiles a fifth less. Runs and `playtest bench` keep numba's -O3 (their
# compiled code is cached apart).
PYTEST := $(BIN)/python -m pytest -q -n auto --dist loadfile
WARM := $(BIN)/python -m simulator.warm --jobs 2
test test-all: export NUMBA_OPT := 1

test: $(STAMP)
	$(WARM)
	$(PYTEST)

test-all: $(STAMP)
	$(WARM)
	$(PYTEST) -m ''

clean:
	rm -rf $(VENV) runs build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The benchmark of docs/performance.md (takes several minutes; writes bench.json).
bench: $(STAMP)
	$(BIN)/playtest bench gremios
