# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUITE  := data/examples/acme-helpdesk
DB     := halgate-demo.db
STAMP  := $(VENV)/.installed

.PHONY: demo test install lint bench schemas clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## Evaluate the bundled example suite with the offline judge, then serve the dashboard on it.
demo: $(STAMP)
	@$(BIN)/halgate run $(SUITE) --db $(DB) --out demo-report.json; code=$$?; \
	  echo "gate exit code $$code (non-zero is expected: the example candidate carries inserted hallucinations)"; \
	  [ $$code -le 3 ]
	$(BIN)/halgate dashboard --db $(DB)

## The whole test suite (benchmarks in tests/bench are run with `make bench`).
test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check core dashboard tests

## Benchmarks print figures (throughput, memory, latency); they are not timed tests.
bench: $(STAMP)
	for f in tests/bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

schemas: $(STAMP)
	$(BIN)/halgate schemas --write

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
