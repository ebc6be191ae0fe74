#!/usr/bin/env bash
# Speed benchmarks, printed side by side with a hand-written reference
# (the cozy-chess crate) from the same run. See docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench perft
echo
echo "== random playouts (chess, to the end, 50-move rule)"
cargo bench --bench playouts
echo
echo "== dagaz perft chess 6 (single thread, every leaf made)"
cargo run --release --quiet -- perft chess 6
