#!/usr/bin/env bash
# Load test of `dagaz serve` on loopback: people playing random legal
# moves and matches against the computer, all at once, for a bounded
# time; halfway through the server is killed (kill -9) and restarted on the
# same database; at the end every move the server acknowledged is looked
# for in its matches (see crates/dagaz-cli/examples/load.rs).
#
#   scripts/load.sh [SECONDS] [PORT] [PLAYERS] [ENGINE]
#
# Defaults: 30 seconds, port 18080, 60 players (a tenth of them against
# the computer), engine ab:1s. `scripts/load.sh 60 18080 100 ab:0.5s` is
# the single-server run beside scripts/cluster.sh's in docs/web.md.
#
# Prints requests/s, p50/p99 latency, errors and the integrity check; exits
# non-zero on any error or lost move.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
port=${2:-18080}
players=${3:-60}
engine=${4:-ab:1s}
if ! [[ "$players" =~ ^[0-9]+$ ]] || [ "$players" -lt 10 ] || [ "$players" -gt 500 ]; then
    echo "give 10 to 500 players" >&2
    exit 2
fi
ai=$((players / 10))
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 4 ] || [ "$seconds" -gt 600 ]; then
    echo "give 4 to 600 seconds" >&2
    exit 2
fi
cargo build --release --quiet -p dagaz-cli --bin dagaz --example load
dir=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$dir"' EXIT
start_server() {
    target/release/dagaz serve --addr "127.0.0.1:$port" --db "$dir/games.db" \
        > "$dir/server.log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        grep -q "serving on" "$dir/server.log" 2>/dev/null && return
        sleep 0.1
    done
    echo "the server did not start:" >&2
    cat "$dir/server.log" >&2
    exit 1
}
start_server
echo "== dagaz serve on 127.0.0.1:$port, $(nproc) cores; load for ${seconds} s"
target/release/examples/load --base "http://127.0.0.1:$port" --players $((players - ai)) --ai "$ai" \
    --seconds "$seconds" --engine "$engine" > "$dir/load.out" &
client=$!
sleep $((seconds / 2))
echo "== kill -9 the server mid-run, and start it again on the same database"
kill -9 "$server"
wait "$server" 2>/dev/null || true
start_server
status=0
wait "$client" || status=$?
cat "$dir/load.out"
exit $status
