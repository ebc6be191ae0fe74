#!/usr/bin/env python3
"""dagaz as a USI (shogi) engine, driven by a real client: cshogi's USI
engine class (a test tool only). Plays whole games of shogi, dagaz against
itself, checking every move the engine sends against cshogi's own rules,
until cshogi sees the game over (or a repetition, or the ply limit); then
sends a position by SFEN. Exits non-zero on any fault.

    python scripts/usi-client.py [--engine target/debug/dagaz] [--games 1]
"""

import argparse
import atexit
import os
import shutil
import stat
import sys
import tempfile

import cshogi
import cshogi.usi


def launcher(engine):
    """cshogi starts an engine without arguments: a script that runs
    `dagaz usi`."""
    directory = tempfile.mkdtemp(prefix="dagaz-usi-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    path = os.path.join(directory, "dagaz-usi")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nexec {os.path.abspath(engine)} usi\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def play_game(engine, byoyomi, max_plies):
    board = cshogi.Board()
    moves = []
    engine.usinewgame()
    while not board.is_game_over() and len(moves) < max_plies:
        if board.is_draw() in (cshogi.REPETITION_DRAW, cshogi.REPETITION_WIN, cshogi.REPETITION_LOSE):
            return moves, "repetition"
        engine.position(moves=moves)
        best, _ = engine.go(byoyomi=byoyomi)
        if best in ("resign", "win"):
            return moves, best
        move = board.move_from_usi(best)
        if not board.is_legal(move):
            raise SystemExit(f"illegal move {best} after {' '.join(moves)}")
        board.push(move)
        moves.append(best)
    return moves, "game over" if board.is_game_over() else "ply limit"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/debug/dagaz")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--byoyomi", type=int, default=30, help="milliseconds per move")
    args = parser.parse_args()
    engine = cshogi.usi.Engine(launcher(args.engine))
    assert engine.name.startswith("dagaz"), engine.name
    engine.isready()
    for g in range(args.games):
        moves, end = play_game(engine, args.byoyomi, 300)
        print(f"game {g + 1}: {len(moves)} plies legal by cshogi, ended by {end}")
    # A position by SFEN: Black to move can take the Gold with check.
    engine.position(sfen="sfen 4k4/4g4/4P4/9/9/9/9/9/4K4 b - 1")
    best, _ = engine.go(byoyomi=args.byoyomi)
    board = cshogi.Board("4k4/4g4/4P4/9/9/9/9/9/4K4 b - 1")
    assert board.is_legal(board.move_from_usi(best)), best
    print(f"from an SFEN: {best}")
    engine.quit()
    print("all moves legal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
