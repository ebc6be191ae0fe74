#!/usr/bin/env python3
"""Perft counts from Fairy-Stockfish (the `pyffish` package), for the games
dagaz shares with it: writes crates/dagaz/tests/data/pyffish-perft.tsv.

    python3 -m venv /tmp/ffish && /tmp/ffish/bin/pip install pyffish==0.0.90
    /tmp/ffish/bin/python scripts/pyffish-perft.py > crates/dagaz/tests/data/pyffish-perft.tsv

pyffish is used here as a test oracle only; dagaz never runs it. Its
positions are given by a FEN and a move list, so perft replays the moves
from the start of each branch.
"""

import pyffish as sf

# dagaz game, Fairy-Stockfish variant, depths.
ROWS = [
    ("breakthrough", "breakthrough", [1, 2, 3, 4]),
    ("clobber", "clobber", [1, 2, 3]),
    ("ataxx", "ataxx", [1, 2, 3, 4]),
    ("amazons", "amazons", [1, 2]),
    ("chess:placement", "placement", [1, 2, 3]),
    ("chess:racing-kings", "racingkings", [1, 2, 3, 4]),
]


def perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main():
    version = ".".join(str(v) for v in sf.version())
    source = f"pyffish {version} (Fairy-Stockfish), scripts/pyffish-perft.py"
    # Every row counts from the variant's starting position (the game's
    # setup in dagaz).
    print("game\tfen\tdepth\tnodes\tsource")
    for game, variant, depths in ROWS:
        fen = sf.start_fen(variant)
        for depth in depths:
            print(f"{game}\t{fen}\t{depth}\t{perft(variant, fen, [], depth)}\t{source}", flush=True)


if __name__ == "__main__":
    main()
