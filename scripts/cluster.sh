#!/usr/bin/env bash
# Three `dagaz serve` instances on one PostgreSQL database, on loopback
# ports, under load: 90 people playing random legal moves and 10 playing
# against the computer (100 players), each request sent to the next
# instance in turn as a load balancer would (crates/dagaz-cli/examples/load.rs).
# A third of the way through, one instance is killed with kill -9; it is
# started again two thirds of the way through. At the end every
# acknowledged move is looked for, every match is compared on every
# instance, and the database's moves are checked for gaps.
#
#   scripts/cluster.sh [SECONDS] [PLAYERS]     (defaults: 60 seconds, 100 players)
#
# Starts its own temporary PostgreSQL (scripts/with-postgres.sh) unless
# DAGAZ_TEST_POSTGRES names one. Prints requests/s, p50/p99 latency,
# errors and the checks; exits non-zero on any error, lost move or
# disagreement.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DAGAZ_TEST_POSTGRES:-}" ]; then
    exec scripts/with-postgres.sh scripts/cluster.sh "$@"
fi
seconds=${1:-60}
players=${2:-100}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 6 ] || [ "$seconds" -gt 600 ]; then
    echo "give 6 to 600 seconds" >&2
    exit 2
fi
if ! [[ "$players" =~ ^[0-9]+$ ]] || [ "$players" -lt 10 ] || [ "$players" -gt 500 ]; then
    echo "give 10 to 500 players" >&2
    exit 2
fi
ai=$((players / 10))
cargo build --release --quiet -p dagaz-cli --bin dagaz --example load
dir=$(mktemp -d)
pids=()
client=""
trap 'kill "${pids[@]}" $client 2>/dev/null || true; rm -rf "$dir"' EXIT
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ports=("$(free_port)" "$(free_port)" "$(free_port)")
start_instance() {
    local i=$1
    target/release/dagaz serve --addr "127.0.0.1:${ports[$i]}" --db "$DAGAZ_TEST_POSTGRES" \
        --think-threads 1 --max-think 2 > "$dir/server$i.log" 2>&1 &
    pids[$i]=$!
    for _ in $(seq 100); do
        grep -q "serving on" "$dir/server$i.log" 2>/dev/null && return
        sleep 0.1
    done
    echo "instance $i did not start:" >&2
    cat "$dir/server$i.log" >&2
    exit 1
}
for i in 0 1 2; do start_instance "$i"; done
bases=$(printf 'http://127.0.0.1:%s,' "${ports[@]}")
echo "== 3 instances of dagaz serve on one PostgreSQL, $(nproc) cores shared with the database and the load; ${seconds} s"
target/release/examples/load --base "${bases%,}" --players $((players - ai)) --ai "$ai" \
    --seconds "$seconds" --engine ab:0.5s > "$dir/load.out" &
client=$!
sleep $((seconds / 3))
echo "== kill -9 instance 1 mid-run"
kill -9 "${pids[1]}"
wait "${pids[1]}" 2>/dev/null || true
sleep $((seconds / 3))
echo "== instance 1 started again"
start_instance 1
status=0
wait "$client" || status=$?
cat "$dir/load.out"
echo "== the database"
psql -X -q -t -A "$DAGAZ_TEST_POSTGRES" -c "
    SELECT 'matches ' || (SELECT count(*) FROM matches)
        || ', moves ' || (SELECT count(*) FROM moves)
        || ', matches whose moves have a gap or a wrong count '
        || (SELECT count(*) FROM matches m WHERE
                (SELECT count(*) FROM moves WHERE match_id = m.id)
                <> COALESCE((SELECT max(ply) + 1 FROM moves WHERE match_id = m.id), 0))" |
    tee "$dir/db.out"
grep -q "gap or a wrong count 0$" "$dir/db.out" || status=1
exit $status
