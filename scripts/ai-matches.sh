#!/usr/bin/env bash
# The AI benchmark of docs/ai.md: alpha-beta at 0.2 s a move against the
# random mover, 100 games per game, then the two search engines against
# each other. Takes about an hour with two threads.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${THREADS:-2}
games=${GAMES:-100}
cargo build --release --quiet
for game in chess checkers xiangqi shogi fanorona kalah; do
  echo "== $game: ab:0.2s against random"
  target/release/dagaz match "$game" --a ab:0.2s --b random --games "$games" \
    --threads "$threads" --seed 1 | tail -n 3
done
for game in chess checkers; do
  echo "== $game: ab:0.2s against mcts:0.2s"
  target/release/dagaz match "$game" --a ab:0.2s --b mcts:0.2s --games "$games" \
    --threads "$threads" --seed 1 --openings 2 | tail -n 3
done
for spec in "connect-four ab:0.1s" "breakthrough ab:0.1s" "reversi ab:0.1s" "hex mcts:0.2s"; do
  set -- $spec
  echo "== $1: $2 against random"
  target/release/dagaz match "$1" --a "$2" --b random --games "$games" \
    --threads "$threads" --openings 2 --seed 11 | tail -n 3
done
