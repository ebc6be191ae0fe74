#!/usr/bin/env python3
"""Differential test of dagaz against Fairy-Stockfish (the `pyffish`
package, a test oracle only): for every variant the two share, random
positions from random games, perft in both, and on a mismatch the
position narrowed down to the move where they differ. Where dagaz writes
SAN records, the SAN of every move of the random games, and of every
legal move of the first positions, is compared too.

    python scripts/fsf-diff.py [--positions N] [--depth D] [--seed S] [--variants a,b]
    python scripts/fsf-diff.py --game games/fairy/knightmate.toml --fsf knightmate

Needs the `dagaz` Python package (python/) and `pyffish` in the same
environment; `.ci/run` installs both. The random games start from
Fairy-Stockfish's start position and are played by dagaz; Fairy-Stockfish
replays each game (a move it refuses is a difference) and writes the
position string both programs start from. Below the root Fairy-Stockfish
is given the moves played since (not a new position string at every node),
so rules that look at the moves of the tree — two passes in a row end a
janggi game — are compared too.

Every pyffish call costs about 4 ms whatever it asks (it sets its piece
tables up again each time), so the oracle's calls are the run's cost:
`--budget` stops a variant's positions once that many calls are spent (a
variant with thousands of moves a position, as duck chess, then checks
fewer), and `--san-positions` limits the positions whose every legal move's
SAN is compared.
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


# The pyffish calls this process has made (see the module's doc).
CALLS = [0]


def legal(variant, fen, moves):
    CALLS[0] += 1
    return sf.legal_moves(base(variant), fen, moves, is960(variant))


def after(variant, fen, moves):
    CALLS[0] += 1
    return sf.get_fen(base(variant), fen, moves, is960(variant))


def san_of(variant, fen, move):
    CALLS[0] += 1
    return sf.get_san(base(variant), fen, move, is960(variant), sf.NOTATION_SAN)


def sans_of_game(variant, fen, moves):
    CALLS[0] += 1
    return sf.get_san_moves(base(variant), fen, moves, is960(variant), sf.NOTATION_SAN)


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


def writes_san(game, name):
    """Whether `game`'s SAN is compared: not for the SAN_SKIP games, nor
    for games with shogi-style promoted pieces (`+P`), the shogi family."""
    if name in SAN_SKIP or Path(name).stem in SAN_SKIP:
        return False
    return not any(symbol.startswith("+") for symbol in game.symbols)


def same_san(name, ours, theirs):
    if name in SAN_NO_CHECK_MARKS:
        return ours.rstrip("+#") == theirs.rstrip("+#")
    return ours == theirs


def compare_san(game, name, variant, fen):
    """Lines naming the legal moves of `fen` whose SAN differs."""
    session = game.new_session(fen)
    try:
        ours = session.san_moves()
    except dagaz.DagazError:
        return []
    theirs_legal = set(fsf_moves(variant, fen))
    lines = []
    for move, san in zip(session.legal_moves(), ours):
        uci = fsf_text(move, game, variant)
        if uci not in theirs_legal:
            continue
        theirs = san_of(variant, fen, uci)
        if not same_san(name, san, theirs):
            lines.append(f"  SAN of {uci}: dagaz {san}, Fairy-Stockfish {theirs}")
    return lines


def compare_game_san(name, variant, start, moves, ours):
    """Lines naming the moves of a random game whose SAN differs (`ours`:
    dagaz's SAN of each move, None where it writes none)."""
    if not moves or None in ours:
        return []
    theirs = sans_of_game(variant, start, moves)
    return [f"  SAN of move {i + 1}, {move}, from {start}: dagaz {a}, Fairy-Stockfish {b}"
            for i, (move, a, b) in enumerate(zip(moves, ours, theirs)) if not same_san(name, a, b)]


def fsf_perft(variant, fen, depth, played=()):
    moves = fsf_moves(variant, fen, played)
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(variant, fen, depth - 1, tuple(played) + (m,)) for m in moves)


def dagaz_perft(game, fen, depth):
    return game.new_session(fen).perft(depth)


class Refused(Exception):
    """Fairy-Stockfish refuses a move dagaz played."""


def random_game(game, variant, rng, plies, san):
    """A random game of `variant` played by dagaz from Fairy-Stockfish's
    start position: (start, moves in Fairy-Stockfish's spelling, dagaz's
    SAN of each move if `san`, the position string after them), or None if
    even the start has no moves. A game that ended gives the last position
    before its end. Raises Refused, with the place, if Fairy-Stockfish
    refuses one of the moves."""
    start = shuffled_start(variant, rng) if is960(variant) else sf.start_fen(variant)
    session = game.new_session(start)
    moves, sans = [], []
    for _ in range(rng.randrange(plies + 1)):
        choices = [] if session.is_over else session.legal_moves()
        if not choices:
            break
        i = rng.randrange(len(choices))
        if san:
            try:
                sans.append(session.san_moves()[i])
            except dagaz.DagazError:
                sans.append(None)
        moves.append(fsf_text(choices[i], game, variant))
        session.push(choices[i])
    try:
        fen = after(variant, start, moves)
    except Exception:  # pyffish raises SystemError on a move it refuses
        raise Refused(refused_move(variant, start, moves)) from None
    while not fsf_moves(variant, fen):
        if not moves:
            return None
        moves.pop()
        del sans[len(moves):]
        fen = after(variant, start, moves)
    return start, moves, sans, fen


def refused_move(variant, start, moves):
    """Where Fairy-Stockfish refuses the first move of `moves`."""
    for i, move in enumerate(moves):
        theirs = legal(variant, start, moves[:i])
        if move not in theirs:
            fen = after(variant, start, moves[:i])
            return (f"  dagaz played {move} in {fen} (after {' '.join(moves[:i]) or 'no moves'} "
                    f"from {start});\n  Fairy-Stockfish's moves there: {' '.join(sorted(theirs))}")
    return f"  Fairy-Stockfish refuses the game {' '.join(moves)} from {start}"


# Variants whose one-step moves Fairy-Stockfish writes as drops on the
# landing square (Ataxx's clones: dagaz's `a7a6` is `P@a6`).
STEPS_AS_DROPS = {"ataxx"}

# A move in USI's squares (shogi, minishogi): files counted from the
# right, ranks lettered from the top.
USI_MOVE = re.compile(r"(?:([A-Z])\*)?(\d+[a-z])?(\d+)([a-z])(\+?)")

# A move from one square to another, with a promotion letter and the
# captured squares its landing does not imply (en passant's `e5d6xd5`,
# petrified chess's `f8xb4xb4`), which Fairy-Stockfish does not write.
PLAIN_MOVE = re.compile(r"([a-z]+[0-9]+)[-x]?([a-z]+[0-9]+)(?:([a-z])(?=$|x[a-z]))?(?:x[a-z]+[0-9]+)*")


def fsf_text(move, game, variant):
    """A dagaz move (a `dagaz.Move` of `game`) in Fairy-Stockfish's
    spelling of `variant`: drops `P@e4`; captured squares left out
    (`e5d6xd5` is `e5d6`); gating `b1c3/Eb1` is `b1c3e`, a castling that
    gates on the Rook's square, `e1g1/Hh1`, is `h1e1h`; a Chess960
    castling is the King taking its Rook; USI squares as Fairy-Stockfish's
    (`7g7f` is `c3c4` in shogi)."""
    text = move.text
    if is960(variant) and move.castling_rook:
        return move.from_ + move.castling_rook
    usi = USI_MOVE.fullmatch(text)
    if usi:
        _, height, width = game.observation_shape
        def square(name):
            file, rank = int(name[:-1]), name[-1]
            return f"{chr(ord('a') + width - file)}{height - (ord(rank) - ord('a'))}"
        piece, start, file, rank, promotion = usi.groups()
        landing = square(file + rank)
        return f"{piece}@{landing}" if piece else f"{square(start)}{landing}{promotion}"
    if base(variant) in STEPS_AS_DROPS:
        step = re.fullmatch(r"([a-z])([0-9]+)([a-z])([0-9]+)", text)
        if step and abs(ord(step[1]) - ord(step[3])) <= 1 and abs(int(step[2]) - int(step[4])) <= 1:
            return f"P@{step[3]}{step[4]}"
    text = text.replace("*", "@")
    if "," in text or "/" in text:
        # The captured squares the landing does not imply come last
        # (`c5b6,a3xb5`).
        text = re.sub(r"(x[a-z]+[0-9]+)+$", "", text)
    if "," in text:
        # The duck's square (`e2e4,e6`), which Fairy-Stockfish writes as a
        # second move from the landing square: `e2e4,e4e6`.
        step, duck = text.split(",", 1)
        landing = re.findall(r"[a-z]+[0-9]+", step)[-1]
        return f"{step},{landing}{duck}"
    if "/" in text:
        step, gate = text.split("/", 1)
        piece, square = gate[0].lower(), gate[1:]
        return step + piece if step.startswith(square) else square + step[:2] + piece
    placed = re.fullmatch(r"([a-z]+[0-9]+)-([a-z]+[0-9]+)-([a-z]+[0-9]+)", text)
    if placed:
        # A move that then places a piece (`place:`): a wall or an arrow
        # from the landing square (`c1-b1-a1` is `c1b1,b1a1`), or, where
        # the piece stays, sittuyin's promotion (`d5-d5-c4` is `d5c4f`).
        start, landing, put = placed.groups()
        if start == landing:
            return f"{start}{put}f"
        return f"{start}{landing},{landing}{put}"
    return plain(text, move, game)


def plain(text, move, game):
    """`text` without the captured squares its landing does not imply, its
    promotion in Fairy-Stockfish's letter (shatranj's Ferz is `q`)."""
    parts = PLAIN_MOVE.fullmatch(text)
    if not parts:
        return text
    promotion = game.fsf_letter(move.promotion).lower() if parts[3] and move.promotion else parts[3] or ""
    return f"{parts[1]}{parts[2]}{promotion}"


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
            text = fsf_text(m, game, variant)
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
    ours = sorted(fsf_text(m, game, variant) for m in session.legal_moves())
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
    name, variant, deepest, plies, seed, positions, max_depth, label, budget, san_positions = task
    lines, failures = [], 0
    game = dagaz.Game(name)
    san = writes_san(game, name)
    rng = random.Random(f"{seed}-{variant}")
    depth = min(max_depth, deepest)
    started, checked, nodes, calls = time.time(), 0, 0, CALLS[0]

    def spent():
        return budget and CALLS[0] - calls >= budget

    for index in range(positions):
        if spent():
            break
        try:
            played = random_game(game, variant, rng, plies, san)
        except Refused as e:
            failures += 1
            lines.append(f"FAIL {label}: Fairy-Stockfish refuses a move of dagaz's random game\n{e}")
            continue
        if played is None:
            continue
        start, moves, sans, fen = played
        try:
            ours = dagaz_perft(game, fen, depth)
        except dagaz.DagazError as e:
            failures += 1
            lines.append(f"FAIL {label}: dagaz refuses {fen}: {e}")
            continue
        theirs = fsf_perft(variant, fen, depth)
        if san:
            differences = compare_game_san(name, variant, start, moves, sans)
            if san_positions is None or index < san_positions:
                differences += compare_san(game, name, variant, fen)
            if differences:
                failures += 1
                lines.append(f"FAIL {label} SAN at {fen}")
                lines.extend(differences[:10])
        checked += 1
        nodes += theirs
        if ours != theirs:
            failures += 1
            lines.append(f"FAIL {label} depth {depth}: dagaz {ours}, Fairy-Stockfish {theirs}")
            lines.append(narrow(game, variant, fen, depth))
    cut = " (budget spent)" if checked < positions and spent() else ""
    lines.append(f"{label:<24} {checked:>4} positions at depth {depth}, {nodes:>9} nodes, "
                 f"{time.time() - started:5.1f} s{cut}")
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
    parser.add_argument("--budget", type=int, default=0,
                        help="pyffish calls per variant after which no new position is started (0: no limit)")
    parser.add_argument("--san-positions", type=int, default=None,
                        help="the first N positions of each variant have every legal move's SAN compared (default: all)")
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
         Path(name).stem if args.ini else name, args.budget, args.san_positions)
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
