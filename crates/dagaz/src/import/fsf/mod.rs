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
//!
//! - this module: the entry point, the problems, the keys left over;
//! - `parents`: parents and the order of keys over them;
//! - `reader`: one section's keys read as Fairy-Stockfish reads them;
//! - `builder`: the game file (board, players, setup, rules);
//! - `pieces`: pieces, promotion, drops, stuck squares;
//! - `goals`: the end of the game.

mod builder;
mod goals;
mod parents;
mod pieces;
mod reader;

use std::collections::HashSet;
use std::fmt;

use indexmap::IndexMap;

use super::ini::{self, Entry};
use builder::Builder;
use parents::{builtin_parents, resolve};
use pieces::{dead_squares, is_piece_key};
use reader::Reader;
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
