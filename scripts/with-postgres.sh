#!/usr/bin/env bash
# Runs a command beside a temporary PostgreSQL server: a new cluster in a
# temporary folder, listening on a free loopback port only, removed when
# the command ends. The command finds the server's URL in
# DAGAZ_TEST_POSTGRES (postgres://dagaz@127.0.0.1:PORT/dagaz).
#
#   scripts/with-postgres.sh COMMAND [ARGS...]
#
# Needs Debian's postgresql package (apt-get install postgresql); as root
# the server runs as the package's `postgres` user (PostgreSQL refuses to
# run as root).
set -euo pipefail
if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL's server is not installed (Debian: apt-get install postgresql)" >&2
    exit 1
fi
as_db=()
if [ "$(id -u)" = 0 ]; then
    as_db=(runuser -u postgres --)
fi
dir=$(mktemp -d)
stop() {
    "${as_db[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
# The server is stopped however the command ends: normally, on an error,
# or when this script is interrupted or terminated.
trap stop EXIT
trap 'exit 130' INT HUP
trap 'exit 143' TERM
chmod 755 "$dir"
if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_db[@]}" "$bin/initdb" -D "$dir/data" -U dagaz -A trust -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
"${as_db[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c max_connections=300" >/dev/null ||
    { cat "$dir/server.log" >&2; exit 1; }
"${as_db[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U dagaz dagaz
export DAGAZ_TEST_POSTGRES="postgres://dagaz@127.0.0.1:$port/dagaz"
status=0
"$@" || status=$?
exit $status
