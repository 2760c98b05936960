# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# where `make run` serves; load_demo prints the same address
ADDRESS ?= 127.0.0.1:8000

.PHONY: run venue test install messages lint format bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP) messages

messages: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv -v 0

# The demo on this computer only: debug mode, demo data and its organiser login.
DEMO_ENV := DEBUG=1 SECRET_KEY_FILE=$(VENV)/demo-secret-key

run: install
	$(DEMO_ENV) $(BIN)/python manage.py migrate --no-input -v 0
	$(DEMO_ENV) $(BIN)/python manage.py load_demo --address $(ADDRESS)
	$(DEMO_ENV) $(BIN)/python manage.py runserver $(ADDRESS)

# A tournament day: serves the hall's network from the data folder (no demo data).
# `make venue VENUE_ARGS="--backup-dir /media/usb/cego"`
VENUE_ARGS ?=
venue: install
	$(BIN)/python manage.py venue $(VENUE_ARGS)

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install
	DEBUG=1 $(BIN)/python bench/bench_scoring.py  # its manage.py subprocess: a development command
	$(BIN)/python bench/bench_draw.py
	$(BIN)/python bench/bench_tournament.py
	$(BIN)/python bench/bench_printouts.py
	$(BIN)/python bench/bench_written.py
	$(BIN)/python bench/bench_clubs.py
	$(BIN)/python bench/bench_venue_phones.py
	$(BIN)/python bench/bench_season.py
	$(BIN)/python bench/bench_season_standings.py
	$(BIN)/python bench/bench_spectators.py
	$(BIN)/python bench/bench_entry.py
	$(BIN)/python bench/bench_five_seasons.py
	$(BIN)/python bench/bench_publish.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build dist
