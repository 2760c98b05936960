# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# where `make run` serves; load_demo prints the same address
ADDRESS ?= 127.0.0.1:8000

.PHONY: run venue test test-all test-slow install messages lint typecheck format bench clean windows-bundle release

# The stamp is written last, only when every step before it succeeded (else the next run
# starts again). A .venv without pip (python3-venv missing on Debian) or of a Python older
# than 3.11 is made anew, with $(PYTHON) (`make run PYTHON=python3.12`).
NEW_ENOUGH := import sys; sys.exit(sys.version_info < (3, 11))
$(STAMP): pyproject.toml
	$(BIN)/python -c 'import pip; $(NEW_ENOUGH)' >/dev/null 2>&1 \
	    || { $(PYTHON) -c '$(NEW_ENOUGH)' \
	         || { echo "Cego Club needs Python 3.11 or newer: make run PYTHON=python3.12"; exit 1; }; \
	         $(PYTHON) -m venv --clear $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m cego_club.catalogues
	touch $(STAMP)

install: $(STAMP) messages

# The message catalogues, compiled by the app's own compiler (no GNU gettext needed).
messages: $(STAMP)
	$(BIN)/python -m cego_club.catalogues

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

# The tests on every core (pytest-xdist: each worker its own test database). `make test` is
# the fast tier: no browser, no server or command in a process of its own, no wine; `make
# test-all` is everything (CI runs every tier). One file: .venv/bin/python -m pytest FILE.
PARALLEL ?= -n auto --dist loadgroup
FAST_TIER := not browser and not servers and not wine
test: install
	$(BIN)/python -m pytest $(PARALLEL) -m "$(FAST_TIER)" $(PYTEST_ARGS)

test-all: install
	$(BIN)/python -m pytest $(PARALLEL) $(PYTEST_ARGS)

# What `make test` leaves out (CI runs both tiers, each timed; on PostgreSQL only the server
# processes: SLOW_TIER=servers, the browsers and wine being the same on either database).
SLOW_TIER ?= not ($(FAST_TIER))
test-slow: install
	$(BIN)/python -m pytest $(PARALLEL) -m "$(SLOW_TIER)" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The type checker over scoring/, the services and the selectors ([tool.mypy] in pyproject.toml).
typecheck: $(STAMP)
	$(BIN)/mypy

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
	$(BIN)/python bench/bench_ratings.py
	$(BIN)/python bench/bench_pages.py
	$(BIN)/python bench/bench_crowd.py

# Cego Club for Windows without Python: dist/CegoClub-Windows-x64-<version>.zip, built here
# from PyPI's win_amd64 wheels (packaging/windows/build.py). The official embeddable CPython:
# `make windows-bundle PYTHON_EMBED_ZIP=/path/to/python-3.12.x-embed-amd64.zip` (or a URL).
PYTHON_EMBED_ZIP ?=
windows-bundle: $(STAMP)
	$(BIN)/python packaging/windows/build.py $(if $(PYTHON_EMBED_ZIP),--python-embed-zip "$(PYTHON_EMBED_ZIP)")

# A release (nothing tagged or uploaded): dist/release-<version>/ with the wheel, the Windows
# zip, SHA256SUMS and an SSH signature of each (packaging/release.py; the README's "Download
# and check" says how a club checks them). `make release RELEASE_KEY=~/cego-club-release`.
RELEASE_KEY ?= $(CEGO_RELEASE_KEY)
release: $(STAMP)
	$(if $(PYTHON_EMBED_ZIP),PYTHON_EMBED_ZIP="$(PYTHON_EMBED_ZIP)") $(BIN)/python packaging/release.py --key "$(RELEASE_KEY)"

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build dist
