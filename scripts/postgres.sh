#!/usr/bin/env bash
# A PostgreSQL server for the tests of a fleet whose state is in PostgreSQL (the Pulumi CLI's
# `postgres://` backend). Prints the line to eval:
#   export HOSTING_TEST_POSTGRES_URL='postgres://pulumi@127.0.0.1:PORT/pulumi?sslmode=disable'
# Reuses a server already reachable at HOSTING_TEST_POSTGRES_URL. Otherwise: installs Debian's
# `postgresql` package when no server binary is found (as root, with apt-get), initialises a
# cluster in a temporary folder owned by the `postgres` user when run as root (the server refuses to
# run as root), starts it on 127.0.0.1 (HOSTING_POSTGRES_PORT, default 55432; the next free port
# when that one is taken by another server), and creates the database. Idempotent: a second run
# finds the cluster running and prints the same line. Progress goes to stderr.
# Usage: eval "$(bash scripts/postgres.sh)"      Stop: bash scripts/postgres.sh stop
set -euo pipefail

log() { printf 'postgres: %s\n' "$*" >&2; }
DB_USER=pulumi
DB_NAME=pulumi
PORT="${HOSTING_POSTGRES_PORT:-55432}"
# Not under root's home: the postgres user must be able to reach the folder.
DIR="${HOSTING_POSTGRES_DIR:-${TMPDIR:-/tmp}/pulumi-hosting-postgres-$(id -u)}"

url_for() { printf 'postgres://%s@127.0.0.1:%s/%s?sslmode=disable' "$DB_USER" "$1" "$DB_NAME"; }

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin /usr/local/pgsql/bin; do
    [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ] && { printf '%s' "$dir"; return 0; }
  done
  if command -v pg_ctl >/dev/null && command -v initdb >/dev/null; then
    dirname "$(command -v pg_ctl)"
    return 0
  fi
  return 1
}

BIN="$(find_bin || true)"
if [ -z "$BIN" ]; then
  [ "$(id -u)" -eq 0 ] || { log "no PostgreSQL server binaries, and installing them needs root: apt-get install postgresql"; exit 1; }
  log "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  # The package's own cluster is not wanted: ours lives in $DIR and starts on demand.
  apt-get install -y -qq postgresql >&2 || { apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2; }
  BIN="$(find_bin)" || { log "postgresql installed but pg_ctl not found"; exit 1; }
fi

# As root, every server command runs as the postgres user (created by the package).
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "${1:-}" = "stop" ]; then
  [ -d "$DIR/data" ] && as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >&2 || true
  exit 0
fi

if [ -n "${HOSTING_TEST_POSTGRES_URL:-}" ] && "$BIN/pg_isready" -q -d "$HOSTING_TEST_POSTGRES_URL" 2>/dev/null; then
  log "reusing the server at HOSTING_TEST_POSTGRES_URL"
  printf "export HOSTING_TEST_POSTGRES_URL='%s'\n" "$HOSTING_TEST_POSTGRES_URL"
  exit 0
fi

mkdir -p "$DIR"
[ "$(id -u)" -eq 0 ] && chown postgres: "$DIR"
if [ ! -f "$DIR/data/PG_VERSION" ]; then
  log "initialising a cluster in $DIR/data"
  # trust on 127.0.0.1 only: a throwaway server for tests, reachable from this machine alone.
  as_owner "$BIN/initdb" -D "$DIR/data" -U "$DB_USER" --auth=trust --encoding=UTF8 --no-instructions >"$DIR/initdb.log" 2>&1 ||
    { cat "$DIR/initdb.log" >&2; exit 1; }
fi

if as_owner "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
  PORT="$(sed -n 4p "$DIR/data/postmaster.pid")"
  log "already running on port $PORT"
else
  # Another server on the port: take the next free one.
  while "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" 2>/dev/null || (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do
    PORT=$((PORT + 1))
  done
  log "starting on 127.0.0.1:$PORT"
  as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c max_connections=200" start >&2 ||
    { tail -20 "$DIR/server.log" >&2; exit 1; }
fi

if ! "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$DB_USER" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" | grep -q 1; then
  "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$DB_USER" "$DB_NAME"
fi
printf "export HOSTING_TEST_POSTGRES_URL='%s'\n" "$(url_for "$PORT")"
