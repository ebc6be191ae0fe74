#!/usr/bin/env python3
"""dagaz as a UCI or XBoard engine, driven by a real client: python-chess's
engine module (a test tool only). Plays whole games of chess, dagaz against
itself, checking every move the engine sends against python-chess's own
rules, until the game ends by python-chess's rules; then has it analyse a
position with a known mate, and plays a game of crazyhouse through
UCI_Variant. Exits non-zero on any fault.

    python scripts/uci-client.py [--engine target/debug/dagaz] [--games 2] [--protocol uci|xboard]
"""

import argparse
import sys

import chess
import chess.engine
import chess.variant


def play_game(engine, board, limit, max_plies):
    """Plays from `board` until the game ends or `max_plies`; every move
    must be legal by python-chess's rules. Returns the moves played."""
    played = []
    while not board.is_game_over(claim_draw=True) and len(played) < max_plies:
        result = engine.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
        played.append(result.move.uci())
    return played


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/debug/dagaz")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--movetime", type=float, default=0.02, help="seconds per move")
    parser.add_argument("--protocol", choices=["uci", "xboard"], default="uci")
    args = parser.parse_args()
    limit = chess.engine.Limit(time=args.movetime)
    popen = chess.engine.SimpleEngine.popen_uci if args.protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    with popen([args.engine, args.protocol]) as engine:
        assert engine.id["name"].startswith("dagaz"), engine.id
        if args.protocol == "uci":
            assert "chess:crazyhouse" in engine.options["UCI_Variant"].var
        for g in range(args.games):
            board = chess.Board()
            moves = play_game(engine, board, limit, 400)
            outcome = board.outcome(claim_draw=True)
            print(f"game {g + 1}: {len(moves)} plies, "
                  f"{outcome.result() if outcome else 'unfinished at 400 plies'}")
        # Scholar's mate in one: the analysis must see it.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        # (XBoard's through its analyze mode.)
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["score"].white() == chess.engine.Mate(1), info
        assert info["pv"][0] == chess.Move.from_uci("h5f7"), info
        print(f"analysis: depth {info['depth']}, {info['score'].white()}, pv {info['pv'][0]}")
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move == chess.Move.from_uci("h5f7"), result
        print(f"mate played: {result.move}")
        board = chess.variant.CrazyhouseBoard()
        moves = play_game(engine, board, limit, 120)
        print(f"crazyhouse: {len(moves)} plies legal by python-chess, "
              f"drops among them: {sum('@' in m for m in moves)}")
    print("all moves legal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
