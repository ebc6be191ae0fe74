//! Loading a game file (TOML with notation strings) into a [`Game`].
//! Every problem is reported with the file, the place in it and what was
//! expected; as many problems as possible are collected in one pass.
//!
//! - [`spec`]: the file's sections as read from TOML (names, spans);
//! - this module: the entry points, variants, and putting the game together;
//! - `board`: board kind, topology, players and zones;
//! - `pieces`: piece letters, programs (compiled from the notation),
//!   promotion, glyphs and the position invariants a piece declares;
//! - `rules`: handlers, end rule, rules and goals, position-string
//!   settings, display;
//! - [`library`]: the built-in games.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

mod board;
pub mod library;
mod pieces;
mod rules;
mod spec;

use spec::FileSpec;

pub use library::{BuiltinGame, builtin_games, load_game};

use crate::board::{BoardKind, BoardSpec, DirMap, DirSpec, Square, Topology, Zones};
use crate::diagnostic::{Diagnostic, LoadError, string_offsets};
use crate::game::attacks::Attacks;
use crate::game::display::{Display, DisplaySpec};
use crate::game::extension::SquareTest;
use crate::game::numbers::Part;
use crate::game::{
    FenConfig, Game, GoalNames, Goals, PieceType, Player, PositionFormat, Promotion, Rules,
    Shuffle, parse_goal,
};
use crate::handler::{EndRule, Handler, HandlerRegistry};
use crate::movegen::check_position;
use crate::notation::sexpr::{Sexp, SexpKind};
use crate::notation::zrf::ZrfBlock;
use crate::notation::{self, CompileContext, MoveEntry, MovedRef, Node, ProgramBuilder, Resolved};
use crate::position::{CellTable, Position};
use crate::text::read_position;

/// Why a game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("unknown game '{name}'{suggestions}; the built-in games are: {known}")]
    UnknownGame {
        name: String,
        /// " (did you mean …?)", or empty.
        suggestions: String,
        known: String,
    },
    #[error("cannot read game file {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Invalid(#[from] LoadError),
}

/// Loads a game from the text of a game file. `file` names it in errors;
/// `name` is the game's identifier if the file does not give one.
pub fn load_str(source: &str, file: &str, name: &str) -> Result<Game, LoadError> {
    load_with(source, file, name, &HandlerRegistry::builtin())
}

/// The names of the variants a game file declares (`[variants.NAME]`), in
/// the file's order, read without compiling the game (none if the file is
/// not TOML).
pub fn variant_names(source: &str) -> Vec<String> {
    let Ok(mut root) = toml::from_str::<toml::Table>(source) else {
        return Vec::new();
    };
    match root.remove("variants") {
        Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Lays the table `[variants.<variant>]` of a game file over the rest of the
/// file (tables merge key by key, other values are replaced) and returns
/// the resulting file text. Errors in a variant are reported against that
/// text.
pub fn apply_variant(source: &str, file: &str, variant: &str) -> Result<String, LoadError> {
    let fail = |message: String| LoadError::new(file, source, vec![Diagnostic::new(message)]);
    let mut root: toml::Table = toml::from_str(source).map_err(|e| {
        LoadError::new(
            file,
            source,
            vec![Diagnostic::new(e.message().trim().to_string()).at(e.span(), "here")],
        )
    })?;
    let variants = match root.remove("variants") {
        Some(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    // The variants to lay over the file, bases first: those this one
    // `extends` (with theirs before them), then itself.
    let mut overlays: Vec<toml::Table> = Vec::new();
    lay_variant(&variants, variant, &mut Vec::new(), &mut overlays).map_err(fail)?;
    for overlay in &overlays {
        merge(&mut root, overlay);
    }
    toml::to_string(&root).map_err(|e| fail(format!("variant '{variant}': {e}")))
}

/// Appends to `out` the overlays of variant `name`: those of the variants
/// it extends (a name or a list, in order), then its own. `path` holds the
/// variants being expanded, to refuse a chain that comes back to itself.
fn lay_variant(
    variants: &toml::Table,
    name: &str,
    path: &mut Vec<String>,
    out: &mut Vec<toml::Table>,
) -> Result<(), String> {
    let Some(toml::Value::Table(overlay)) = variants.get(name) else {
        let known: Vec<&str> = variants.keys().map(String::as_str).collect();
        return Err(format!(
            "unknown variant '{name}'{}; this game has: {}",
            path.last()
                .map_or(String::new(), |by| format!(" (extended by '{by}')")),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ));
    };
    if path.iter().any(|p| p == name) {
        return Err(format!(
            "variant '{name}': its `extends` chain comes back to itself ({} → {name})",
            path.join(" → ")
        ));
    }
    let mut overlay = overlay.clone();
    overlay.remove("description");
    let bases: Vec<String> = match overlay.remove("extends") {
        None => Vec::new(),
        Some(toml::Value::String(base)) => vec![base],
        Some(toml::Value::Array(list)) => list
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("variant '{name}': `extends` lists variant names"))?,
        Some(_) => {
            return Err(format!(
                "variant '{name}': `extends` must name another variant, or list them"
            ));
        }
    };
    path.push(name.to_string());
    for base in &bases {
        lay_variant(variants, base, path, out)?;
    }
    path.pop();
    out.push(overlay);
    Ok(())
}

fn merge(base: &mut toml::Table, overlay: &toml::Table) {
    for (key, value) in overlay {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Like [`load_str`], with the caller's handlers.
pub fn load_with(
    source: &str,
    file: &str,
    name: &str,
    registry: &HandlerRegistry,
) -> Result<Game, LoadError> {
    let spec: FileSpec = toml::from_str(source).map_err(|e| {
        LoadError::new(
            file,
            source,
            vec![Diagnostic::new(e.message().trim().to_string()).at(e.span(), "here")],
        )
    })?;
    let mut loader = Loader {
        source,
        errors: Vec::new(),
    };
    match loader.build(spec, name, registry) {
        Some(game) if loader.errors.is_empty() => Ok(game),
        _ => Err(LoadError::new(file, source, loader.errors)),
    }
}

struct Loader<'a> {
    source: &'a str,
    errors: Vec<Diagnostic>,
}

/// A parsed and checked move alternative: tree, names, first once-flag,
/// priority.
type Parsed = (Node, Resolved, u16, u8);

/// Everything about the pieces that compiling their programs produces.
struct CompiledPieces {
    programs: Vec<Vec<notation::Program>>,
    drop_programs: Vec<Vec<notation::Program>>,
    tracks: Vec<bool>,
    priorities: Vec<u8>,
    once_flags: u16,
    /// The pieces' attribute names, and per type the bits of their values.
    attributes: Vec<String>,
    attribute_defaults: Vec<u16>,
}

impl Loader<'_> {
    fn error(&mut self, message: impl Into<String>, span: Option<Range<usize>>, label: &str) {
        self.errors.push(Diagnostic::new(message).at(span, label));
    }

    fn build(&mut self, spec: FileSpec, name: &str, registry: &HandlerRegistry) -> Option<Game> {
        let player_names = spec.game.players.get_ref().clone();
        if !(1..=8).contains(&player_names.len()) {
            self.error(
                "a game has 1 to 8 players",
                Some(spec.game.players.span()),
                "players",
            );
            return None;
        }
        let board_kind = self.board_kind(&spec.board)?;
        let topology = self.topology(&spec.board)?;
        let players = self.players(&spec, &player_names, &topology)?;
        let piece_names: Vec<String> = spec.pieces.keys().cloned().collect();
        if piece_names.is_empty() || piece_names.len() > 1000 {
            self.error("a game needs 1 to 1000 piece types in [pieces]", None, "");
            return None;
        }
        let zones = self.zones(&spec, &player_names, &topology);
        let handlers = self.handlers(&spec, registry);
        let end_rule = self.end_rule(&spec, registry);
        let letters = self.letters(&spec);
        let move_types = move_types(&spec);
        let compiled = self.compile_pieces(
            &spec,
            (&topology, &zones, &move_types),
            &players,
            &handlers,
            &piece_names,
        )?;
        let (attributes, attribute_defaults) = (compiled.attributes, compiled.attribute_defaults);
        let mut pieces = Vec::new();
        for (i, (pname, p)) in spec.pieces.iter().enumerate() {
            pieces.push(PieceType {
                name: pname.clone(),
                letter: letters[i],
                value: p.value,
                capture_value: p.capture_value.unwrap_or(p.value),
                royal: p.royal,
                resets_clock: p.resets_clock,
                // Chess960's castling letters are about the Rooks' and the
                // King's has-moved flags, which the castling handler reads.
                tracks_moved: compiled.tracks[i]
                    || spec
                        .fen
                        .castling_960
                        .as_ref()
                        .is_some_and(|r| r.get_ref() == pname || p.royal),
                promotion: self.promotion(p, &zones, &piece_names, &player_names),
                programs: compiled.programs[i].clone(),
                description: p.description.clone(),
                square_values: self.square_values(pname, "squares", p.squares.as_ref(), &topology),
                endgame_square_values: self.square_values(
                    pname,
                    "endgame_squares",
                    p.endgame_squares.as_ref(),
                    &topology,
                ),
                symbol: p
                    .symbol
                    .as_ref()
                    .map_or_else(|| letters[i].to_string(), |s| s.get_ref().clone()),
                san: self.san_letter(pname, p),
                demotes_to: self.piece_ref(
                    pname,
                    "demotes_to",
                    p.demotes_to.as_ref(),
                    &piece_names,
                ),
                drop_programs: compiled.drop_programs[i].clone(),
                glyphs: self.glyphs(pname, p, players.len()),
                upside_down: p.upside_down,
                parts: Vec::new(),
                count: self.piece_count(pname, p),
                never_in: self.piece_zones(pname, "never_in", p.never_in.as_ref(), &zones),
                only_in: p.only_in.as_ref().and_then(|z| {
                    let list = Spanned::new(z.span(), vec![z.get_ref().clone()]);
                    self.piece_zones(pname, "only_in", Some(&list), &zones)
                        .pop()
                }),
                neutral: self.neutral(pname, p, players.len()),
            });
        }
        lend_drop_programs(&mut pieces);
        let display = self.display(&spec.display, &topology, players.len());
        let rules = self.rules(
            &spec.rules,
            &GoalNames {
                pieces: &piece_names,
                zones: &zones,
                players: &player_names,
                topology: &topology,
            },
            &move_types,
        );
        let mut fen = self.fen_config(&spec.fen, &topology, &piece_names);
        if board_kind == BoardKind::Heap {
            fen.format = PositionFormat::Counts;
        }
        if !self.errors.is_empty() {
            return None;
        }
        let numbers = match attributes.len() {
            0 => self.piece_numbers(&spec.board, board_kind, players.len(), pieces.len()),
            n => self.attribute_numbers(&spec.board, board_kind, players.len(), pieces.len(), n),
        };
        self.parts(&spec, &player_names, &mut pieces, numbers);
        if !self.errors.is_empty() {
            return None;
        }
        let cells = match board_kind {
            BoardKind::Heap => CellTable::counts(players.len(), pieces.len()),
            _ => CellTable::numbered(players.len(), pieces.len(), numbers)
                .with_neutral(pieces.iter().map(|p| p.neutral).collect())
                .with_defaults(attribute_defaults),
        };
        self.check_move_neutral(&spec.rules, &rules, &pieces);
        if !self.errors.is_empty() {
            return None;
        }
        let royal_types = (0..pieces.len() as u16)
            .filter(|t| pieces[*t as usize].royal)
            .collect();
        let uses_priorities = compiled.priorities.windows(2).any(|w| w[0] != w[1]);
        let squares = topology.len();
        let extra = compiled.once_flags as usize * players.len();
        let mut game = Game {
            name: spec.game.name.clone().unwrap_or_else(|| name.to_string()),
            title: spec.game.title.clone().unwrap_or_else(|| name.to_string()),
            variants: spec
                .variants
                .iter()
                .map(|(k, v)| {
                    let d = v.get("description").and_then(|d| d.as_str()).unwrap_or("");
                    (k.clone(), d.to_string())
                })
                .collect(),
            board_kind,
            description: spec.game.description.clone(),
            record: self.record_format(&spec.game),
            initial: Position::empty(squares, extra, players.len(), pieces.len()),
            shuffle: None,
            players,
            topology,
            zones,
            pieces,
            move_types,
            cells,
            attributes,
            rules,
            fen,
            once_flags: compiled.once_flags,
            attacks: Attacks::default(),
            learned_values: Default::default(),
            square_tests: square_tests(&handlers, &piece_names),
            handlers,
            end_rule,
            uses_priorities,
            royal_types,
            keys: Vec::new(),
            display: display.unwrap_or_default(),
            stack_height: self.stack_height(&spec.board, board_kind),
            hands: false,
        };
        game.hands = game.computes_hands();
        if game.hands
            && game.fen.format == PositionFormat::Sfen
            && crate::text::sfen::comma_rows(&game)
        {
            self.error(
                "pieces: a piece symbol has more than one letter, and SFEN hands are written one letter a piece".to_string(),
                None,
                "give the pieces that can be in hand one-letter symbols",
            );
            return None;
        }
        let codes = game.cells.len();
        game.keys = (0..squares * codes)
            .map(|i| {
                crate::position::slot_key(i / codes, crate::position::Cell((i % codes) as u16))
            })
            .collect();
        game.attacks = Attacks::new(&game);
        match read_position(&game, spec.setup.fen.get_ref(), None) {
            Ok(pos) => {
                game.initial = pos;
                count_setup_pieces(&mut game);
                if let Err(why) = check_position(&game, &game.initial) {
                    self.error(
                        format!("setup: {why}"),
                        Some(spec.setup.fen.span()),
                        "this position",
                    );
                    return None;
                }
            }
            Err(e) => {
                self.error(
                    format!("setup: {}", e.message),
                    Some(spec.setup.fen.span()),
                    "this position",
                );
                return None;
            }
        }
        if let Some(shuffle) = &spec.setup.shuffle {
            match shuffle_of(&game, shuffle.get_ref()) {
                Ok(s) => game.shuffle = Some(s),
                Err(why) => {
                    self.error(
                        format!("setup: shuffle: {why}"),
                        Some(shuffle.span()),
                        "this shuffle",
                    );
                    return None;
                }
            }
        }
        Some(game)
    }
}

/// The shuffle a game file describes, checked against the game: its
/// squares exist (the mirror as many), its types are pieces, and the
/// setup's own order keeps its rules (so that some order does).
fn shuffle_of(game: &Game, spec: &spec::ShuffleSpec) -> Result<Shuffle, String> {
    let squares = |text: &str| -> Result<Vec<Square>, String> {
        text.split_whitespace()
            .map(|name| {
                game.topology
                    .square(name)
                    .ok_or_else(|| format!("no square '{name}'"))
            })
            .collect()
    };
    let piece = |name: &String| {
        game.piece_by_name(name)
            .ok_or_else(|| format!("no piece '{name}'"))
    };
    let shuffle = Shuffle {
        squares: squares(&spec.squares)?,
        mirror: squares(&spec.mirror)?,
        both_colours: spec
            .both_colours
            .iter()
            .map(piece)
            .collect::<Result<_, _>>()?,
        between: match spec.between.as_slice() {
            [] => None,
            [inner, outer] => Some((piece(inner)?, piece(outer)?)),
            _ => return Err("between names two pieces: the one inside, the one outside".into()),
        },
    };
    if !shuffle.mirror.is_empty() && shuffle.mirror.len() != shuffle.squares.len() {
        return Err(format!(
            "{} squares but {} in the mirror",
            shuffle.squares.len(),
            shuffle.mirror.len()
        ));
    }
    let mut all: Vec<Square> = shuffle
        .squares
        .iter()
        .chain(&shuffle.mirror)
        .copied()
        .collect();
    all.sort();
    if all.windows(2).any(|w| w[0] == w[1]) {
        return Err("a square is named twice".into());
    }
    let setup: Vec<_> = shuffle
        .squares
        .iter()
        .map(|s| game.initial.cell(*s))
        .collect();
    if !shuffle.allows(game, &setup) {
        return Err("the setup's own order breaks its rules".into());
    }
    Ok(shuffle)
}

/// The test of one square each registered handler stands for, if any.
fn square_tests(
    handlers: &[Option<Arc<dyn Handler>>; 10],
    pieces: &[String],
) -> [Option<SquareTest>; 10] {
    std::array::from_fn(|k| handlers[k].as_ref().and_then(|h| h.square_test(pieces)))
}

/// The move types the pieces' ZRF blocks name (`type`), each once, in the
/// order the file first names them.
fn move_types(spec: &FileSpec) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let lists = spec
        .pieces
        .values()
        .flat_map(|p| [&p.moves, &p.drops])
        .flatten();
    for item in lists.flat_map(|l| &l.get_ref().0) {
        if let Some(t) = item.move_type.as_ref().filter(|t| !out.contains(t)) {
            out.push(t.clone());
        }
    }
    out
}

/// A piece that may be dropped promoted (`promote.drops`) lends its drop
/// programs to the pieces it promotes to, which drop where it drops (from
/// its place in the hand: `Generator`'s drops).
fn lend_drop_programs(pieces: &mut [PieceType]) {
    for i in 0..pieces.len() {
        let Some(promo) = pieces[i].promotion.clone().filter(|p| p.drops) else {
            continue;
        };
        for &t in &promo.to {
            if pieces[t as usize].drop_programs.is_empty() {
                pieces[t as usize].drop_programs = pieces[i].drop_programs.clone();
            }
        }
    }
}

/// Fills the setup's piece counts that `captured_only` promotions need.
fn count_setup_pieces(game: &mut Game) {
    let mut counts = vec![vec![0u16; game.pieces.len()]; game.players.len()];
    for sq in game.topology.squares() {
        let cell = game.initial.cell(sq);
        let info = game.cells.info(cell);
        if !cell.is_empty()
            && (info.piece as usize) < game.pieces.len()
            && let Some(row) = counts.get_mut(info.owner as usize)
        {
            row[info.piece as usize] += 1;
        }
    }
    for piece in &mut game.pieces {
        if let Some(promo) = piece.promotion.as_mut().filter(|p| p.captured_only) {
            promo.setup_counts = counts.clone();
        }
    }
}

fn single_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// [`super::variant_names`] reads the variants that the compiled game
    /// lists, for every built-in game (and some games have variants).
    #[test]
    fn variant_names_are_the_compiled_games_variants() {
        let mut with_variants = 0;
        for g in super::library::builtin_games() {
            let game = super::load_str(g.source, g.name, g.name).unwrap();
            let listed: Vec<String> = game.variants.iter().map(|(v, _)| v.clone()).collect();
            assert_eq!(super::variant_names(g.source), listed, "{}", g.name);
            with_variants += usize::from(!listed.is_empty());
        }
        assert!(with_variants > 0);
        assert!(super::variant_names("not [toml").is_empty());
    }
}
