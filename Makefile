# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# where `make run` serves; load_demo prints the same address
ADDRESS ?= 127.0.0.1:8000

.PHONY: run test install messages lint format bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP) messages

messages: $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=.venv -v 0

run: install
	$(BIN)/python manage.py migrate --no-input -v 0
	$(BIN)/python manage.py load_demo --address $(ADDRESS)
	$(BIN)/python manage.py runserver $(ADDRESS)

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install
	$(BIN)/python bench/bench_scoring.py
	$(BIN)/python bench/bench_draw.py
	$(BIN)/python bench/bench_tournament.py
	$(BIN)/python bench/bench_written.py
	$(BIN)/python bench/bench_clubs.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
