#!/usr/bin/env python3
"""Perft speed of every built-in game, for one `dagaz` binary or two side
by side (a build before a change and one after), in one run.

For each game (top-level names of `dagaz list`, or those given with
--games) the script finds the deepest depth at which perft from the setup
takes at most --budget seconds with the first binary, then times both binaries
at that depth, alternating, --rounds times, and keeps each one's best
time. It prints a Markdown table: nodes, nodes per second of each binary
and the ratio after / before. The node counts must agree.

    python3 scripts/perft-speed.py BEFORE [AFTER] [--budget 1.0] [--rounds 3]

The machines these run on are noisy virtual machines: compare the ratio
column, measured in one run, rather than absolute figures across days.
With --instructions the two binaries are compared by the instructions
their perft executes (valgrind's callgrind, loading the game included),
which do not vary from run to run: before / after, so that a game the
change slows down shows below 1 as in the timed table.
"""

import argparse
import re
import subprocess
import sys


def perft(binary, game, depth, timeout):
    """(nodes, seconds) of one perft run, or None if it failed or timed out."""
    try:
        out = subprocess.run(
            [binary, "perft", game, str(depth)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return None
    nodes = re.search(r"^nodes (\d+)", out.stdout, re.M)
    time = re.search(r"^time ([\d.]+) s", out.stdout, re.M)
    if not nodes or not time:
        return None
    return int(nodes.group(1)), float(time.group(1))


def instructions(binary, game, depth):
    """Instructions executed by one perft run under callgrind."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         binary, "perft", game, str(depth)],
        capture_output=True,
        text=True,
    )
    found = re.search(r"refs:\s+([\d,]+)", out.stderr)
    if out.returncode != 0 or not found:
        sys.exit(f"{binary} failed on {game} at depth {depth} under callgrind")
    return int(found.group(1).replace(",", ""))


def games_of(binary):
    listing = subprocess.run([binary, "list"], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in listing.stdout.splitlines() if line and not line[0].isspace()]


def choose_depth(binary, game, budget, max_depth):
    """The deepest depth whose perft takes at most `budget` seconds (at
    least depth 1), with its count and time."""
    chosen = None
    for depth in range(1, max_depth + 1):
        run = perft(binary, game, depth, timeout=10 * budget + 30)
        if run is None or (chosen is not None and run[1] > budget):
            break
        chosen = (depth, run)
        if run[0] == 0 or run[1] * 4 > budget:
            # The next depth would take more than the budget (a branching
            # factor of at least 4).
            break
    return chosen


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="the dagaz binary to measure (or the one before a change)")
    ap.add_argument("after", nargs="?", help="a second dagaz binary, timed beside the first")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds a perft may take at most")
    ap.add_argument("--rounds", type=int, default=3, help="runs per binary (the best counts)")
    ap.add_argument("--games", help="comma-separated games (default: every built-in game)")
    ap.add_argument("--max-depth", type=int, default=8)
    ap.add_argument("--instructions", action="store_true",
                    help="compare instruction counts (callgrind) instead of times")
    args = ap.parse_args()
    if args.instructions and not args.after:
        sys.exit("--instructions compares two binaries")

    binaries = [args.before] + ([args.after] if args.after else [])
    games = args.games.split(",") if args.games else games_of(args.before)
    columns = ["before n/s", "after n/s", "after / before"] if args.after else ["n/s"]
    if args.instructions:
        columns = ["before instructions", "after instructions", "before / after"]
    head = "| game | depth | nodes | " + " | ".join(columns) + " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    ratios = []
    for game in games:
        found = choose_depth(args.before, game, args.budget, args.max_depth)
        if found is None:
            print(f"| {game} | – | – | failed |", flush=True)
            continue
        depth, (nodes, _) = found
        if args.instructions:
            counts = [instructions(b, game, depth) for b in binaries]
            ratio = counts[0] / counts[1]
            ratios.append(ratio)
            print(f"| {game} | {depth} | {nodes:,} | {counts[0]:,} | {counts[1]:,} | {ratio:.3f} |",
                  flush=True)
            continue
        best = [float("inf")] * len(binaries)
        for _ in range(args.rounds):
            for i, binary in enumerate(binaries):
                run = perft(binary, game, depth, timeout=600)
                if run is None:
                    sys.exit(f"{binary} failed on {game} at depth {depth}")
                if run[0] != nodes:
                    sys.exit(f"{game} depth {depth}: {binary} counts {run[0]}, expected {nodes}")
                best[i] = min(best[i], max(run[1], 1e-6))
        speeds = [nodes / t for t in best]
        cells = [f"{s:,.0f}" for s in speeds]
        if args.after:
            ratio = speeds[1] / speeds[0]
            ratios.append(ratio)
            cells.append(f"{ratio:.2f}")
        print(f"| {game} | {depth} | {nodes:,} | " + " | ".join(cells) + " |", flush=True)
    if ratios:
        ratios.sort()
        print(
            f"\n{len(ratios)} games; {columns[-1]}: lowest {ratios[0]:.2f}, "
            f"median {ratios[len(ratios) // 2]:.2f}, highest {ratios[-1]:.2f}"
        )


if __name__ == "__main__":
    main()
