//! Pieces: Fairy-Stockfish's piece keys, their moves in Betza notation,
//! promotion (chess- and shogi-style), drops, and the squares a piece
//! could never leave (`immobilityIllegal`).

use std::collections::HashSet;

use indexmap::IndexMap;
use toml::{Table, Value};

use super::builder::Builder;
use super::reader::{Reader, Sq};
use crate::notation::betza::to_dagaz;

/// The built-in piece types, in the order Fairy-Stockfish reads them,
/// with their moves in Betza notation (`None`: not expressible).
pub(super) const PIECE_TYPES: &[(&str, Option<&str>)] = &[
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

pub(super) fn is_piece_key(key: &str) -> bool {
    key == "king"
        || PIECE_TYPES.iter().any(|(k, _)| *k == key)
        || key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| (1..=25).contains(&n))
}

/// A piece key's letter (lower case); none when the value removes it.
pub(super) fn piece_letter(value: &str) -> Option<char> {
    value
        .chars()
        .next()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_lowercase())
}

/// A piece of the converted game.
pub(super) struct Piece {
    /// The dagaz name (`Pawn`, `FersAlfil`, `Custom1`, `King`).
    pub(super) name: String,
    /// Lower case.
    pub(super) letter: char,
    /// Fairy-Stockfish's key (`pawn`, `customPiece1`, `king`).
    pub(super) key: String,
    /// Moves in Betza notation; the built-in pawn's are written out.
    pub(super) betza: String,
    pub(super) royal: bool,
}

pub(super) fn piece_name(key: &str) -> String {
    if let Some(n) = key.strip_prefix("customPiece") {
        return format!("Custom{n}");
    }
    let mut c = key.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// The squares from which each piece could never move, on an empty board
/// (for `immobilityIllegal`): found by loading the game without that rule
/// and its goals, and trying each piece on each square.
pub(super) fn dead_squares(b: &Builder, r: &Reader) -> IndexMap<String, [Vec<Sq>; 2]> {
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
            r.all_squares()
                .into_iter()
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
pub(super) fn lone_piece_fen(r: &Reader, (file, rank): Sq, letter: char, owner: usize) -> String {
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

/// The section's pieces, in Fairy-Stockfish's order.
pub(super) fn read_pieces(r: &mut Reader) -> Vec<Piece> {
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
pub(super) fn custom_betza(r: &mut Reader, key: &str, betza: &str) -> String {
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

/// How the pieces promote, read once.
pub(super) struct Promotions {
    /// Chess-style: the types that promote, per player.
    pub(super) pawns: [Vec<char>; 2],
    /// Chess-style: what they may become, per player.
    pub(super) to: [Vec<char>; 2],
    pub(super) optional: bool,
    /// Shogi-style (`promotedPieceType`): X may turn into Y's moves.
    pub(super) shogi: Vec<(char, char)>,
    pub(super) shogi_optional: bool,
    /// `promotionLimit`: at most this many of a type, promoted into.
    pub(super) limits: Vec<(char, i64)>,
}

impl Promotions {
    pub(super) fn read(r: &mut Reader, builtin_pawn: Vec<char>) -> Promotions {
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
        let limits = r
            .text("promotionLimit")
            .map(|v| {
                v.split_whitespace()
                    .filter_map(|pair| {
                        let letter = pair.chars().next()?.to_ascii_lowercase();
                        Some((letter, pair.get(2..)?.parse::<i64>().ok()?))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Promotions {
            limits,
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
    pub(super) fn pieces_table(
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
        for p in &self.pieces {
            if let Some(m) = self.mobility.get(&p.name) {
                zones.insert(mobility_zone(p), self.per_player(r, m));
            }
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
    pub(super) fn moves_entry(&self, p: &Piece) -> Table {
        let mut t = Table::new();
        t.insert(
            "letter".into(),
            p.letter.to_ascii_uppercase().to_string().into(),
        );
        let mut moves: Vec<String> = Vec::new();
        if p.key == "pawn" {
            let double = self.double_step.iter().any(|d| !d.is_empty());
            moves.push(pawn_moves(double));
            t.insert("resets_clock".into(), true.into());
        } else if !p.betza.is_empty() {
            match (self.mobility.get(&p.name), to_dagaz(&p.betza)) {
                // `mobilityRegion…`: every move of the piece ends in its zone.
                (Some(_), Ok(expr)) => {
                    let zone = mobility_zone(p);
                    let within: Vec<String> =
                        expr.split("; ").map(|a| format!("{a} [@{zone}]")).collect();
                    moves.push(within.join("; "));
                }
                _ => {
                    t.insert("betza".into(), p.betza.clone().into());
                }
            }
        }
        if p.royal {
            t.insert("royal".into(), true.into());
            if self.castling.is_some() {
                moves.extend(["[M] [1]".to_string(), "[M] [2]".to_string()]);
            }
        }
        if !moves.is_empty() {
            t.insert("moves".into(), moves.into());
        }
        t
    }

    /// Chess-style promotion of a pawn type; with captures to hand the
    /// pieces it becomes are their own types that go back as pawns (`Q~`).
    pub(super) fn chess_promotion(
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
        if !pr.limits.is_empty() {
            if to_hand {
                r.fatal(
                    "promotionLimit",
                    "promotion limits where captures go to hand cannot be converted yet".into(),
                );
            }
            let limits: Table = pr
                .limits
                .iter()
                .filter_map(|(l, n)| self.piece(*l).map(|q| (q.name.clone(), Value::from(*n))))
                .collect();
            promote.insert("limits".into(), limits.into());
        }
        t.insert("promote".into(), promote.into());
    }

    /// Shogi-style promotion (`promotedPieceType X:Y`): a move that starts
    /// or ends in the zone may turn X into a piece that moves as Y, written
    /// `+X`, which goes back to the hand as X.
    pub(super) fn shogi_promotion(
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
    pub(super) fn immobility(&self, r: &mut Reader, p: &Piece, zones: &mut Table, t: &mut Table) {
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
    pub(super) fn builtin_pawn(&self) -> Vec<char> {
        self.pieces
            .iter()
            .filter(|p| p.key == "pawn")
            .map(|p| p.letter)
            .collect()
    }

    /// A zone table `{ White = "…", Black = "…" }`.
    pub(super) fn per_player(&self, r: &Reader, squares: &[Vec<Sq>; 2]) -> Value {
        let mut z = Table::new();
        z.insert("White".into(), r.squares_text(&squares[0]).into());
        z.insert("Black".into(), r.squares_text(&squares[1]).into());
        z.into()
    }

    /// Where pieces drop, if they do.
    pub(super) fn drop_rule(&self, r: &mut Reader) -> Option<DropRule> {
        if !r.flag("pieceDrops", false) {
            return None;
        }
        let all = r.all_squares();
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
pub(super) struct DropRule {
    pub(super) region: [Vec<Sq>; 2],
    /// The built-in pawn's squares.
    pub(super) pawn: [Vec<Sq>; 2],
    /// `dropNoDoubled`: the piece, and how many of it a file may hold.
    pub(super) no_doubled: Option<(String, i64)>,
}

impl DropRule {
    /// A piece's `drops` expression, with its zone and handler; none if it
    /// may not drop at all.
    pub(super) fn expression(
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
        let mobility = b.mobility.get(&p.name);
        let squares: [Vec<Sq>; 2] = [0, 1].map(|c| {
            let dead = dead.map_or(&none, |d| &d[c]);
            base[c]
                .iter()
                .copied()
                .filter(|s| !dead.contains(s) && mobility.is_none_or(|m| m[c].contains(s)))
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

/// The built-in pawn: a step forward, captures diagonally forward, a
/// double step from its double-step zone, en passant.
pub(super) fn pawn_moves(double: bool) -> String {
    if double {
        "N[p]; OM[e]; [@double_step](N[p]){2}; [(te,=Pawn,x)>E] O [l>N]; [(te,=Pawn,x)>W] M [l>N]"
            .into()
    } else {
        "N[p]; OM[e]".into()
    }
}

/// The zone of a piece's `mobilityRegion…`.
fn mobility_zone(p: &Piece) -> String {
    format!("mobility_{}", p.name.to_lowercase())
}

/// `mobilityRegion<Colour><Piece>` of each piece that has one: the squares
/// it may move to (and be dropped on), per player; a colour without the
/// key is not limited.
pub(super) fn mobility_regions(r: &mut Reader, pieces: &[Piece]) -> IndexMap<String, [Vec<Sq>; 2]> {
    let all = r.all_squares();
    let mut out = IndexMap::new();
    for p in pieces {
        let mut key = p.key.clone();
        if let Some(first) = key.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        let w = r.region(&format!("mobilityRegionWhite{key}"));
        let b = r.region(&format!("mobilityRegionBlack{key}"));
        if w.is_none() && b.is_none() {
            continue;
        }
        if p.key == "pawn" {
            r.fatal(
                &format!("mobilityRegionWhite{key}"),
                "a mobility region for the pawn cannot be converted yet".into(),
            );
        }
        out.insert(
            p.name.clone(),
            [
                w.unwrap_or_else(|| all.clone()),
                b.unwrap_or_else(|| all.clone()),
            ],
        );
    }
    out
}
