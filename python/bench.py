"""Random chess playouts driven from Python: dagaz beside python-chess and
pyffish (Fairy-Stockfish), in one process.

    python python/bench.py [SECONDS]

Each playout starts from the initial position and plays uniformly random
legal moves until the game is over by the library's own rules or 300
plies have been played. Reported: playouts and plies per second. The
plies per second are the fairer comparison: the libraries end games by
slightly different rules (python-chess: insufficient material, the 75-move
and fivefold-repetition rules; dagaz: checkmate, stalemate, the 50-move
rule and threefold repetition; pyffish: as Fairy-Stockfish adjudicates).
"""

import random
import sys
import time

MAX_PLIES = 300


def dagaz_moves(seconds):
    import dagaz

    game = dagaz.Game("chess")
    rng = random.Random(1)
    return run(seconds, lambda: dagaz_playout(game, rng))


def dagaz_playout(game, rng):
    s = game.new_session()
    plies = 0
    while plies < MAX_PLIES:
        moves = s.legal_moves()
        if not moves:
            break
        s.push(rng.choice(moves))
        plies += 1
    return plies


def dagaz_actions(seconds):
    import dagaz

    game = dagaz.Game("chess")
    rng = random.Random(1)

    def playout():
        s = game.new_session()
        plies = 0
        while plies < MAX_PLIES and not s.is_over:
            s.push_action(rng.choice(s.legal_actions()))
            plies += 1
        return plies

    return run(seconds, playout)


def python_chess(seconds):
    import chess

    rng = random.Random(1)

    def playout():
        board = chess.Board()
        plies = 0
        while plies < MAX_PLIES and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        return plies

    return run(seconds, playout)


def pyffish(seconds):
    import pyffish as sf

    rng = random.Random(1)
    start = sf.start_fen("chess")

    def playout():
        fen = start
        plies = 0
        while plies < MAX_PLIES:
            moves = sf.legal_moves("chess", fen, [])
            if not moves or sf.is_optional_game_end("chess", fen, [])[0]:
                break
            fen = sf.get_fen("chess", fen, [rng.choice(moves)])
            plies += 1
        return plies

    return run(seconds, playout)


def run(seconds, playout):
    playouts = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        plies += playout()
        playouts += 1
    elapsed = time.perf_counter() - started
    return playouts / elapsed, plies / elapsed


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    rows = [
        ("dagaz (legal_moves + push)", dagaz_moves),
        ("dagaz (legal_actions + push_action)", dagaz_actions),
        ("python-chess", python_chess),
        ("pyffish", pyffish),
    ]
    print(f"random chess playouts from Python, {seconds:.0f} s each, at most {MAX_PLIES} plies")
    print(f"{'library':<38} {'playouts/s':>10} {'plies/s':>10}")
    for name, bench in rows:
        try:
            per_s, plies_s = bench(seconds)
        except ImportError as e:
            print(f"{name:<38} not installed ({e.name})")
            continue
        print(f"{name:<38} {per_s:>10.1f} {plies_s:>10.0f}")


if __name__ == "__main__":
    main()
