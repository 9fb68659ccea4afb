#!/usr/bin/env bash
# Debian packages the suite needs, installed only when missing: PostgreSQL and Redis (real
# services, no mocks), Debian's chromium (browser tests; never a downloaded browser), make,
# poppler-utils (pdftotext, pdftoppm, pdffonts read the PDF reports back in the tests),
# libreoffice-calc-nogui (soffice --headless opens every CSV and XLSX export in the tests),
# python3-venv for the project's virtualenv and Compose (tests/test_deployment.py runs
# `config` on docker-compose.yml: no Docker engine needed; Debian 12 packages v1.29 as
# docker-compose, a docker CLI with the compose plugin does as well).
set -euo pipefail

missing=()
command -v make >/dev/null 2>&1 || missing+=(make)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc-nogui)
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1 || missing+=(docker-compose)

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "Missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    exit 2
  fi
  echo "Installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
