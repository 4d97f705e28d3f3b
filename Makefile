# Two commands on a fresh machine: `make demo` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup services demo test test-unit test-integration lint format docs bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/python examples/demo.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test-unit: setup
	$(BIN)/pytest -q tests/unit

# The documentation site (mkdocs.yml) into site/; --strict makes every warning (a broken link,
# a docstring the API reference cannot read) fail the build.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# Real services for the integration tests: Slurm, Lmod, MPI (needs root; without root the script
# says what it skipped and those tests skip, or fail in CI), and a small local language model
# for the agent's end-to-end test (built once, then cached under ~/.cache/secretary), and
# headless Chromium for the dashboard's browser tests.
services:
	scripts/hpc/services-up.sh
	scripts/llm/setup-local-model.sh
	scripts/browser-up.sh

test-integration: setup services
	$(BIN)/pytest -q tests/integration tests/faults

# Unit tests first (cheap, fail fast), the docs site, then integration tests against real
# components.
test: lint test-unit docs test-integration

bench: setup
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache .ruff_cache .hypothesis
