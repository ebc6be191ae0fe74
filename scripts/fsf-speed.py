#!/usr/bin/env python3
"""Perft speed of dagaz beside Fairy-Stockfish's, in one run.

Fairy-Stockfish (Debian's `fairy-stockfish` package, a test oracle only,
never shipped) answers `go perft N` over UCI; the script times that from
the command to its "Nodes searched" line, and times `dagaz perft` on the
same game from the same setup at the same depth. Both must count the same
nodes. Each engine runs --rounds times; the best time counts.

Note what is compared: Fairy-Stockfish's perft counts the last ply in bulk
(the length of the legal move list, no move made), while `dagaz perft`
makes every leaf move. The ratio therefore flatters Fairy-Stockfish;
it is the gap a user sees, not the cost per made move.

    python3 scripts/fsf-speed.py [--dagaz target/release/dagaz]
        [--fsf fairy-stockfish] [--rounds 3]
"""

import argparse
import re
import shutil
import subprocess
import sys
import time

# (dagaz game, Fairy-Stockfish variant, depth)
GAMES = [
    ("chess", "chess", 5),
    ("xiangqi", "xiangqi", 4),
    ("shogi", "shogi", 4),
    ("janggi", "janggi", 4),
]


def dagaz_perft(binary, game, depth):
    out = subprocess.run([binary, "perft", game, str(depth)], capture_output=True, text=True, check=True)
    nodes = int(re.search(r"^nodes (\d+)", out.stdout, re.M).group(1))
    secs = float(re.search(r"^time ([\d.]+) s", out.stdout, re.M).group(1))
    return nodes, secs


class Fsf:
    """A Fairy-Stockfish process spoken to over UCI."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish stopped")
            if line.startswith(prefix):
                return line

    def perft(self, variant, depth):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("position startpos")
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.wait_for("Nodes searched")
        secs = time.perf_counter() - start
        return int(line.split(":")[1]), secs

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dagaz", default="target/release/dagaz")
    ap.add_argument("--fsf", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    fsf = Fsf(args.fsf)
    print("| game | depth | nodes | dagaz n/s | Fairy-Stockfish n/s | FSF / dagaz |")
    print("|---|---|---|---|---|---|")
    for game, variant, depth in GAMES:
        ours, theirs = float("inf"), float("inf")
        for _ in range(args.rounds):
            n_ours, t = dagaz_perft(args.dagaz, game, depth)
            ours = min(ours, t)
            n_theirs, t = fsf.perft(variant, depth)
            theirs = min(theirs, t)
            if n_ours != n_theirs:
                sys.exit(f"{game} depth {depth}: dagaz {n_ours}, Fairy-Stockfish {n_theirs}")
        a, b = n_ours / ours, n_ours / theirs
        print(f"| {game} | {depth} | {n_ours:,} | {a:,.0f} | {b:,.0f} | {b / a:.1f} |", flush=True)
    fsf.close()


if __name__ == "__main__":
    main()
