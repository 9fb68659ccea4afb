#!/usr/bin/env bash
# Start PostgreSQL and Redis on 127.0.0.1 if they are not running (CI and fresh machines).
# Services that already run are left exactly as they are.
set -euo pipefail

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "Starting PostgreSQL"
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  if [[ -z $version ]]; then
    echo "No PostgreSQL cluster under /etc/postgresql (apt-get install postgresql)" >&2
    exit 2
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432

# The tests connect as postgres over TCP without a password.  A freshly installed Debian
# cluster asks for one (scram); on such a machine only, trust loopback connections.
if ! psql -h 127.0.0.1 -U postgres -w -tAc "select 1" >/dev/null 2>&1; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  hba=/etc/postgresql/$version/main/pg_hba.conf
  echo "Allowing passwordless loopback connections in $hba (CI machine)"
  sed -i '1i host all all 127.0.0.1/32 trust  # zsizer-ci\nhost all all ::1/128 trust  # zsizer-ci' "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  sleep 1
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping
