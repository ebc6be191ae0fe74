//! The game file of one section: board, players, setup, rules and the
//! parts the other modules write (pieces, goals).

use indexmap::IndexMap;
use toml::{Table, Value};

use super::Problem;
use super::pieces::{Piece, mobility_regions, read_pieces};
use super::reader::{Reader, Sq};

/// The game under construction.
pub(super) struct Builder {
    pub(super) name: String,
    pub(super) pieces: Vec<Piece>,
    pub(super) promotion: [Vec<(usize, usize)>; 2],
    pub(super) double_step: [Vec<(usize, usize)>; 2],
    pub(super) castling: Option<(usize, usize)>,
    pub(super) hands: bool,
    pub(super) fen: String,
    /// `immobilityIllegal`: per piece, the squares it could never leave.
    pub(super) dead: IndexMap<String, [Vec<Sq>; 2]>,
    /// `mobilityRegion…`: per piece, where it may move, per player.
    pub(super) mobility: IndexMap<String, [Vec<Sq>; 2]>,
    /// `checkCounting`: the checks that win.
    pub(super) checks: Option<u32>,
}

impl Builder {
    pub(super) fn new(r: &mut Reader, name: &str) -> Option<Builder> {
        r.ranks = r.int("maxRank", 8).clamp(1, 10) as usize;
        r.files = r
            .text("maxFile")
            .map_or(Some(7), Reader::file_of)
            .unwrap_or(7)
            .min(11)
            + 1;
        let pieces = read_pieces(r);
        let mobility = mobility_regions(r, &pieces);
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
            mobility,
            checks: None,
        };
        b.castling = b.castling(r);
        b.fen = b.start_fen(r)?;
        Some(b)
    }

    pub(super) fn piece(&self, letter: char) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.letter == letter)
    }

    /// The castling files (king's, rook's) on each side, if castling is on.
    pub(super) fn castling(&self, r: &mut Reader) -> Option<(usize, usize)> {
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
    pub(super) fn start_fen(&mut self, r: &mut Reader) -> Option<String> {
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
        // `checkCounting`: the checks each side may still give (`3+3`).
        let (checks, counts) = match counts.first() {
            Some(c) if c.contains('+') => (Some(*c), &counts[1..]),
            _ => (None, counts),
        };
        self.checks = None;
        if r.flag("checkCounting", false) {
            match checks.map(|c| c.split('+').map(str::parse::<u32>).collect::<Vec<_>>()) {
                Some(v) if v.len() == 2 && v[0].is_ok() && v[0] == v[1] => {
                    self.checks = v[0].clone().ok();
                }
                _ => r.fatal(
                    "checkCounting",
                    "check counting needs the same count for both sides in startFen (`3+3`)".into(),
                ),
            }
        }
        let checks = self.checks.map(|n| format!(" {n}+{n}")).unwrap_or_default();
        let half = counts.first().copied().unwrap_or("0");
        let full = counts.get(1).copied().unwrap_or("1");
        let side = if side == "b" { "b" } else { "w" };
        self.hands = board.contains('[') && !board.contains("[]") && !board.contains("[-]");
        Some(format!(
            "{board} {side} {castling} {ep}{checks} {half} {full}"
        ))
    }

    pub(super) fn finish(&self, r: &mut Reader) -> Table {
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

    pub(super) fn game_table(&self) -> Value {
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

pub(super) fn rank_squares(r: &Reader, rank: usize) -> Vec<(usize, usize)> {
    if rank >= r.ranks {
        return Vec::new();
    }
    (0..r.files).map(|f| (f, rank)).collect()
}

pub(super) fn players() -> Value {
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
