#!/usr/bin/env python3
"""Perft speed of dagaz beside Fairy-Stockfish's, in one run, on the
variants both play.

    python scripts/fsf-bench.py [--dagaz target/debug/dagaz] [--fsf fairy-stockfish]

Fairy-Stockfish is Debian's `fairy-stockfish` package (a benchmark
reference only, never shipped), driven over UCI (`go perft N`); dagaz is
its command-line binary (`dagaz perft`). Both count the same leaves; the
script checks that the counts agree, then prints nodes per second and the
ratio. Fairy-Stockfish counts the last ply in bulk (the length of the move
list); dagaz makes and takes back every leaf move.
"""

import argparse
import re
import shutil
import subprocess
import sys
import time

# Fairy-Stockfish variant, dagaz game, depth.
CASES = [
    ("chess", "chess", 5),
    ("crazyhouse", "chess:crazyhouse", 4),
    ("atomic", "chess:atomic", 4),
    ("losers", "chess:losers", 5),
    ("antichess", "chess:antichess", 5),
    ("seirawan", "chess:seirawan", 4),
    ("shatranj", "shatranj", 5),
    ("capablanca", "capablanca", 4),
    ("grand", "grand", 3),
    ("xiangqi", "xiangqi", 4),
    ("shogi", "shogi", 4),
    ("janggi", "janggi", 4),
    ("minishogi", "minishogi", 5),
]


class Engine:
    """Fairy-Stockfish over UCI."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.variants = set()
        for line in self.proc.stdout:
            if "UCI_Variant" in line:
                self.variants = set(line.split(" var ")[1:])
                self.variants = {v.split()[0] for v in self.variants}
            if line.startswith("uciok"):
                break

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError("Fairy-Stockfish stopped")

    def perft(self, variant, fen, depth):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"position fen {fen}" if fen else "position startpos")
        self.send("isready")
        self.wait_for("readyok")
        started = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.wait_for("Nodes searched")
        return int(line.split(":")[1]), time.perf_counter() - started

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def dagaz_perft(binary, game, depth):
    out = subprocess.run([binary, "perft", game, str(depth)], capture_output=True,
                         text=True, check=True).stdout
    nodes = int(re.search(r"^nodes (\d+)", out, re.M).group(1))
    seconds = float(re.search(r"^time ([\d.]+) s", out, re.M).group(1))
    return nodes, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dagaz", default="target/debug/dagaz")
    parser.add_argument("--fsf", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    args = parser.parse_args()
    engine = Engine(args.fsf)
    print(f"{'variant':<12} {'depth':>5} {'nodes':>11} {'dagaz n/s':>12} {'FSF n/s':>12} {'ratio':>7}")
    failed = False
    for variant, game, depth in CASES:
        if variant not in engine.variants:
            print(f"{variant:<12} (this Fairy-Stockfish does not play it)")
            continue
        fsf_nodes, fsf_time = engine.perft(variant, None, depth)
        nodes, seconds = dagaz_perft(args.dagaz, game, depth)
        if nodes != fsf_nodes:
            print(f"{variant}: dagaz counts {nodes}, Fairy-Stockfish {fsf_nodes}")
            failed = True
            continue
        ours, theirs = nodes / max(seconds, 1e-9), nodes / max(fsf_time, 1e-9)
        print(f"{variant:<12} {depth:>5} {nodes:>11} {ours:>12.0f} {theirs:>12.0f} {ours / theirs:>7.3f}")
    engine.quit()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
