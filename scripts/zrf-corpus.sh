#!/usr/bin/env bash
# Loads every .zrf file under DIR and, for each game and variant of it,
# plays 20 games between random players (each to its end, or drawn at 300
# plies). A game whose first player has no legal move at the start does
# not play. Prints one table row per game: file, variant, title, whether it
# loaded, whether it played, and the first error. A summary line follows.
#
#   scripts/zrf-corpus.sh ../shared/zrf > corpus.md
#
# Environment: DAGAZ (the binary; default target/release/dagaz, built if
# missing), GAMES (games per variant, default 20), LIMIT (seconds per
# variant, default 120).
set -u
dir=${1:?usage: scripts/zrf-corpus.sh DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
dagaz=${DAGAZ:-$root/target/release/dagaz}
games=${GAMES:-20}
limit=${LIMIT:-120}
if [ ! -x "$dagaz" ]; then
  (cd "$root" && cargo build --release -q -p dagaz-cli) || exit 1
fi

files=0; files_ok=0; variants=0; loaded=0; played=0
echo "| file | variant | title | loads | plays | first error |"
echo "|---|---|---|---|---|---|"
# One line of an error message, fit for a table cell.
cell() { head -n 1 | sed 's/|/\\|/g' | cut -c1-160; }
while IFS= read -r f; do
  files=$((files + 1))
  rel=${f#"$dir"/}
  list=$("$dagaz" import "$f" 2>&1 >/dev/null)
  entries=$(printf '%s\n' "$list" | sed -n 's/^.*: game \([0-9]*\): \(.*\)$/\1\t\2/p')
  if [ -z "$entries" ]; then
    variants=$((variants + 1))
    echo "| $rel | - | - | no | no | $(printf '%s\n' "$list" | grep -v '^$' | cell) |"
    continue
  fi
  all_ok=1
  while IFS=$'\t' read -r index title; do
    variants=$((variants + 1))
    game="$f:$index"
    if err=$(timeout "$limit" "$dagaz" check "$game" 2>&1 >/dev/null); then
      loaded=$((loaded + 1))
      # A game whose first player has no move at the start does not play.
      first=$(timeout "$limit" "$dagaz" moves "$game" 2>&1)
      if printf '%s\n' "$first" | grep -q '^no legal moves'; then
        out="no legal moves at the start ($(printf '%s\n' "$first" | head -n 1))"
        status=1
      else
        out=$(timeout "$limit" "$dagaz" match "$game" --a random --b random \
          --games "$games" --max-plies 300 2>&1)
        status=$?
      fi
      if [ $status -eq 0 ]; then
        played=$((played + 1))
        echo "| $rel | $index | $title | yes | yes | |"
      else
        all_ok=0
        [ $status -eq 124 ] && out="timed out after ${limit} s"
        echo "| $rel | $index | $title | yes | no | $(printf '%s\n' "$out" | grep -iv '^after game' | grep -v '^$' | tail -n 1 | cell) |"
      fi
    else
      all_ok=0
      echo "| $rel | $index | $title | no | no | $(printf '%s\n' "$err" | grep -v '^$' | cell) |"
    fi
  done <<< "$entries"
  [ $all_ok -eq 1 ] && files_ok=$((files_ok + 1))
done < <(find "$dir" -name '*.zrf' | sort)
pct() { echo "$(( (200 * $1 / ($2 > 0 ? $2 : 1) + 1) / 2 ))%"; }
echo
echo "files: $files, every game of the file plays: $files_ok ($(pct "$files_ok" "$files")); games and variants: $variants, loaded: $loaded ($(pct "$loaded" "$variants")), played: $played ($(pct "$played" "$variants"))"
