//! Fairy-Stockfish custom variants (`variants.ini` sections) converted into
//! dagaz game files.
//!
//! A section is resolved against its parent (an earlier section, or one of
//! the few built-in variants whose rules this module knows as keys), then
//! its keys are read one by one into a game file. Every key that changes
//! the rules in a way the conversion cannot express is a [`Problem`] with
//! its line, and the section is then not converted: a game with one rule
//! missing would be another game. Keys only the XBoard interface reads
//! (`pieceToCharTable`, `pocketSize`, …) are skipped; keys that are not
//! Fairy-Stockfish's are warned about (it ignores them too).
//!
//! `docs/fairy-stockfish.md` lists the keys converted and how.

use std::collections::HashSet;
use std::fmt;

use indexmap::IndexMap;
use toml::{Table, Value};

use super::ini::{self, Entry, Section};

/// A key the conversion could not follow, or a line read otherwise than
/// it looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line of the file (0: the section as a whole).
    pub line: usize,
    pub key: String,
    pub message: String,
    /// The section is not converted because of it.
    pub fatal: bool,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let kind = if self.fatal {
            "cannot convert"
        } else {
            "warning"
        };
        match (self.line, self.key.is_empty()) {
            (0, true) => write!(f, "{kind}: {}", self.message),
            (0, false) => write!(f, "{kind}: {}: {}", self.key, self.message),
            (l, true) => write!(f, "line {l}: {kind}: {}", self.message),
            (l, false) => write!(f, "line {l}: {kind}: {}: {}", self.key, self.message),
        }
    }
}

/// One section's outcome: the game file, unless a problem is fatal.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub name: String,
    /// The line of the section's header.
    pub line: usize,
    pub game: Option<String>,
    pub problems: Vec<Problem>,
}

/// What makes a whole file unusable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("the file has no section (a section starts with a line '[name]' or '[name:parent]')")]
    NoSections,
    #[error("the file has no section '{0}' (it has: {1})")]
    NoSuchSection(String, String),
}

/// The keys of a section after its parent's, by name.
type Keys = IndexMap<String, Entry>;

/// Converts the sections of a `variants.ini` text (only `only`, if given;
/// its parents are read but not converted).
pub fn convert(text: &str, only: Option<&str>) -> Result<Vec<Conversion>, ImportError> {
    let (sections, notes) = ini::parse(text);
    if sections.is_empty() {
        return Err(ImportError::NoSections);
    }
    if let Some(name) = only
        && !sections.iter().any(|s| s.name == name)
    {
        let names: Vec<&str> = sections.iter().map(|s| s.name.as_str()).collect();
        return Err(ImportError::NoSuchSection(name.into(), names.join(", ")));
    }
    let parents = builtin_parents();
    let mut known: IndexMap<String, Keys> = IndexMap::new();
    let mut out = Vec::new();
    for (i, section) in sections.iter().enumerate() {
        let end = sections.get(i + 1).map_or(usize::MAX, |s| s.line);
        let mut problems: Vec<Problem> = notes
            .iter()
            .filter(|n| n.line > section.line && n.line < end)
            .map(|n| Problem {
                line: n.line,
                key: String::new(),
                message: n.message.clone(),
                fatal: false,
            })
            .collect();
        let keys = resolve(section, &known, &parents, &mut problems);
        let wanted = only.is_none_or(|n| n == section.name);
        if let Some(keys) = keys {
            if wanted {
                out.push(build(&section.name, section.line, &keys, problems));
            }
            known.entry(section.name.clone()).or_insert(keys);
        } else if wanted {
            out.push(Conversion {
                name: section.name.clone(),
                line: section.line,
                game: None,
                problems,
            });
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------
// Sections and parents

/// Fairy-Stockfish's built-in variants (0.0.90): a section may name any
/// as its parent, and may not take one's name.
const BUILTIN_NAMES: &str = "3check 5check ai-wok almost amazon amazons antichess armageddon asean \
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
const BUILTIN_PARENTS: &str = "\
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

fn builtin_parents() -> IndexMap<String, Keys> {
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
fn resolve(
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
fn set_key(keys: &mut Keys, key: &str, entry: Entry) {
    if is_piece_key(key)
        && let Some(letter) = piece_letter(&entry.value)
    {
        keys.retain(|k, e| k == key || !is_piece_key(k) || piece_letter(&e.value) != Some(letter));
    }
    keys.insert(key.to_string(), entry);
}

// ---------------------------------------------------------------------
// Pieces

/// The built-in piece types, in the order Fairy-Stockfish reads them,
/// with their moves in Betza notation (`None`: not expressible).
const PIECE_TYPES: &[(&str, Option<&str>)] = &[
    ("pawn", Some("fmWfcF")),
    ("knight", Some("N")),
    ("bishop", Some("B")),
    ("rook", Some("R")),
    ("queen", Some("Q")),
    ("fers", Some("F")),
    ("alfil", Some("A")),
    ("fersAlfil", Some("FA")),
    ("silver", Some("FfW")),
    ("aiwok", Some("RNF")),
    ("bers", Some("RF")),
    ("archbishop", Some("BN")),
    ("chancellor", Some("RN")),
    ("amazon", Some("QN")),
    ("knibis", Some("mNcB")),
    ("biskni", Some("mBcN")),
    ("kniroo", Some("mNcR")),
    ("rookni", Some("mRcN")),
    ("shogiPawn", Some("fW")),
    ("lance", Some("fR")),
    ("shogiKnight", Some("fN")),
    ("gold", Some("WfF")),
    ("dragonHorse", Some("BW")),
    ("clobber", Some("cW")),
    ("breakthrough", Some("fmWfF")),
    ("immobile", Some("")),
    ("cannon", Some("mRcpR")),
    ("janggiCannon", None),
    ("soldier", Some("fsW")),
    ("horse", Some("nN")),
    ("elephant", Some("nA")),
    ("janggiElephant", None),
    ("banner", Some("RcpRnN")),
    ("wazir", Some("W")),
    ("commoner", Some("K")),
    ("centaur", Some("KN")),
];

fn is_piece_key(key: &str) -> bool {
    key == "king"
        || PIECE_TYPES.iter().any(|(k, _)| *k == key)
        || key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| (1..=25).contains(&n))
}

/// A piece key's letter (lower case); none when the value removes it.
fn piece_letter(value: &str) -> Option<char> {
    value
        .chars()
        .next()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_lowercase())
}

/// A piece of the converted game.
struct Piece {
    /// The dagaz name (`Pawn`, `FersAlfil`, `Custom1`, `King`).
    name: String,
    /// Lower case.
    letter: char,
    /// Fairy-Stockfish's key (`pawn`, `customPiece1`, `king`).
    key: String,
    /// Moves in Betza notation; the built-in pawn's are written out.
    betza: String,
    royal: bool,
}

fn piece_name(key: &str) -> String {
    if let Some(n) = key.strip_prefix("customPiece") {
        return format!("Custom{n}");
    }
    let mut c = key.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------
// Reading keys

/// Reads the resolved keys of one section; remembers which were used.
struct Reader<'a> {
    keys: &'a Keys,
    used: HashSet<String>,
    problems: Vec<Problem>,
    files: usize,
    ranks: usize,
}

/// A result as Fairy-Stockfish's keys give it: for the side concerned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Win,
    Loss,
    Draw,
    None,
}

impl Outcome {
    fn parse(text: &str) -> Outcome {
        match text {
            "win" => Outcome::Win,
            "loss" => Outcome::Loss,
            "draw" => Outcome::Draw,
            _ => Outcome::None,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            _ => "draw",
        }
    }

    /// The same result, for the other side.
    fn other(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            o => o,
        }
    }
}

impl<'a> Reader<'a> {
    fn entry(&mut self, key: &str) -> Option<&'a Entry> {
        let e = self.keys.get(key)?;
        self.used.insert(key.to_string());
        Some(e)
    }

    fn text(&mut self, key: &str) -> Option<&'a str> {
        self.entry(key).map(|e| e.value.as_str())
    }

    fn line(&self, key: &str) -> usize {
        self.keys.get(key).map_or(0, |e| e.line)
    }

    /// `true` only as written exactly, as Fairy-Stockfish reads a bool.
    fn flag(&mut self, key: &str, default: bool) -> bool {
        self.text(key).map_or(default, |v| v == "true")
    }

    fn int(&mut self, key: &str, default: i64) -> i64 {
        match self.text(key) {
            None => default,
            Some(v) => v.trim().parse().unwrap_or_else(|_| {
                self.fatal(key, format!("'{v}' is not a number"));
                default
            }),
        }
    }

    fn outcome(&mut self, key: &str, default: Outcome) -> Outcome {
        self.text(key).map_or(default, Outcome::parse)
    }

    fn fatal(&mut self, key: &str, message: String) {
        self.problems.push(Problem {
            line: self.line(key),
            key: key.into(),
            message,
            fatal: true,
        });
    }

    fn warn(&mut self, key: &str, message: String) {
        self.problems.push(Problem {
            line: self.line(key),
            key: key.into(),
            message,
            fatal: false,
        });
    }

    /// A file given as a letter or a 1-based number (0-based result).
    fn file_of(text: &str) -> Option<usize> {
        let t = text.trim();
        match t.chars().next()? {
            c @ 'a'..='z' if t.len() == 1 => Some(c as usize - 'a' as usize),
            _ => t.parse::<usize>().ok().filter(|&n| n >= 1).map(|n| n - 1),
        }
    }

    /// A region: squares (`e4`), ranks (`*3`), files (`a*`); `-` stops.
    /// Squares as (file, rank), 0-based.
    fn region(&mut self, key: &str) -> Option<Vec<(usize, usize)>> {
        let text = self.text(key)?;
        let (files, ranks) = (self.files, self.ranks);
        let mut out = Vec::new();
        for tok in text.split_whitespace() {
            if tok == "-" {
                break;
            }
            let (f, r) = tok.split_at(1);
            let file = (f != "*").then(|| Self::file_of(&f.to_ascii_lowercase()));
            let rank = (r != "*").then(|| r.parse::<usize>().ok().filter(|&n| n >= 1));
            let squares: Vec<(usize, usize)> = match (file, rank) {
                (Some(Some(f)), Some(Some(r))) => vec![(f, r - 1)],
                (None, Some(Some(r))) => (0..files).map(|f| (f, r - 1)).collect(),
                (Some(Some(f)), None) => (0..ranks).map(|r| (f, r)).collect(),
                _ => {
                    self.warn(
                        key,
                        format!("'{tok}' is no square; the region ends before it"),
                    );
                    break;
                }
            };
            out.extend(squares.into_iter().filter(|&(f, r)| f < files && r < ranks));
        }
        Some(out)
    }

    /// A piece set: letters (lower case), `*` for every piece, `-` none.
    fn letters(&mut self, key: &str) -> Option<Vec<char>> {
        let text = self.text(key)?;
        let mut out = Vec::new();
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => break,
                '*' => out.push('*'),
                c if c.is_ascii_alphabetic() => out.push(c.to_ascii_lowercase()),
                _ => break,
            }
        }
        Some(out)
    }

    /// A key given for both colours, then per colour (`…White`, `…Black`).
    fn coloured<T: Clone>(
        &mut self,
        key: &str,
        read: impl Fn(&mut Self, &str) -> Option<T>,
        default: T,
    ) -> [T; 2] {
        let both = read(self, key).unwrap_or(default);
        let w = read(self, &format!("{key}White")).unwrap_or_else(|| both.clone());
        let b = read(self, &format!("{key}Black")).unwrap_or(both);
        [w, b]
    }

    fn square_name(&self, (f, r): (usize, usize)) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    fn squares_text(&self, squares: &[(usize, usize)]) -> String {
        squares
            .iter()
            .map(|&s| self.square_name(s))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

// ---------------------------------------------------------------------
// Building the game

/// Keys the XBoard interface or the evaluation reads, not the rules.
const COSMETIC: &[&str] = &[
    "pieceToCharTable",
    "pocketSize",
    "variantTemplate",
    "pieceValueMg",
    "pieceValueEg",
];

/// Keys of Fairy-Stockfish's that this conversion does not follow: any of
/// them set otherwise than its default stops the conversion.
const OTHER_FSF_KEYS: &str = "chess960 twoBoards promotionLimit promotedPieceType \
piecePromotionOnCapture mandatoryPiecePromotion pieceDemotion blastOnCapture blastImmuneTypes \
mutuallyImmuneTypes petrifyOnCaptureTypes petrifyBlastPieces tripleStepRegionWhite \
tripleStepRegionBlack enPassantRegion enPassantRegionWhite enPassantRegionBlack enPassantTypes \
enPassantTypesWhite enPassantTypesBlack castlingDroppedPiece castlingKingFile \
castlingRookKingsideFile castlingRookQueensideFile oppositeCastling castlingWins mustDrop \
mustDropType dropLoop enclosingDrop enclosingDropStart sittuyinRookDrop \
dropOppositeColoredBishop dropPromoted dropNoDoubled dropNoDoubledCount immobilityIllegal gating \
seirawanGating cambodianMoves wallingRule wallingRegion wallingRegionWhite wallingRegionBlack \
wallOrMove diagonalLines pass passWhite passBlack passOnStalemate passOnStalemateWhite \
passOnStalemateBlack makpongRule flyingGeneral soldierPromotionRank flipEnclosedPieces \
nMoveRuleTypes nMoveRuleTypesWhite nMoveRuleTypesBlack nFoldValueAbsolute perpetualCheckIllegal \
moveRepetitionIllegal chasingRule stalematePieceCount shogiPawnDropMateIllegal shatarMateRule \
bikjangRule extinctionClaim extinctionPseudoRoyal dupleCheck extinctionOpponentPieceCount \
flagPieceCount flagPieceBlockedWin checkCounting connectN connectPieceTypes connectHorizontal \
connectVertical connectDiagonal connectRegion1White connectRegion2White connectRegion1Black \
connectRegion2Black connectNxN collinearN connectValue materialCounting adjudicateFullBoard \
countingRule sittuyinPromotion promotionRank doubleStepRank doubleStepRankMin whiteFlag \
blackFlag castlingRookPiece whiteDropRegion blackDropRegion dropOnTop";

/// Values that leave a rule as Fairy-Stockfish has it by default.
fn is_default_value(key: &str, value: &str) -> bool {
    match key {
        "connectHorizontal" | "connectVertical" | "connectDiagonal" => value == "true",
        "dropNoDoubledCount" => value.trim() == "1",
        "connectValue" => value == "win",
        _ => matches!(value.trim(), "false" | "-" | "0" | "none" | ""),
    }
}

fn build(name: &str, line: usize, keys: &Keys, problems: Vec<Problem>) -> Conversion {
    let mut r = Reader {
        keys,
        used: HashSet::new(),
        problems,
        files: 8,
        ranks: 8,
    };
    let mut builder = Builder::new(&mut r, name);
    if let Some(b) = &mut builder
        && r.flag("immobilityIllegal", false)
    {
        b.dead = dead_squares(b, &r);
    }
    let game = builder.map(|b| b.finish(&mut r));
    report_unused(&mut r);
    let mut game = game.map(|t| toml::to_string(&t).unwrap_or_default());
    if let Some(text) = &game
        && let Err(e) = crate::load::load_str(text, &format!("{name}.toml"), name)
    {
        r.problems.push(Problem {
            line,
            key: String::new(),
            message: format!("the converted game does not load: {e}"),
            fatal: true,
        });
    }
    if r.problems.iter().any(|p| p.fatal) {
        game = None;
    }
    r.problems.sort_by_key(|p| p.line);
    Conversion {
        name: name.to_string(),
        line,
        game,
        problems: r.problems,
    }
}

/// The squares from which each piece could never move, on an empty board
/// (for `immobilityIllegal`): found by loading the game without that rule
/// and its goals, and trying each piece on each square.
fn dead_squares(b: &Builder, r: &Reader) -> IndexMap<String, [Vec<Sq>; 2]> {
    let mut scratch = Reader {
        keys: r.keys,
        used: HashSet::new(),
        problems: Vec::new(),
        files: r.files,
        ranks: r.ranks,
    };
    let mut table = b.finish(&mut scratch);
    if let Some(rules) = table.get_mut("rules").and_then(|v| v.as_table_mut()) {
        rules.insert("goals".into(), Vec::<String>::new().into());
    }
    let Ok(text) = toml::to_string(&table) else {
        return IndexMap::new();
    };
    let Ok(game) = crate::load::load_str(&text, "scratch.toml", &b.name) else {
        return IndexMap::new();
    };
    let mut out = IndexMap::new();
    for p in b.pieces.iter().filter(|p| !p.royal) {
        let dead: [Vec<Sq>; 2] = [0, 1].map(|c| {
            let letter = if c == 0 {
                p.letter.to_ascii_uppercase()
            } else {
                p.letter
            };
            (0..r.ranks)
                .flat_map(|rk| (0..r.files).map(move |f| (f, rk)))
                .filter(|&sq| {
                    let fen = lone_piece_fen(r, sq, letter, c);
                    game.parse_position(&fen)
                        .ok()
                        .and_then(|mut pos| crate::movegen::perft(&game, &mut pos, 1).ok())
                        == Some(0)
                })
                .collect()
        });
        if dead.iter().any(|d| !d.is_empty()) {
            out.insert(p.name.clone(), dead);
        }
    }
    out
}

/// A position string with one piece on an empty board, its owner to move.
fn lone_piece_fen(r: &Reader, (file, rank): Sq, letter: char, owner: usize) -> String {
    let rows: Vec<String> = (0..r.ranks)
        .rev()
        .map(|rk| {
            if rk != rank {
                return r.files.to_string();
            }
            let (before, after) = (file, r.files - file - 1);
            let num = |n: usize| if n == 0 { String::new() } else { n.to_string() };
            format!("{}{letter}{}", num(before), num(after))
        })
        .collect();
    let side = if owner == 0 { "w" } else { "b" };
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// Every key not read: cosmetic (skipped), another of Fairy-Stockfish's
/// (fatal unless at its default), or not Fairy-Stockfish's (warned).
fn report_unused(r: &mut Reader) {
    let other: HashSet<&str> = OTHER_FSF_KEYS.split_whitespace().collect();
    let unused: Vec<(String, String)> = r
        .keys
        .iter()
        .filter(|(k, _)| !r.used.contains(*k) && !COSMETIC.contains(&k.as_str()))
        .map(|(k, e)| (k.clone(), e.value.clone()))
        .collect();
    for (key, value) in unused {
        let mobility = key.starts_with("mobilityRegion");
        if other.contains(key.as_str()) || mobility {
            if !is_default_value(&key, &value) {
                r.fatal(
                    &key,
                    format!("'{value}': this rule cannot be converted yet"),
                );
            }
        } else if !is_piece_key(&key) {
            r.warn(
                &key,
                "not a key of Fairy-Stockfish 0.0.90: ignored, as Fairy-Stockfish ignores it"
                    .into(),
            );
        }
    }
}

/// The game under construction.
struct Builder {
    name: String,
    pieces: Vec<Piece>,
    promotion: [Vec<(usize, usize)>; 2],
    double_step: [Vec<(usize, usize)>; 2],
    castling: Option<(usize, usize)>,
    hands: bool,
    fen: String,
    /// `immobilityIllegal`: per piece, the squares it could never leave.
    dead: IndexMap<String, [Vec<Sq>; 2]>,
}

impl Builder {
    fn new(r: &mut Reader, name: &str) -> Option<Builder> {
        r.ranks = r.int("maxRank", 8).clamp(1, 10) as usize;
        r.files = r
            .text("maxFile")
            .map_or(Some(7), Reader::file_of)
            .unwrap_or(7)
            .min(11)
            + 1;
        let pieces = read_pieces(r);
        let promotion = r.coloured("promotionRegion", |r, k| r.region(k), Vec::new());
        let promotion = [
            if r.keys.contains_key("promotionRegionWhite") {
                promotion[0].clone()
            } else {
                rank_squares(r, 7)
            },
            if r.keys.contains_key("promotionRegionBlack") {
                promotion[1].clone()
            } else {
                rank_squares(r, 0)
            },
        ];
        // The double step is the built-in pawn's (a custom piece has 'i').
        let has_pawn = pieces.iter().any(|p| p.key == "pawn");
        let double_step = if r.flag("doubleStep", true) && has_pawn {
            let w = r
                .region("doubleStepRegionWhite")
                .unwrap_or_else(|| rank_squares(r, 1));
            let b = r
                .region("doubleStepRegionBlack")
                .unwrap_or_else(|| rank_squares(r, 6));
            [w, b]
        } else {
            r.used.insert("doubleStepRegionWhite".into());
            r.used.insert("doubleStepRegionBlack".into());
            [Vec::new(), Vec::new()]
        };
        let mut b = Builder {
            name: name.to_string(),
            pieces,
            promotion,
            double_step,
            castling: None,
            hands: false,
            fen: String::new(),
            dead: IndexMap::new(),
        };
        b.castling = b.castling(r);
        b.fen = b.start_fen(r)?;
        Some(b)
    }

    fn piece(&self, letter: char) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.letter == letter)
    }

    /// The castling files (king's, rook's) on each side, if castling is on.
    fn castling(&self, r: &mut Reader) -> Option<(usize, usize)> {
        let on = r.flag("castling", true);
        let king = r
            .letters("castlingKingPiece")
            .and_then(|l| l.first().copied());
        let rooks = r.letters("castlingRookPieces").unwrap_or_else(|| vec!['r']);
        let rank = r.int("castlingRank", 1);
        let kside = r
            .text("castlingKingsideFile")
            .map_or(Some(6), Reader::file_of);
        let qside = r
            .text("castlingQueensideFile")
            .map_or(Some(2), Reader::file_of);
        if !on {
            return None;
        }
        let king_ok = match king {
            Some(k) => self.piece(k).is_some_and(|p| p.royal),
            None => self.pieces.iter().any(|p| p.royal),
        };
        let rook_ok = rooks.len() == 1 && rooks[0] == 'r' && self.piece('r').is_some();
        if !king_ok || !rook_ok {
            if king.is_some() || r.keys.contains_key("castlingRookPieces") {
                r.fatal("castling", "castling with other pieces than the King and one Rook type cannot be converted yet".into());
            }
            return None;
        }
        if rank != 1 {
            r.fatal(
                "castlingRank",
                "castling on another rank than the first cannot be converted yet".into(),
            );
            return None;
        }
        match (kside, qside) {
            (Some(k), Some(q)) if k + 1 < r.files && q >= 1 && q + 1 < k => Some((k, q)),
            _ => {
                r.fatal(
                    "castlingKingsideFile",
                    "castling files outside the board".into(),
                );
                None
            }
        }
    }

    /// `startFen` with every field dagaz reads, castling and en passant
    /// fields kept only where the game has them.
    fn start_fen(&mut self, r: &mut Reader) -> Option<String> {
        let Some(fen) = r.text("startFen") else {
            r.problems.push(Problem {
                line: 0,
                key: "startFen".into(),
                message: "the section and its parents give no start position".into(),
                fatal: true,
            });
            return None;
        };
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap_or("");
        let side = fields.next().unwrap_or("w");
        let rest: Vec<&str> = fields.collect();
        let (castling, ep, counts) = match rest.first() {
            Some(t) if t.starts_with(|c: char| c.is_ascii_digit()) => ("-", "-", &rest[..]),
            Some(c) => (
                *c,
                rest.get(1).copied().unwrap_or("-"),
                rest.get(2..).unwrap_or(&[]),
            ),
            None => ("-", "-", &rest[..]),
        };
        let castling = if self.castling.is_some() {
            castling
        } else {
            "-"
        };
        let ep = if self.double_step.iter().all(|d| d.is_empty()) {
            "-"
        } else {
            ep
        };
        let half = counts.first().copied().unwrap_or("0");
        let full = counts.get(1).copied().unwrap_or("1");
        let side = if side == "b" { "b" } else { "w" };
        self.hands = board.contains('[') && !board.contains("[]") && !board.contains("[-]");
        Some(format!("{board} {side} {castling} {ep} {half} {full}"))
    }

    fn finish(&self, r: &mut Reader) -> Table {
        let mut t = Table::new();
        t.insert("game".into(), self.game_table());
        let mut board = Table::new();
        let last = (b'a' + r.files as u8 - 1) as char;
        board.insert("grid".into(), format!("a-{last} x {}-1", r.ranks).into());
        t.insert("board".into(), board.into());
        t.insert("players".into(), players());
        let mut zones = Table::new();
        let mut rules = Table::new();
        let mut fen = Table::new();
        let mut goals: Vec<String> = Vec::new();
        let mut handlers: Vec<String> = Vec::new();
        if let Some((k, q)) = self.castling {
            let file = |f: usize| ((b'a' + f as u8) as char).to_string();
            handlers.push(format!("castle:Rook:{}:{}", file(k), file(k - 1)));
            handlers.push(format!("castle:Rook:{}:{}", file(q), file(q + 1)));
            fen.insert("castling_960".into(), "Rook".into());
        }
        if self.double_step.iter().any(|d| !d.is_empty()) {
            fen.insert("en_passant".into(), "Pawn".into());
        }
        let pieces = self.pieces_table(r, &mut zones, &mut rules, &mut handlers);
        self.goals(r, &mut zones, &mut goals);
        if self.pieces.iter().any(|p| p.royal) {
            rules.insert("royal_safety".into(), true.into());
        }
        if r.flag("mustCapture", false) {
            rules.insert("capture_priority".into(), true.into());
        }
        if !r.flag("checking", true) {
            rules.insert("no_checks".into(), true.into());
        }
        if !r.flag("dropChecks", true) {
            rules.insert("no_drop_checks".into(), true.into());
        }
        rules.insert("goals".into(), goals.into());
        if !zones.is_empty() {
            t.insert("zones".into(), zones.into());
        }
        t.insert("pieces".into(), pieces.into());
        let mut setup = Table::new();
        setup.insert("fen".into(), self.fen.clone().into());
        t.insert("setup".into(), setup.into());
        t.insert("rules".into(), rules.into());
        if !handlers.is_empty() {
            let h: Table = handlers
                .into_iter()
                .enumerate()
                .map(|(i, h)| ((i + 1).to_string(), Value::from(h)))
                .collect();
            t.insert("handlers".into(), h.into());
        }
        if !fen.is_empty() {
            t.insert("fen".into(), fen.into());
        }
        t
    }

    fn game_table(&self) -> Value {
        let mut g = Table::new();
        g.insert("name".into(), self.name.clone().into());
        g.insert("title".into(), self.name.clone().into());
        g.insert(
            "description".into(),
            format!(
                "Fairy-Stockfish's custom variant [{}], converted by dagaz import",
                self.name
            )
            .into(),
        );
        g.insert("players".into(), vec!["White", "Black"].into());
        g.into()
    }
}

fn rank_squares(r: &Reader, rank: usize) -> Vec<(usize, usize)> {
    if rank >= r.ranks {
        return Vec::new();
    }
    (0..r.files).map(|f| (f, rank)).collect()
}

fn players() -> Value {
    let mut white = Table::new();
    white.insert("letter".into(), "w".into());
    let mut black = Table::new();
    black.insert("letter".into(), "b".into());
    black.insert("map".into(), "N=S S=N O=T T=O M=R R=M".into());
    let mut p = Table::new();
    p.insert("White".into(), white.into());
    p.insert("Black".into(), black.into());
    p.into()
}

/// The section's pieces, in Fairy-Stockfish's order.
fn read_pieces(r: &mut Reader) -> Vec<Piece> {
    let keys: Vec<String> = r.keys.keys().filter(|k| is_piece_key(k)).cloned().collect();
    let order = |k: &str| {
        PIECE_TYPES
            .iter()
            .position(|(t, _)| *t == k)
            .or_else(|| {
                k.strip_prefix("customPiece")
                    .and_then(|n| n.parse::<usize>().ok())
                    .map(|n| 100 + n)
            })
            .unwrap_or(1000)
    };
    let mut keys = keys;
    keys.sort_by_key(|k| order(k));
    let mut pieces: Vec<Piece> = Vec::new();
    for key in keys {
        let value = r.text(&key).unwrap_or("").to_string();
        let Some(letter) = piece_letter(&value) else {
            continue;
        };
        if let Some(p) = pieces.iter().position(|p| p.letter == letter) {
            r.warn(
                &key,
                format!("takes the letter '{letter}' from {}", pieces[p].key),
            );
            pieces.remove(p);
        }
        let custom = value.get(2..).unwrap_or("");
        let betza = match key.as_str() {
            "king" if custom.is_empty() => "K".to_string(),
            "king" => custom_betza(r, &key, custom),
            k if k.starts_with("customPiece") => custom_betza(r, &key, custom),
            k => match PIECE_TYPES
                .iter()
                .find(|(t, _)| *t == k)
                .and_then(|(_, b)| *b)
            {
                Some(b) => b.to_string(),
                None => {
                    r.fatal(
                        &key,
                        format!("the built-in piece '{k}' cannot be converted yet"),
                    );
                    continue;
                }
            },
        };
        if key == "soldier" && r.keys.contains_key("soldierPromotionRank") {
            r.fatal(
                "soldierPromotionRank",
                "a soldier's rank of promotion cannot be converted yet".into(),
            );
        }
        pieces.push(Piece {
            name: piece_name(&key),
            letter,
            royal: key == "king",
            key,
            betza,
        });
    }
    pieces
}

/// A custom piece's Betza string as Fairy-Stockfish reads it: the letters
/// it ignores are left out (with a warning); `e` (en passant) is refused.
fn custom_betza(r: &mut Reader, key: &str, betza: &str) -> String {
    if betza.contains('e') {
        r.fatal(
            key,
            format!("'{betza}': en passant by a custom piece cannot be converted yet"),
        );
    }
    let kept: String = betza.chars().filter(|c| !"ajxoyzqe".contains(*c)).collect();
    if kept.len() + betza.matches('e').count() != betza.len() {
        r.warn(
            key,
            format!("'{betza}': Fairy-Stockfish ignores the letters a j x o y z q, so it is read as '{kept}'"),
        );
    }
    if kept.contains('i') && !r.flag("doubleStep", true) {
        r.fatal(
            key,
            "'i' moves with doubleStep = false cannot be converted yet".into(),
        );
    }
    kept
}

/// A square as (file, rank), 0-based.
type Sq = (usize, usize);

/// How the pieces promote, read once.
struct Promotions {
    /// Chess-style: the types that promote, per player.
    pawns: [Vec<char>; 2],
    /// Chess-style: what they may become, per player.
    to: [Vec<char>; 2],
    optional: bool,
    /// Shogi-style (`promotedPieceType`): X may turn into Y's moves.
    shogi: Vec<(char, char)>,
    shogi_optional: bool,
}

impl Promotions {
    fn read(r: &mut Reader, builtin_pawn: Vec<char>) -> Promotions {
        let pawn_types = r.letters("pawnTypes");
        let pawns = r.coloured(
            "promotionPawnTypes",
            |r, k| r.letters(k),
            pawn_types.unwrap_or(builtin_pawn),
        );
        let to = r.coloured("promotionPieceTypes", |r, k| r.letters(k), Vec::new());
        let optional = !r.flag("mandatoryPawnPromotion", true);
        let shogi = r
            .text("promotedPieceType")
            .map(|v| {
                v.split_whitespace()
                    .filter_map(|pair| {
                        let mut c = pair.chars();
                        let from = c.next()?.to_ascii_lowercase();
                        let to = c.nth(1)?.to_ascii_lowercase();
                        (to != '-').then_some((from, to))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let shogi_optional = !r.flag("mandatoryPiecePromotion", false);
        for key in ["piecePromotionOnCapture", "pieceDemotion", "dropPromoted"] {
            if r.flag(key, false) {
                r.fatal(key, "this promotion rule cannot be converted yet".into());
            }
        }
        Promotions {
            pawns,
            to,
            optional,
            shogi,
            shogi_optional,
        }
    }
}

impl Builder {
    /// `[pieces]`, with the zones, rules and handlers the pieces need.
    fn pieces_table(
        &self,
        r: &mut Reader,
        zones: &mut Table,
        rules: &mut Table,
        handlers: &mut Vec<String>,
    ) -> Table {
        let to_hand = r.flag("capturesToHand", false);
        let promotions = Promotions::read(r, self.builtin_pawn());
        let drop_rule = self.drop_rule(r);
        let mut out = Table::new();
        let mut extra: Vec<(String, Table)> = Vec::new();
        for p in &self.pieces {
            let mut t = self.moves_entry(p);
            self.chess_promotion(r, p, &promotions, to_hand, &mut t, &mut extra);
            self.shogi_promotion(r, p, &promotions, to_hand, &mut t, &mut extra);
            self.immobility(r, p, zones, &mut t);
            if let Some(rule) = &drop_rule
                && !p.royal
                && let Some(expr) = rule.expression(self, r, p, zones, handlers)
            {
                t.insert("drops".into(), expr.into());
            }
            out.insert(p.name.clone(), t.into());
        }
        for (name, t) in extra {
            if out.contains_key(&name) {
                r.fatal(
                    "promotedPieceType",
                    format!("two kinds of promoted pieces named {name}"),
                );
            }
            out.insert(name, t.into());
        }
        if self.promotion.iter().any(|z| !z.is_empty()) {
            zones.insert("promotion".into(), self.per_player(r, &self.promotion));
        }
        if self.double_step.iter().any(|d| !d.is_empty()) {
            zones.insert("double_step".into(), self.per_player(r, &self.double_step));
        }
        if to_hand {
            rules.insert("captures_to_hand".into(), true.into());
            rules.insert("dropped_pieces_have_moved".into(), true.into());
        } else if drop_rule.is_some() || self.hands {
            rules.insert("hands".into(), true.into());
            rules.insert("dropped_pieces_have_moved".into(), true.into());
        }
        out
    }

    /// A piece's letter, moves and royalty.
    fn moves_entry(&self, p: &Piece) -> Table {
        let mut t = Table::new();
        t.insert(
            "letter".into(),
            p.letter.to_ascii_uppercase().to_string().into(),
        );
        if p.key == "pawn" {
            let double = self.double_step.iter().any(|d| !d.is_empty());
            t.insert("moves".into(), pawn_moves(double).into());
            t.insert("resets_clock".into(), true.into());
        } else if !p.betza.is_empty() {
            t.insert("betza".into(), p.betza.clone().into());
        }
        if p.royal {
            t.insert("royal".into(), true.into());
            if self.castling.is_some() {
                t.insert("moves".into(), vec!["[M] [1]", "[M] [2]"].into());
            }
        }
        t
    }

    /// Chess-style promotion of a pawn type; with captures to hand the
    /// pieces it becomes are their own types that go back as pawns (`Q~`).
    fn chess_promotion(
        &self,
        r: &mut Reader,
        p: &Piece,
        pr: &Promotions,
        to_hand: bool,
        t: &mut Table,
        extra: &mut Vec<(String, Table)>,
    ) {
        if !pr.pawns.iter().any(|set| set.contains(&p.letter)) {
            return;
        }
        let names = |set: &[char]| -> Vec<String> {
            set.iter()
                .filter_map(|l| self.piece(*l))
                .map(|q| {
                    if to_hand {
                        format!("Promoted{}", q.name)
                    } else {
                        q.name.clone()
                    }
                })
                .collect()
        };
        let (w, b) = (names(&pr.to[0]), names(&pr.to[1]));
        if w.is_empty() && b.is_empty() {
            if p.key == "pawn" {
                r.fatal("promotionPieceTypes", "pawns with nothing to promote to (Fairy-Stockfish then keeps them off the last rank) cannot be converted yet".into());
            }
            return;
        }
        for name in w.iter().chain(&b) {
            let base = name.trim_start_matches("Promoted");
            if to_hand
                && !extra.iter().any(|(x, _)| x == name)
                && let Some(q) = self.pieces.iter().find(|q| q.name == base)
            {
                let mut e = self.moves_entry(q);
                e.insert(
                    "symbol".into(),
                    format!("{}~", q.letter.to_ascii_uppercase()).into(),
                );
                e.insert("demotes_to".into(), p.name.clone().into());
                extra.push((name.clone(), e));
            }
        }
        let mut promote = Table::new();
        promote.insert("zone".into(), "promotion".into());
        if w == b {
            promote.insert("to".into(), w.into());
        } else {
            let mut per = Table::new();
            per.insert("White".into(), w.into());
            per.insert("Black".into(), b.into());
            promote.insert("to".into(), per.into());
        }
        if pr.optional {
            promote.insert("optional".into(), true.into());
        }
        t.insert("promote".into(), promote.into());
    }

    /// Shogi-style promotion (`promotedPieceType X:Y`): a move that starts
    /// or ends in the zone may turn X into a piece that moves as Y, written
    /// `+X`, which goes back to the hand as X.
    fn shogi_promotion(
        &self,
        r: &mut Reader,
        p: &Piece,
        pr: &Promotions,
        to_hand: bool,
        t: &mut Table,
        extra: &mut Vec<(String, Table)>,
    ) {
        let Some(&(_, to)) = pr.shogi.iter().find(|(from, _)| *from == p.letter) else {
            return;
        };
        let Some(target) = self.piece(to) else {
            r.fatal(
                "promotedPieceType",
                format!("'{to}' is no piece of this variant"),
            );
            return;
        };
        if t.contains_key("promote") || target.royal || target.key == "pawn" {
            r.fatal(
                "promotedPieceType",
                format!("{} promoting both ways, or into a royal piece or a pawn, cannot be converted yet", p.name),
            );
            return;
        }
        let name = format!("Promoted{}", p.name);
        let mut e = self.moves_entry(target);
        e.insert(
            "letter".into(),
            p.letter.to_ascii_uppercase().to_string().into(),
        );
        e.insert(
            "symbol".into(),
            format!("+{}", p.letter.to_ascii_uppercase()).into(),
        );
        if to_hand {
            e.insert("demotes_to".into(), p.name.clone().into());
        }
        extra.push((name.clone(), e));
        let mut promote = Table::new();
        promote.insert("zone".into(), "promotion".into());
        promote.insert("to".into(), vec![name].into());
        promote.insert("from_zone".into(), true.into());
        if pr.shogi_optional {
            promote.insert("optional".into(), true.into());
        }
        t.insert("promote".into(), promote.into());
    }

    /// `immobilityIllegal`: the squares a piece could never leave are its
    /// forced promotion zone (or, without promotion, the rule cannot be
    /// converted).
    fn immobility(&self, r: &mut Reader, p: &Piece, zones: &mut Table, t: &mut Table) {
        let Some(dead) = self.dead.get(&p.name) else {
            return;
        };
        let zone = format!("dead_{}", p.name.to_lowercase());
        zones.insert(zone.clone(), self.per_player(r, dead));
        match t.get_mut("promote").and_then(|v| v.as_table_mut()) {
            Some(promote) => {
                promote.insert("forced".into(), zone.into());
            }
            None => r.fatal(
                "immobilityIllegal",
                format!("{} could never move again from some squares and cannot promote there: cannot be converted yet", p.name),
            ),
        }
    }

    /// The built-in pawn type's letter, if the game has it.
    fn builtin_pawn(&self) -> Vec<char> {
        self.pieces
            .iter()
            .filter(|p| p.key == "pawn")
            .map(|p| p.letter)
            .collect()
    }

    /// A zone table `{ White = "…", Black = "…" }`.
    fn per_player(&self, r: &Reader, squares: &[Vec<Sq>; 2]) -> Value {
        let mut z = Table::new();
        z.insert("White".into(), r.squares_text(&squares[0]).into());
        z.insert("Black".into(), r.squares_text(&squares[1]).into());
        z.into()
    }

    /// Where pieces drop, if they do.
    fn drop_rule(&self, r: &mut Reader) -> Option<DropRule> {
        if !r.flag("pieceDrops", false) {
            return None;
        }
        let all: Vec<Sq> = (0..r.ranks)
            .flat_map(|rk| (0..r.files).map(move |f| (f, rk)))
            .collect();
        let region = r.coloured("dropRegion", |r, k| r.region(k), all.clone());
        let first_rank = r.flag("firstRankPawnDrops", false);
        let in_zone = r.flag("promotionZonePawnDrops", false);
        let pawn: [Vec<Sq>; 2] = [0, 1].map(|c| {
            region[c]
                .iter()
                .copied()
                .filter(|&(_, rk)| first_rank || rk != if c == 0 { 0 } else { r.ranks - 1 })
                .filter(|s| in_zone || !self.promotion[c].contains(s))
                .collect()
        });
        let no_doubled = r.letters("dropNoDoubled").and_then(|l| l.first().copied());
        let count = r.int("dropNoDoubledCount", 1);
        let no_doubled = no_doubled
            .and_then(|l| self.piece(l))
            .map(|p| (p.name.clone(), count));
        Some(DropRule {
            region,
            pawn,
            no_doubled,
        })
    }
}

/// Where and how pieces drop.
struct DropRule {
    region: [Vec<Sq>; 2],
    /// The built-in pawn's squares.
    pawn: [Vec<Sq>; 2],
    /// `dropNoDoubled`: the piece, and how many of it a file may hold.
    no_doubled: Option<(String, i64)>,
}

impl DropRule {
    /// A piece's `drops` expression, with its zone and handler; none if it
    /// may not drop at all.
    fn expression(
        &self,
        b: &Builder,
        r: &mut Reader,
        p: &Piece,
        zones: &mut Table,
        handlers: &mut Vec<String>,
    ) -> Option<String> {
        let base = if p.key == "pawn" {
            &self.pawn
        } else {
            &self.region
        };
        let none = Vec::new();
        let dead = b.dead.get(&p.name);
        let squares: [Vec<Sq>; 2] = [0, 1].map(|c| {
            let dead = dead.map_or(&none, |d| &d[c]);
            base[c]
                .iter()
                .copied()
                .filter(|s| !dead.contains(s))
                .collect()
        });
        let mut expr = String::from("[p]");
        if squares.iter().any(|s| s.len() < r.files * r.ranks) {
            let zone = format!("drop_{}", p.name.to_lowercase());
            zones.insert(zone.clone(), b.per_player(r, &squares));
            expr.push_str(&format!("[@{zone}]"));
        }
        if let Some((name, count)) = &self.no_doubled
            && *name == p.name
        {
            if *count <= 0 {
                return None;
            }
            handlers.push(format!("file_free:{name}:{count}"));
            expr.push_str(&format!("[{}]", handlers.len()));
        }
        Some(expr)
    }
}

impl Builder {
    /// The end conditions, as goals.
    fn goals(&self, r: &mut Reader, zones: &mut Table, goals: &mut Vec<String>) {
        self.flag_goals(r, zones, goals);
        self.extinction_goals(r, goals);
        self.connect_goal(r, goals);
        if self.pieces.iter().any(|p| p.royal) {
            let mate = r.outcome("checkmateValue", Outcome::Loss);
            if mate != Outcome::None {
                goals.push(format!("checkmate = {}", mate.other().word()));
            }
        }
        let stalemate = r.outcome("stalemateValue", Outcome::Draw);
        goals.push(format!("stalemate = {}", stalemate.other().word()));
        let repetitions = r.int("nFoldRule", 3);
        let value = r.outcome("nFoldValue", Outcome::Draw);
        if repetitions > 0 {
            goals.push(format!(
                "repetition {repetitions} = {}",
                value.other().word()
            ));
        }
        let moves = r.int("nMoveRule", 50);
        if moves > 0 {
            goals.push(format!("no_progress {} = draw", moves * 2));
        }
    }

    /// `flagRegion…` and `flagPiece…`: reaching the region wins.
    fn flag_goals(&self, r: &mut Reader, zones: &mut Table, goals: &mut Vec<String>) {
        let region = r.coloured("flagRegion", |r, k| r.region(k), Vec::new());
        let piece = r.coloured("flagPiece", |r, k| r.letters(k), vec!['*']);
        let race = r.flag("flagMove", false);
        let safe = r.flag("flagPieceSafe", false);
        if region.iter().all(|z| z.is_empty()) {
            return;
        }
        zones.insert("flag".into(), self.per_player(r, &region));
        for (c, player) in ["White", "Black"].iter().enumerate() {
            if region[c].is_empty() {
                continue;
            }
            let who = match piece[c].first() {
                Some('*') | None => String::new(),
                Some(l) => match self.piece(*l) {
                    Some(p) => format!(" {}", p.name),
                    None => continue,
                },
            };
            // A race: the first player's arrival gives the second one more
            // move (Fairy-Stockfish's flagMove).
            let how = if race && c == 0 {
                " answerable"
            } else if safe {
                " safe"
            } else {
                ""
            };
            goals.push(format!("{player}: reach flag{who}{how} = win"));
        }
    }

    /// `extinctionValue`: a player left with at most `extinctionPieceCount`
    /// pieces of one of the types gets the value.
    fn extinction_goals(&self, r: &mut Reader, goals: &mut Vec<String>) {
        let value = r.outcome("extinctionValue", Outcome::None);
        let types = r.letters("extinctionPieceTypes").unwrap_or_default();
        let count = r.int("extinctionPieceCount", 0);
        if value == Outcome::None || types.is_empty() {
            return;
        }
        if r.flag("capturesToHand", false) || r.flag("pieceDrops", false) {
            r.fatal(
                "extinctionValue",
                "extinction where pieces in hand count cannot be converted yet".into(),
            );
        }
        for l in types {
            let who = if l == '*' {
                String::new()
            } else {
                match self.piece(l) {
                    Some(p) => format!(" {}", p.name),
                    None => continue,
                }
            };
            goals.push(format!("pieces{who} <= {count} = {}", value.word()));
        }
    }
}

impl Builder {
    /// `connectN`: that many of the player's pieces in a row.
    fn connect_goal(&self, r: &mut Reader, goals: &mut Vec<String>) {
        let n = r.int("connectN", 0);
        let types = r.letters("connectPieceTypes").unwrap_or_else(|| vec!['*']);
        let value = r.outcome("connectValue", Outcome::Win);
        let dirs: String = [
            (r.flag("connectHorizontal", true), "EW"),
            (r.flag("connectVertical", true), "NS"),
            (r.flag("connectDiagonal", true), "X"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, d)| *d)
        .collect();
        if n <= 0 || dirs.is_empty() || value == Outcome::None {
            return;
        }
        let within = if dirs.len() == 5 {
            String::new()
        } else {
            format!(" in {dirs}")
        };
        let pieces: String = types
            .iter()
            .filter(|l| **l != '*')
            .filter_map(|l| self.piece(*l))
            .map(|p| format!(" {}", p.name))
            .collect();
        goals.push(format!("line {n}{within}{pieces} = {}", value.word()));
    }
}

/// The built-in pawn: a step forward, captures diagonally forward, a
/// double step from its double-step zone, en passant.
fn pawn_moves(double: bool) -> String {
    if double {
        "N[p]; OM[e]; [@double_step](N[p]){2}; [(te,=Pawn,x)>E] O [l>N]; [(te,=Pawn,x)>W] M [l>N]"
            .into()
    } else {
        "N[p]; OM[e]".into()
    }
}
