#!/usr/bin/env bash
# Start (or stop) a throw-away PostgreSQL server on loopback for the storage tests.
#   bash tests/server/pg.sh start   -> prints the URL to use as GLADE_TEST_PG
#   bash tests/server/pg.sh stop
# Idempotent: creates the cluster once, reuses a running server (PostgreSQL itself is installed
# by `make system`). PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
set -euo pipefail
# One cluster per checkout, so two checkouts on one machine never stop each other's server.
HERE="$(cd "$(dirname "$0")/../.." && pwd)"
KEY="$(printf '%s' "$HERE" | cksum | cut -d' ' -f1)"
PORT="${GLADE_PG_PORT:-$((55000 + KEY % 1000))}"
DIR="${GLADE_PG_DIR:-/tmp/glade-test-pg-$KEY}"

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(bindir)" ]; then  # installed by `make system` (.ci/provision.sh), never here
    echo "PostgreSQL is not installed; run: make system (or apt-get install postgresql)" >&2
    exit 1
fi
BIN="$(bindir)"

if [ "$(id -u)" -eq 0 ]; then
    OWNER=postgres
    as_owner() { runuser -u postgres -- "$@"; }
else
    OWNER="$(id -un)"
    as_owner() { "$@"; }
fi

case "${1:-start}" in
start)
    if [ ! -f "$DIR/PG_VERSION" ]; then
        rm -rf "$DIR"
        install -d -m 700 -o "$OWNER" "$DIR"
        as_owner "$BIN/initdb" -D "$DIR" -A trust -U postgres >/dev/null
    fi
    if ! as_owner "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
        as_owner "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 \
            -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=on" start >&2
    fi
    echo "postgresql://postgres@127.0.0.1:$PORT/postgres"
    ;;
stop)
    if [ -f "$DIR/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
        as_owner "$BIN/pg_ctl" -D "$DIR" -m fast -w stop >&2
    fi
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
