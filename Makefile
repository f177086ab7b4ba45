# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUITE  := data/examples/acme-helpdesk
DB     := halgate-demo.db
PORT   ?= 8501
## The demo's release manager (the README's sign-off example signs as carol).
DEMO_MANAGER ?= carol
STAMP  := $(VENV)/.installed

.PHONY: demo test test-real-llm install lint format-check typecheck imports check docs bench schemas clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,ingest-test]'
	touch $(STAMP)

install: $(STAMP)

## Evaluate the bundled example suite with the offline judge, then serve the dashboard on it
## (`make demo PORT=8600` picks another port; the release manager carol may sign off in it:
## the demo has no login, so it allows sign-off by a typed name, which a real server should not).
demo: $(STAMP)
	@$(BIN)/halgate run $(SUITE) --db $(DB) --out demo-report.json; code=$$?; \
	  echo "gate exit code $$code (non-zero is expected: the example candidate carries inserted hallucinations)"; \
	  [ $$code -le 3 ]
	HALGATE_RELEASE_MANAGERS=$(DEMO_MANAGER) HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF=1 \
	  $(BIN)/halgate dashboard --db $(DB) --port $(PORT)

## The whole test suite (benchmarks in tests/bench are run with `make bench`).
test: $(STAMP)
	$(BIN)/python -m pytest

## halgate's LLM judge against a real model server: builds llama.cpp's server and the Gemma 3
## 270M model once (tests/real_llm/build_server.py; cached in ~/.cache/halgate/real-llm), then
## runs tests/real_llm on it. A machine without a C/C++ compiler or make gets a warning and
## a skip, unless HALGATE_REQUIRE_REAL_LLM=1 (then it fails); a failed build or test fails.
test-real-llm: $(STAMP)
	@$(BIN)/python tests/real_llm/build_server.py; code=$$?; \
	  if [ $$code -eq 3 ] && [ "$$HALGATE_REQUIRE_REAL_LLM" != 1 ]; then \
	    echo "warning: real-LLM test skipped: this machine cannot build llama.cpp (see above)"; \
	    exit 0; fi; \
	  [ $$code -eq 0 ] || exit $$code; \
	  HALGATE_REAL_LLM=1 $(BIN)/python -m pytest -p no:cacheprovider -rs -s tests/real_llm

lint: $(STAMP)
	$(BIN)/ruff check core dashboard tests data

format-check: $(STAMP)
	$(BIN)/ruff format --check core dashboard tests data

## mypy on the package as installed: a link tree maps halgate -> core/, halgate.dashboard -> dashboard/.
TYPETREE := build/typecheck
typecheck: $(STAMP)
	rm -rf $(TYPETREE) && mkdir -p $(TYPETREE)/halgate
	for f in core/*; do ln -s ../../../$$f $(TYPETREE)/halgate/; done
	ln -s ../../../dashboard $(TYPETREE)/halgate/dashboard
	cd $(TYPETREE) && ../../$(BIN)/mypy --config-file ../../pyproject.toml -p halgate

## The layers and acyclic contracts in pyproject.toml ([tool.importlinter]).
imports: $(STAMP)
	$(BIN)/lint-imports

## The fast checks CI runs before the tests, in this order.
check: lint format-check typecheck imports

## The documentation site from docs/ into site/ (MkDocs + Material); --strict fails on any
## broken link or anchor, so a page that moves cannot leave a dead link behind.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

## Benchmarks print figures (throughput, memory, latency); they are not timed tests.
bench: $(STAMP)
	for f in tests/bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

schemas: $(STAMP)
	$(BIN)/halgate schemas --write

clean:
	rm -rf $(VENV) .pytest_cache build site *.egg-info
