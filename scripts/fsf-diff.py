#!/usr/bin/env python3
"""Differential test of dagaz against Fairy-Stockfish (the `pyffish`
package, a test oracle only): for every variant the two share, random
positions from random games, perft in both, and on a mismatch the
position narrowed down to the move where they differ. The SAN of every
legal move of those positions is compared too (`get_san`), where dagaz
writes SAN records.

    python scripts/fsf-diff.py [--positions N] [--depth D] [--seed S] [--variants a,b]
    python scripts/fsf-diff.py --game games/fairy/knightmate.toml --fsf knightmate

Needs the `dagaz` Python package (python/) and `pyffish` in the same
environment; `.ci/run` installs both. Positions come from Fairy-Stockfish's
own random games: both programs start from its position string of the
root, and below the root Fairy-Stockfish is given the moves played since
(not a new position string at every node), so rules that look at the moves
of the tree — two passes in a row end a janggi game — are compared too.
"""

import argparse
import atexit
import multiprocessing
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pyffish as sf

import dagaz

# The variants both play: Fairy-Stockfish's name, the dagaz game, the
# deepest perft depth compared (0: published counts only, as for janggi,
# whose pass rule needs the game's history that a FEN does not carry), the
# most plies of the random games. One table serves this script and the
# Rust tests.
TABLE = Path(__file__).resolve().parent.parent / "games/fairy-stockfish.tsv"


def variants_table():
    rows = [line.split("\t") for line in TABLE.read_text().splitlines()[1:] if line.strip()]
    return [(game, fsf, int(depth), int(plies)) for fsf, game, depth, plies in rows if int(depth) > 0]


# Fairy-Stockfish plays a pawn drop that mates as a legal move that loses
# (the mated side is scored the winner); shogi's rule, and the published
# shogi perft counts, make it illegal. Such drops are left out of its move
# lists here, as the one known difference of convention.
DROP_MATE_LOSES = {"shogi", "minishogi", "mini", "gorogoro", "euroshogi", "okisakishogi", "judkins", "torishogi"}


# Variants whose games start from a shuffled first rank (Chess960 rules:
# Bishops on both colours, the King between the Rooks); Fairy-Stockfish
# is told so, and writes castling as the King taking its Rook. A name
# `NAME@960` in the table is Fairy-Stockfish's NAME in its Chess960 mode.
CHESS960 = {"fischerandom", "caparandom"}


def is960(variant):
    return variant in CHESS960 or variant.endswith("@960")


def base(variant):
    """Fairy-Stockfish's own name of a variant of the table."""
    return variant.removesuffix("@960")


def legal(variant, fen, moves):
    return sf.legal_moves(base(variant), fen, moves, is960(variant))


def after(variant, fen, moves):
    return sf.get_fen(base(variant), fen, moves, is960(variant))


def shuffled_start(variant, rng):
    """A random Chess960-style setup of `variant`'s usual pieces."""
    board, rest = sf.start_fen(base(variant)).split(" ", 1)
    board, bracket, hand = board.partition("[")
    rows = board.split("/")
    back = list(rows[-1])
    while True:
        rng.shuffle(back)
        bishops = [i for i, p in enumerate(back) if p == "B"]
        rooks = [i for i, p in enumerate(back) if p == "R"]
        king = back.index("K")
        if len({i % 2 for i in bishops}) == len(bishops) and rooks[0] < king < rooks[-1]:
            break
    rows[0], rows[-1] = "".join(back).lower(), "".join(back)
    fields = rest.split(" ")
    if set(fields[1]) - set("KQkq-"):
        # Gating rights (Seirawan chess): every first-rank square, by file.
        files = "abcdefghijkl"[:len(back)]
        fields[1] = files.upper() + files
    return "/".join(rows) + bracket + hand + " " + " ".join(fields)


def fsf_moves(variant, fen, played=()):
    """Fairy-Stockfish's legal moves after the moves `played` from `fen`."""
    played = list(played)
    moves = legal(variant, fen, played)
    if variant not in DROP_MATE_LOSES:
        return moves
    return [m for m in moves if not (drop_like(m) and drop_mate(variant, fen, played, m))]


def drop_like(move):
    return "@" in move and move[0].upper() in DROP_MATE_PIECES


# The pieces whose mating drops are illegal in the shogi family (the
# swallow of tori shogi, the pawn of the others).
DROP_MATE_PIECES = {"P", "S"}


def drop_mate(variant, fen, played, move):
    after_drop = played + [move]
    return not legal(variant, fen, after_drop) and sf.game_result(base(variant), fen, after_drop, is960(variant)) > 0


# Where dagaz's SAN differs from Fairy-Stockfish's on purpose, and why.
# The shogi family's records are KIF and USI, not SAN; Fairy-Stockfish
# names its promoted pieces by other pieces' letters (a tokin is `G`).
SAN_SKIP = {"judkins", "gorogoro", "yarishogi", "okisakishogi", "checkshogi", "euroshogi",
            "shoshogi", "torishogi", "kyotoshogi", "micro", "dobutsu",
            # Moves that also place a wall or an arrow, and Ataxx's clones
            # and flips: dagaz writes them in its move text.
            "amazons", "isolation", "isolation7x7", "snailtrail", "joust", "ataxx"}
# Fairy-Stockfish marks no check where its King is not royal in its own
# terms (a piece whose loss ends the game: atomic, whose lichess records
# do mark checks, and petrified), for coregal's royal Queen, and for one
# of spartan's two Kings. In fortress (mobility regions) its SAN marks
# check by a piece standing outside its region, whose moves (and so its
# attacks) the region forbids: after 27. f8=N in
# 1nb4r/r1pk1Pnp/1p2p1p1/pp1P2b1/2P5/PQ5P/5P2/RNB1K1NR w - - 1 27 it writes
# `f8=N+`, while its own `gives_check` says no and Black's legal replies
# include c8b7, which no check allows.
SAN_NO_CHECK_MARKS = {"chess:atomic", "chess:atomic960", "chess:nocheckatomic", "petrified",
                      "coregal", "spartan", "fortress"}


def compare_san(game, name, variant, fen):
    """Lines naming the legal moves of `fen` whose SAN differs. Games with
    shogi-style promoted pieces (`+P`) are the shogi family: not compared
    (see SAN_SKIP)."""
    if any(symbol.startswith("+") for symbol in game.symbols):
        return []
    session = game.new_session(fen)
    try:
        ours = session.san_moves()
    except dagaz.DagazError:
        return []
    theirs_legal = set(fsf_moves(variant, fen))
    lines = []
    for move, san in zip(session.legal_moves(), ours):
        uci = fsf_text(move.text)
        if uci not in theirs_legal:
            continue
        theirs = sf.get_san(base(variant), fen, uci, is960(variant), sf.NOTATION_SAN)
        if name in SAN_NO_CHECK_MARKS:
            san = san.rstrip("+#")
            theirs = theirs.rstrip("+#")
        if san != theirs:
            lines.append(f"  SAN of {uci}: dagaz {san}, Fairy-Stockfish {theirs}")
    return lines


def fsf_perft(variant, fen, depth, played=()):
    moves = fsf_moves(variant, fen, played)
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(variant, fen, depth - 1, tuple(played) + (m,)) for m in moves)


def dagaz_perft(game, fen, depth):
    return game.new_session(fen).perft(depth)


def random_position(variant, rng, plies):
    """A position of a random game of `variant` (None if even its start has
    no moves)."""
    start = shuffled_start(variant, rng) if is960(variant) else sf.start_fen(variant)
    moves = []
    for _ in range(rng.randrange(plies + 1)):
        choices = legal(variant, start, moves)
        if not choices:
            break
        moves.append(rng.choice(choices))
    # A game that ended gives the last position before its end.
    while True:
        fen = after(variant, start, moves)
        if fsf_moves(variant, fen):
            return fen
        if not moves:
            return None
        moves.pop()


def fsf_text(move):
    """A dagaz move in Fairy-Stockfish's spelling (drops: `P@e4`; gating:
    `b1c3/Eb1` is `b1c3e`, a castling that gates on the Rook's square,
    `e1g1/Hh1`, is `h1e1h`)."""
    move = move.replace("*", "@")
    if "," in move:
        # The duck's square (`e2e4,e6`), which Fairy-Stockfish writes as a
        # second move from the landing square: `e2e4,e4e6`.
        base, duck = move.split(",", 1)
        landing = re.findall(r"[a-z]+[0-9]+", base)[-1]
        return f"{base},{landing}{duck}"
    if "/" in move:
        base, gate = move.split("/", 1)
        piece, square = gate[0].lower(), gate[1:]
        return base + piece if base.startswith(square) else square + base[:2] + piece
    placed = re.fullmatch(r"([a-z]+[0-9]+)-([a-z]+[0-9]+)-([a-z]+[0-9]+)", move)
    if placed:
        # A move that then places a piece (`place:`): a wall or an arrow
        # from the landing square (`c1-b1-a1` is `c1b1,b1a1`), or, where
        # the piece stays, sittuyin's promotion (`d5-d5-c4` is `d5c4f`).
        start, landing, put = placed.groups()
        if start == landing:
            return f"{start}{put}f"
        return f"{start}{landing},{landing}{put}"
    return move


def narrow(game, variant, fen, depth):
    """Follows the first move whose subtree differs down to depth 1, making
    the moves in dagaz (so a difference in making a move shows as well as
    one in generating); returns a report."""
    lines = [f"  from: {fen}"]
    root, played = fen, []
    session = game.new_session(fen)
    while depth > 1:
        theirs = set(fsf_moves(variant, root, played))
        for m in session.legal_moves():
            text = fsf_text(m.text)
            if text not in theirs:
                continue
            session.push(m)
            ours = session.perft(depth - 1)
            expected = fsf_perft(variant, root, depth - 1, played + [text])
            if ours != expected:
                played.append(text)
                fen = after(variant, root, played)
                lines.append(f"  after {text}: {fen}  dagaz {ours}, Fairy-Stockfish {expected}"
                             f"  (dagaz's position: {session.fen()})")
                depth -= 1
                break
            session.pop()
        else:
            break
        if not lines[-1].startswith(f"  after {text}"):
            break
    theirs = sorted(fsf_moves(variant, root, played))
    ours = sorted(fsf_text(m.text) for m in session.legal_moves())
    lines.append(f"  position: {fen}")
    lines.append(f"  only dagaz: {' '.join(sorted(set(ours) - set(theirs))) or '-'}")
    lines.append(f"  only Fairy-Stockfish: {' '.join(sorted(set(theirs) - set(ours))) or '-'}")
    lines.append(f"  dagaz ({len(ours)}): {' '.join(ours)}")
    lines.append(f"  Fairy-Stockfish ({len(theirs)}): {' '.join(theirs)}")
    lines.append(f"  reproduce: dagaz moves '{game.name}' --fen '{session.fen()}'")
    return "\n".join(lines)


def imported_variants(ini, depth, plies):
    """The sections of `ini` both programs load: (game file, section, depth,
    plies). The game files are the importer's, in a temporary directory."""
    text = ini.read_text()
    sf.load_variant_config(text)
    directory = Path(tempfile.mkdtemp(prefix="dagaz-import-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    out = []
    for name, game, problems in dagaz.import_variants(text):
        for problem in problems:
            print(f"{ini.name} [{name}] {problem}")
        if game is None:
            print(f"{ini.name} [{name}] not converted: not compared")
            continue
        if name not in sf.variants():
            print(f"{ini.name} [{name}] Fairy-Stockfish did not load it: not compared")
            continue
        path = directory / f"{name}.toml"
        path.write_text(game)
        out.append((str(path), name, depth, plies))
    return out


def compare(task):
    """Compares one variant on its random positions; returns the lines to
    print and the number of differences."""
    name, variant, deepest, plies, seed, positions, max_depth, label = task
    lines, failures = [], 0
    game = dagaz.Game(name)
    rng = random.Random(f"{seed}-{variant}")
    depth = min(max_depth, deepest)
    started, checked, nodes = time.time(), 0, 0
    for _ in range(positions):
        fen = random_position(variant, rng, plies)
        if fen is None:
            continue
        try:
            ours = dagaz_perft(game, fen, depth)
        except dagaz.DagazError as e:
            failures += 1
            lines.append(f"FAIL {label}: dagaz refuses {fen}: {e}")
            continue
        theirs = fsf_perft(variant, fen, depth)
        if name not in SAN_SKIP and Path(name).stem not in SAN_SKIP:
            san = compare_san(game, name, variant, fen)
            if san:
                failures += 1
                lines.append(f"FAIL {label} SAN at {fen}")
                lines.extend(san[:10])
        checked += 1
        nodes += theirs
        if ours != theirs:
            failures += 1
            lines.append(f"FAIL {label} depth {depth}: dagaz {ours}, Fairy-Stockfish {theirs}")
            lines.append(narrow(game, variant, fen, depth))
    lines.append(f"{label:<24} {checked:>4} positions at depth {depth}, {nodes:>9} nodes, "
                 f"{time.time() - started:5.1f} s")
    return lines, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20, help="random positions per variant")
    parser.add_argument("--depth", type=int, default=2, help="perft depth (capped per variant)")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: the time)")
    parser.add_argument("--variants", default="", help="comma-separated dagaz names (default: all)")
    parser.add_argument("--game", help="a dagaz game (name or file) to compare instead of the list")
    parser.add_argument("--fsf", help="with --game: the Fairy-Stockfish variant it plays")
    parser.add_argument("--plies", type=int, default=60, help="with --game or --ini: most plies of the random games")
    parser.add_argument("--ini", help="a variants.ini: compare its sections, converted by dagaz's importer, "
                        "with Fairy-Stockfish loaded with the same file")
    parser.add_argument("--jobs", type=int, default=1, help="variants compared at once (processes)")
    args = parser.parse_args()
    variants = variants_table()
    if args.ini:
        variants = imported_variants(Path(args.ini), args.depth, args.plies)
    if args.game:
        if not args.fsf:
            parser.error("--game needs --fsf")
        variants = [(args.game, args.fsf, args.depth, args.plies)]
    seed = args.seed if args.seed is not None else int(time.time())
    wanted = set(filter(None, args.variants.split(",")))
    print(f"Fairy-Stockfish {'.'.join(map(str, sf.version()))}; seed {seed}; "
          f"{args.positions} positions per variant, depth up to {args.depth}", flush=True)
    tasks = [
        (name, variant, deepest, plies, seed, args.positions, args.depth,
         Path(name).stem if args.ini else name)
        for name, variant, deepest, plies in variants
        if not wanted or name in wanted or Path(name).stem in wanted
    ]
    failures = 0
    # Workers are forked, so they share Fairy-Stockfish's loaded variants.
    jobs = max(1, min(args.jobs, 16))
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    results = pool.imap(compare, tasks) if pool else map(compare, tasks)
    for lines, failed in results:
        failures += failed
        for line in lines:
            print(line, flush=True)
    if pool:
        pool.close()
    print("all equal" if failures == 0 else f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
