#!/usr/bin/env python3
"""Writes games/taikyoku-shogi.toml from the Taikyoku shogi site's data.

The data (crates/dagaz/tests/data/taikyoku/, with its source in SOURCE.md)
is the site's piece table, pieces.csv (code, name, kanji, moves in its
Betza-like notation, promotion) and its start position, initial.tsfen.
This script translates each piece's moves into the Dagaz move notation:
the plain atoms by the rules of the site's notation parser (see
docs/sources/taikyoku-daidai-ko.md, section 1.3), the parenthesised
special moves by hand (SPECIAL below, one reading per piece, each
explained in the game file's header).

    python3 scripts/taikyoku.py > games/taikyoku-shogi.toml
"""

import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "crates", "dagaz", "tests", "data", "taikyoku")

# Black's directions as the board's letters (White's map turns them round).
ORTH = {"f": "N", "b": "S", "l": "W", "r": "E"}
DIAG = {"fl": "M", "fr": "O", "bl": "R", "br": "T"}
WORDS = {"N": "f", "S": "b", "W": "l", "E": "r", "M": "fl", "O": "fr", "R": "bl", "T": "br"}
ORDER = "NSWEMORT"

# Leap atoms: (orthogonal?, distance).
LEAPS = {"W": (True, 1), "F": (False, 1), "D": (True, 2), "A": (False, 2),
         "H": (True, 3), "G": (False, 3)}

# The range capturers' ranks (the site's pieceData.ts): they pass over, and
# capture, pieces of lower rank.
RANKS = [["King", "CrownPrince", "PromotedCrownPrince"], ["GreatGeneral"],
         ["ViceGeneral", "PromotedViceGeneral"],
         ["FlyingGeneral", "AngleGeneral", "FierceDragon", "FlyingCrocodile"]]

LIONS = ("L", "FFI", "BS", "LH")
LION = r"*; N,OM; E,OT; S,TR; W,RM; (X)\1; (+)\1; *[F]|^*"


def hook(first, turns):
    """A slide in `first`, then optionally a slide at right angles."""
    return f"{first}([p]{first})*[p]({turns})([p]\\1)*"


def passing(dirs, most):
    """A slide in `dirs` that may pass over up to `most` pieces of either side
    (not captured) and go on."""
    quant = "?" if most == 1 else f"{{0,{most}}}"
    return f"({dirs})([p]\\1)*([P]\\1([p]\\1)*){quant}"


def range_capture(dirs):
    """A slide in `dirs` that may pass over pieces the handler says rank
    lower than the mover, capturing each."""
    return f"({dirs})([p]\\1;[1x]\\1)*"


ORTH_HOOKS = "; ".join([hook("N", "EW"), hook("S", "EW"), hook("E", "NS"), hook("W", "NS")])
DIAG_HOOKS = "; ".join([hook("M", "OR"), hook("T", "OR"), hook("O", "MT"), hook("R", "MT")])

# The parenthesised parts of the site's notation, read as the header says;
# the rest of each piece's notation is translated as plain atoms.
SPECIAL = {
    "GG": range_capture("*"),
    "AG": range_capture("X"),
    "FLG": range_capture("+"),
    "FCR": range_capture("+"),
    "FID": range_capture("X"),
    "VG": range_capture("X"),
    "L": LION,
    "FFI": LION,
    "BS": LION,
    "LH": LION,
    "HM": ORTH_HOOKS,
    "T": DIAG_HOOKS,
    "C": DIAG_HOOKS,
    "PCK": "; ".join([hook("M", "OR"), hook("O", "MT")]),
    "WDV": r"(X)\1\1([p]\1){0,2}",
    "TF": r"(X)\1{0,2}([p]\1)*; (NS)\1{0,2}([p]\1)*",
    "MC": r"(*)\1{0,3}([p]\1)*",
    "FE": r"(*)\1{0,2}([p]\1)*; (OM)\1\1\1([p]\1)*; (*)[ex]~1",
    "HTK": r"(*)\1?([p]\1)*",
    "GH": r"(N)\1([p]\1)*",
    "GE": r"(OM)\1([p]\1)*",
    "KT": r"(*)\1\1([p]\1)*",
    "RAD": r"(OM)([p]\1)*",
    "AD": passing("NS", 3),
    "GBI": passing("OM", 3),
    "FBI": passing("OM", 3),
    "GEL": passing("+", 1) + "; " + passing("RT", 3),
}


# Special moves that include all the piece's plain ones.
JUMP_THEN_SLIDE = ("TF", "MC", "FE", "HTK", "KT")


def diag_dirs(mods):
    """The diagonals a modifier string selects on a diagonal atom: `fr` is one
    diagonal, `f` both forward ones, `s` or `v` all four."""
    if not mods:
        return set(DIAG.values())
    out = set()
    i = 0
    while i < len(mods):
        pair = mods[i:i + 2]
        if pair in DIAG:
            out.add(DIAG[pair])
            i += 2
            continue
        m = mods[i]
        if m in "sv":
            out |= set(DIAG.values())
        else:
            out |= {d for k, d in DIAG.items() if m in k}
        i += 1
    return out


def orth_dirs(mods):
    """The orthogonal directions a modifier string selects (a union)."""
    if not mods:
        return set(ORTH.values())
    out = set()
    for m in mods:
        if m == "s":
            out |= {"W", "E"}
        elif m == "v":
            out |= {"N", "S"}
        elif m in ORTH:
            out.add(ORTH[m])
    return out


def atoms(text):
    """The plain part of a piece's notation as (dirs, kind, n): kind "slide"
    with n the most squares (0 without limit), "leap" with n the distance,
    or "knight" (dirs is then the notation itself)."""
    plain = strip_groups(text)
    out = []
    # An atom written twice (`WW`) rides.
    for mods, atom, twice, digits in re.findall(r"([a-z]*)([A-Z])(\2?)(\d*)", plain):
        out += atom_moves(mods, atom + twice, digits)
    return out


def strip_groups(text):
    """The notation without its parenthesised groups."""
    out, depth = "", 0
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            out += c
    return out


def atom_moves(mods, atom, digits):
    limit = int(digits) if digits else None
    if atom == "N":
        knights = {"ff": ["N,OM"], "v": ["N,OM", "S,RT"],
                   "": ["N,OM", "E,OT", "S,TR", "W,RM"]}[mods]
        return [(d, "knight", 0) for d in knights]
    parts = {"K": ["W", "F"], "Q": ["WW", "FF"], "R": ["WW"], "B": ["FF"]}.get(atom, [atom])
    out = []
    for part in parts:
        ride = len(part) == 2
        base = part[0]
        orth, dist = LEAPS[base]
        dirs = orth_dirs(mods) if orth else diag_dirs(mods)
        if ride:
            n = limit if limit is not None else 0
            out.append((dirs, "slide", n))
        elif dist == 1:
            out.append((dirs, "slide", limit or 1))
        else:
            out.append((dirs, "leap", dist))
    return out


def reach(old, n):
    """The longer of two slides in one direction (0: without limit)."""
    return 0 if 0 in (old, n) else max(old or 0, n)


def by_direction(moves):
    """The slides as {direction: reach} and the other moves."""
    reaches, others = {}, []
    for dirs, kind, n in moves:
        if kind == "slide":
            for d in dirs:
                reaches[d] = reach(reaches.get(d), n)
        else:
            others.append((dirs, kind, n))
    return reaches, others


def expression(moves):
    """The notation of plain moves, slides grouped by their reach."""
    reaches, others = by_direction(moves)
    groups = {}
    for d, n in reaches.items():
        groups.setdefault(n, set()).add(d)
    out = []
    for n, dirs in sorted(groups.items(), key=lambda g: (g[0] == 0, g[0])):
        ds = sorted_dirs(dirs)
        if n == 1:
            out.append(ds)
        elif n == 0:
            out.append(f"({ds})([p]\\1)*")
        else:
            out.append(f"({ds})([p]\\1){{0,{n - 1}}}")
    for dirs, kind, n in others:
        out.append(f"({sorted_dirs(dirs)})" + "\\1" * (n - 1) if kind == "leap" else dirs)
    return out


def sorted_dirs(dirs):
    return "".join(d for d in ORDER if d in dirs)


def words(moves):
    """The plain moves in the owner's terms, for the piece's description."""
    reaches, others = by_direction(moves)
    groups = {}
    for d, n in reaches.items():
        groups.setdefault(n, []).append(d)
    out = []
    for n, dirs in sorted(groups.items(), key=lambda g: (g[0] != 0, -g[0])):
        label = "any" if n == 0 else ("1" if n == 1 else f"up to {n}")
        out.append(f"{label}: " + " ".join(WORDS[d] for d in ORDER if d in dirs))
    for dirs, kind, n in others:
        if kind == "leap":
            out.append(f"jump to the {ORDINAL[n]} square: " + " ".join(WORDS[d] for d in ORDER if d in dirs))
        else:
            out.append("knight: " + ("f" if dirs.startswith("N") else "b"))
    return "; ".join(out)


ORDINAL = {2: "2nd", 3: "3rd"}


def camel(name):
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z]+", name) if w)


def value(moves, code):
    """Our estimate of a piece's worth from its moves (no source gives
    Taikyoku values): a step 25, each further square of a slide 15 (a
    long slide as 8 squares), a jump 30; Lion powers and range capture
    count extra."""
    v = 0
    for dirs, kind, n in moves:
        if kind == "slide":
            v += len(dirs) * (25 + 15 * ((n or 8) - 1))
        else:
            v += 30 * (len(dirs) if kind == "leap" else 2)
    if code in LIONS:
        v += 900
    if code in SPECIAL and "[1x]" in SPECIAL[code]:
        v += 1500 if code == "GG" else 700
    if code in SPECIAL and v < 400:
        v += 300
    return max(v, 50)


def main():
    rows = list(csv.DictReader(open(os.path.join(DATA, "pieces.csv"), encoding="utf-8")))
    by_code = {r["code"]: r for r in rows}
    tsfen = open(os.path.join(DATA, "initial.tsfen")).read().split()[0]
    in_setup = {c.rstrip("0123456789").upper() for c in tsfen.replace("/", ",").split(",")}
    in_setup.discard("")
    names = {r["code"]: camel(r["name"]) for r in rows}

    def promotes(code):
        return by_code[code]["promotion"] != "-"

    # A piece reached by promotion never promotes again: where the target
    # is a setup piece that promotes, the promoted one is a type of its own.
    doubled = sorted({r["promotion"] for r in rows
                      if promotes(r["code"]) and r["promotion"] in in_setup
                      and promotes(r["promotion"])},
                     key=list(by_code).index)

    def target_name(code):
        return "Promoted" + names[code] if code in doubled else names[code]

    out = [HEADER.rstrip("\n"), ""]
    out.append(GAME.format(
        ranks=" > ".join(",".join(g) for g in RANKS).replace(" ", ""),
        setup=our_setup(tsfen)))
    for r in rows:
        code = r["code"]
        promo = None
        if promotes(code) and code in in_setup:
            promo = target_name(r["promotion"])
        out.append(piece(r, names[code], code, code, promo))
    for code in doubled:
        r = by_code[code]
        out.append(piece(r, "Promoted" + names[code], code, "+" + code, None, promoted=True))
    sys.stdout.write("\n".join(out))


def piece(r, name, code, symbol, promo, promoted=False):
    moves = atoms(r["movement"])
    if code in LIONS:
        # The Lion's steps and jumps are in its own expression.
        moves = [m for m in moves if m[1] == "slide" and m[2] != 1]
    if code in JUMP_THEN_SLIDE:
        moves = []
    exprs = expression(moves)
    if code in SPECIAL:
        exprs.append(SPECIAL[code])
    desc = f"{r['name']} ({code})"
    if promoted:
        desc += ", promoted (does not promote again)"
    plain = words(moves)
    desc += ": " + (plain if plain else "special moves only")
    if code in SPECIAL:
        desc += "; special: " + NOTES[code]
    lines = [f"[pieces.{name}]", f'letter = "{code[0]}"', f'symbol = "{symbol}"',
             f'glyphs = "{r["kanji"]}"']
    royal = name in ("King", "CrownPrince", "PromotedCrownPrince")
    if royal:
        lines.append("royal = true")
    else:
        lines.append(f"value = {value(moves, code)}")
    lines.append(f'description = "{desc}"')
    lines.append(f"# {r['movement']}")
    body = ";\n".join(exprs)
    lines.append(f"moves = '''\n{body}\n'''")
    if promo:
        lines.append(f'promote = {{ zone = "promotion", to = ["{promo}"] }}')
    return "\n".join(lines) + "\n"


def our_setup(tsfen):
    """The site's start position with our case (upper case: Black, the
    first player) and SFEN's side, hands and move number."""
    return tsfen.swapcase() + " b - 1"


NOTES = {
    "GG": "range capture on all 8 lines",
    "AG": "range capture on the diagonals",
    "FLG": "range capture on the orthogonals",
    "FCR": "range capture on the orthogonals",
    "FID": "range capture on the diagonals",
    "VG": "range capture on the diagonals",
    "L": "Lion",
    "FFI": "Lion",
    "BS": "Lion",
    "LH": "Lion",
    "HM": "hook mover (orthogonal)",
    "T": "hook mover (diagonal)",
    "C": "hook mover (diagonal)",
    "PCK": "hook mover from the forward diagonals",
    "WDV": "jump to the 3rd diagonal square, then up to 2 more",
    "TF": "jumps over 1 or 2 squares diagonally or vertically, then slides on",
    "MC": "jumps over 1 to 3 squares in any direction, then slides on",
    "FE": "jumps over 1 or 2 squares (3 on the forward diagonals), then slides on; igui",
    "HTK": "jumps over the adjacent square in any direction, then slides on",
    "GH": "jumps over the square in front, then slides on",
    "GE": "jumps over the forward diagonal square, then slides on",
    "KT": "jumps to the 3rd square in any direction, then slides on",
    "RAD": "any: fl fr",
    "AD": "vertically passes up to 3 pieces",
    "GBI": "on the forward diagonals passes up to 3 pieces",
    "FBI": "on the forward diagonals passes up to 3 pieces",
    "GEL": "orthogonally passes 1 piece, on the backward diagonals up to 3",
}

HEADER = open(os.path.join(HERE, "taikyoku-header.toml"), encoding="utf-8").read()

GAME = '''[game]
name = "taikyoku-shogi"
title = "Taikyoku shogi"
description = "36x36 shogi, the largest known: 402 pieces a side of 209 types, range capturers, hook movers, Lions"
players = ["Black", "White"]

[board]
grid = "36-1 x a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/aa/bb/cc/dd/ee/ff/gg/hh/ii/jj"

# The side letter of SFEN positions: `b` for Black (sente, who moves
# first and sits at the bottom), `w` for White (gote).
[players.Black]
letter = "b"

# White's army is Black's turned half round (the pieces with a left and
# a right keep theirs).
[players.White]
letter = "w"
map = "N=S S=N E=W W=E O=R R=O M=T T=M"

# The 11 ranks farthest from each player.
[zones.promotion]
Black = "36a-1k"
White = "36z-1jj"

# The range capturers pass over pieces that rank lower than themselves.
[handlers]
1 = "outranks:{ranks}"

[rules]
goals = ["pieces King CrownPrince PromotedCrownPrince < 1 = loss", "no_moves = win", "repetition 4 = draw"]

[fen]
format = "sfen"

[display]
# Wooden tiles on a plain board, as shogi is played.
pieces = "tile"
checkered = false
colours = ["#1f1f1f", "#1f1f1f"]

[setup]
fen = "{setup}"
'''

if __name__ == "__main__":
    main()
