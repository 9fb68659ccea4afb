# The front door.  `make run` and `make test` work on a fresh machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_ENV := DJANGO_SETTINGS_MODULE=config.settings.test

.PHONY: run serve install install-dev migrate load user token worker test services browser test-tools calc lint typecheck check bench loadtest plotly-bundle screenshot pdf-pictures clean

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

## run: install, migrate, load the published reference data, serve on http://127.0.0.1:8000
run: install migrate load serve

migrate: install
	$(PY) manage.py migrate --noinput

load: install
	$(PY) manage.py load_benchmarks

# serve: on the embedded default, the first start makes a local account; each start prints it.
serve: install
	@$(PY) manage.py local_account --url http://$(HOST):$(PORT)/
	$(PY) manage.py runserver $(HOST):$(PORT)

## user: create another login, an engineer (asks for a name and password on a terminal);
## `make user ADMIN=1` makes an administrator; token: an API token for USER=name
user: install migrate
	$(PY) manage.py add_user $(if $(ADMIN),--admin,)

token: install
	$(PY) manage.py drf_create_token $(USER)

## worker: Celery workers against CELERY_BROKER_URL (jobs run in-process without one): one on both
## queues (WORKER_CONCURRENCY processes, default 2) and one process on the interactive queue alone
worker: install
	@test -n "$$CELERY_BROKER_URL" || { echo "Set CELERY_BROKER_URL=redis://host:6379/0 (without it jobs run in-process)."; exit 2; }
	Q=$${ZSIZER_TASK_QUEUE:-zsizer}; \
	$(VENV)/bin/celery -A config worker --loglevel=INFO --concurrency=1 -Q $$Q-interactive -n interactive@%h & \
	interactive=$$!; trap 'kill $$interactive 2>/dev/null' INT TERM EXIT; \
	$(VENV)/bin/celery -A config worker --loglevel=INFO --concurrency=$${WORKER_CONCURRENCY:-2} -Q $$Q,$$Q-interactive -n bulk@%h

# TEST_WORKERS: pytest-xdist processes for `make test`, one per core (at most 8: each worker takes
# a Redis database of its own, counting down from the test settings' 15); TEST_WORKERS=0 runs
# the suite in this one process.  docs/development.md, "Tests in parallel".
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n > 8 ? 8 : n )))

## test: the whole suite on real PostgreSQL and Redis (started here if not running), on every core
test: install-dev services browser test-tools calc
	$(TEST_ENV) $(PY) manage.py makemigrations --check --dry-run
	$(TEST_ENV) $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

services:
	@bash .ci/services.sh

browser:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# test-tools: what the suite reads PDFs and the compose file with, from Debian where missing:
# poppler-utils (pdftotext, pdftoppm, pdffonts read the reports back) and Compose
# (tests/test_deployment.py runs its `config` on docker-compose.yml; no Docker engine needed).
test-tools:
	@missing=""; \
	command -v pdftotext >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1 || missing="$$missing docker-compose"; \
	test -z "$$missing" || { echo "Installing Debian's$$missing for the tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; }

# calc: LibreOffice Calc without a display, which opens every CSV and XLSX export in the tests
# (tests/sizing/test_spreadsheets.py).
calc:
	@command -v soffice >/dev/null 2>&1 || { \
	  echo "Installing Debian's libreoffice-calc-nogui for the spreadsheet tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui >/dev/null; }

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install-dev
	$(VENV)/bin/mypy models_lib sizing

check: lint typecheck test

## bench: speed benchmarks (not tests), each against a baseline measured in the same run;
## writes perf/results/<date>-<commit>.json.  Needs PostgreSQL on 127.0.0.1:5432 and redis-server.
bench: install-dev services browser
	$(PY) perf/run.py

## loadtest: locust, 50 users for 60 s against gunicorn + a worker; p50/p99 into the results file
loadtest: install-dev services
	$(PY) perf/loadtest.py

## plotly-bundle: fetch plotly.js's basic bundle (scatter, bar) of the version the plotly package
## bundles from the npm registry into frontend/static/vendor/plotly/ (file, LICENSE, bundle.json)
plotly-bundle: install
	$(PY) frontend/plotly_bundle.py

## screenshot: docs/workbench.png (the README's picture), every page at 1440 and 390 px (headless
## Chromium) and a page of every PDF report (poppler's pdftoppm, from test-tools) in docs/pictures/
screenshot: install-dev browser test-tools
	$(PY) frontend/screenshot.py

## pdf-pictures: the PDF reports' pictures alone (docs/pictures/*-pdf-*.png), as `make screenshot` draws them
pdf-pictures: install-dev test-tools
	$(PY) frontend/pdf_pictures.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
