//! The sections' parents: Fairy-Stockfish's built-in variants (the few
//! whose rules are written here as keys) and earlier sections, and how a
//! section's keys go over its parent's.

use indexmap::IndexMap;

use super::pieces::{is_piece_key, piece_letter};
use super::{Keys, Problem};
use crate::import::ini::{self, Entry, Section};

/// Fairy-Stockfish's built-in variants (0.0.90): a section may name any
/// as its parent, and may not take one's name.
pub(super) const BUILTIN_NAMES: &str = "3check 5check ai-wok almost amazon amazons antichess armageddon asean \
ataxx atomar atomic berolina breakthrough bughouse cambodian capablanca capahouse caparandom \
centaur chancellor chaturanga checkshogi chess chessgi chigorin clobber clobber10 codrus coregal \
courier crazyhouse dobutsu dragon duck embassy euroshogi extinction fairy fischerandom flipello \
flipello10 flipersi fox-and-hounds gardner georgian giveaway gorogoro gothic grand grasshopper \
gustav3 hoppelpoppel horde isolation isolation7x7 janggi janggicasual janggimodern \
janggitraditional janus jesonmor joust judkins karouk kinglet kingofthehill knightmate koedem \
kyotoshogi legan loop losalamos losers makpong makruk manchu micro mini minishogi minixiangqi \
misere modern newzealand nightrider nocastle nocheckatomic normal okisakishogi omicron opulent \
paradigm pawnback pawnsideways perfect petrified placement pocketknight raazuvaa racingkings \
seirawan shako shatar shatranj shogi shoshogi shouse sittuyin snailtrail sortofalmost spartan \
suicide supply tencubed threekings torishogi torpedo troitzky wolf xiangqi yarishogi";

/// The built-in parents whose rules are known here, written as keys.
pub(super) const BUILTIN_PARENTS: &str = "\
[chess]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
promotionPieceTypes = nbrq
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
[normal:chess]
[fairy:chess]
[crazyhouse:chess]
pieceDrops = true
capturesToHand = true
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
[kingofthehill:chess]
flagPiece = k
flagRegionWhite = d4 e4 d5 e5
flagRegionBlack = d4 e4 d5 e5
[nocastle:chess]
castling = false
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
[losalamos:chess]
maxRank = 6
maxFile = f
bishop = -
startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1
promotionRegionWhite = *6
promotionRegionBlack = *1
promotionPieceTypes = nrq
doubleStep = false
castling = false
[gardner:chess]
maxRank = 5
maxFile = e
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
promotionRegionWhite = *5
promotionRegionBlack = *1
doubleStep = false
castling = false
";

pub(super) fn builtin_parents() -> IndexMap<String, Keys> {
    let (sections, _) = ini::parse(BUILTIN_PARENTS);
    let mut known: IndexMap<String, Keys> = IndexMap::new();
    for s in &sections {
        let mut keys = s
            .parent
            .as_ref()
            .and_then(|p| known.get(p))
            .cloned()
            .unwrap_or_default();
        for (k, e) in &s.keys {
            let e = Entry {
                value: e.value.clone(),
                line: 0,
            };
            set_key(&mut keys, k, e);
        }
        known.insert(s.name.clone(), keys);
    }
    known
}

/// The section's keys over its parent's, or `None` (with a problem) if
/// Fairy-Stockfish would not load it or its parent's rules are unknown.
pub(super) fn resolve(
    section: &Section,
    known: &IndexMap<String, Keys>,
    parents: &IndexMap<String, Keys>,
    problems: &mut Vec<Problem>,
) -> Option<Keys> {
    let mut fail = |message: String| {
        problems.push(Problem {
            line: section.line,
            key: String::new(),
            message,
            fatal: true,
        });
        None
    };
    let builtin = |n: &str| BUILTIN_NAMES.split_whitespace().any(|b| b == n);
    if builtin(&section.name) {
        return fail(format!(
            "Fairy-Stockfish has a built-in variant '{}' and skips a section of that name",
            section.name
        ));
    }
    if known.contains_key(&section.name) {
        return fail(format!(
            "a section '{}' comes earlier; Fairy-Stockfish keeps the first",
            section.name
        ));
    }
    let mut keys = match &section.parent {
        None => Keys::new(),
        Some(p) => match parents.get(p).or_else(|| known.get(p)) {
            Some(k) => k.clone(),
            None if builtin(p) => {
                return fail(format!(
                    "the parent '{p}' is a Fairy-Stockfish built-in whose rules this importer \
                     does not know as keys (it knows: {}); dagaz's own game for it may serve",
                    parents.keys().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
            None => {
                return fail(format!(
                    "the parent '{p}' is neither a built-in variant nor an earlier section"
                ));
            }
        },
    };
    for (k, e) in &section.keys {
        set_key(&mut keys, k, e.clone());
    }
    Some(keys)
}

/// Sets a key; a piece key takes its letter from the parent's pieces.
pub(super) fn set_key(keys: &mut Keys, key: &str, entry: Entry) {
    if is_piece_key(key)
        && let Some(letter) = piece_letter(&entry.value)
    {
        keys.retain(|k, e| k == key || !is_piece_key(k) || piece_letter(&e.value) != Some(letter));
    }
    keys.insert(key.to_string(), entry);
}
