//! Loading a game file (TOML with notation strings) into a [`Game`].
//! Every problem is reported with the file, the place in it and what was
//! expected; as many problems as possible are collected in one pass.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

mod library;

pub use library::{BuiltinGame, builtin_games, load_game};

use crate::board::{BoardKind, BoardSpec, DirMap, DirSpec, Square, Topology, Zones};
use crate::diagnostic::{Diagnostic, LoadError, string_offsets};
use crate::game::attacks::Attacks;
use crate::game::display::{Display, DisplaySpec};
use crate::game::numbers::Part;
use crate::game::{
    FenConfig, Game, Goals, MaximumCapture, PieceType, Player, PositionFormat, Promotion, Rules,
    parse_goal,
};
use crate::handler::{EndRule, Handler, HandlerRegistry};
use crate::movegen::check_position;
use crate::notation::{self, CompileContext, MoveEntry, MovedRef, Node, ProgramBuilder, Resolved};
use crate::position::{CellTable, Position};
use crate::text::read_position;

/// Why a game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("unknown game '{name}'; the built-in games are: {known}")]
    UnknownGame { name: String, known: String },
    #[error("cannot read game file {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Invalid(#[from] LoadError),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    game: GameSection,
    board: BoardSection,
    #[serde(default)]
    players: IndexMap<String, PlayerSection>,
    #[serde(default)]
    zones: IndexMap<String, IndexMap<String, Spanned<String>>>,
    pieces: IndexMap<String, PieceSection>,
    setup: SetupSection,
    #[serde(default)]
    rules: RulesSection,
    #[serde(default)]
    fen: FenSection,
    #[serde(default)]
    handlers: BTreeMap<String, Spanned<String>>,
    /// Variants: tables laid over the rest of the file (see
    /// [`apply_variant`]); only their names and descriptions are read here.
    #[serde(default)]
    variants: IndexMap<String, toml::Table>,
    display: Option<Spanned<DisplaySection>>,
}

/// `[display]`: how front ends draw the game (see [`super::display`]).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DisplaySection {
    style: Option<String>,
    pieces: Option<String>,
    checkered: Option<bool>,
    lines: Option<String>,
    segments: Option<String>,
    colours: Option<Vec<String>>,
    show_removed: Option<bool>,
}

/// A piece's `glyphs`: one for every player, or one per player.
#[derive(Deserialize)]
#[serde(untagged)]
enum Glyphs {
    One(String),
    PerPlayer(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameSection {
    name: Option<String>,
    title: Option<String>,
    #[serde(default)]
    description: String,
    players: Spanned<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardSection {
    kind: Option<Spanned<String>>,
    grid: Spanned<String>,
    directions: Option<Spanned<IndexMap<String, Spanned<DirValue>>>>,
    remove: Option<Spanned<String>>,
    #[serde(default)]
    sets: IndexMap<String, Spanned<String>>,
    checkered: Option<Spanned<String>>,
    names: Option<Spanned<String>>,
    /// Stack boards: the most pieces one square can hold.
    stack_height: Option<Spanned<u16>>,
    /// Pieces carry a number below this (Rithmomachia).
    piece_numbers: Option<Spanned<u16>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum DirValue {
    Vector(Vec<i32>),
    Chains(String),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PlayerSection {
    letter: Option<Spanned<String>>,
    map: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceSection {
    letter: Option<Spanned<String>>,
    #[serde(default)]
    value: i32,
    #[serde(default)]
    royal: bool,
    #[serde(default)]
    resets_clock: bool,
    #[serde(default)]
    description: String,
    moves: Option<Spanned<ExprList>>,
    /// Moves in Betza's notation, translated and put before `moves`.
    betza: Option<Spanned<String>>,
    /// How the piece is dropped from a hand.
    drops: Option<Spanned<ExprList>>,
    promote: Option<Spanned<PromoteSection>>,
    /// How the piece is written in position strings (default: its letter).
    symbol: Option<Spanned<String>>,
    /// The piece it becomes when captured into a hand.
    demotes_to: Option<Spanned<String>>,
    /// Piece-square hints for the AI: square name to bonus.
    squares: Option<Spanned<IndexMap<String, i32>>>,
    /// What the page draws for the piece.
    glyphs: Option<Spanned<Glyphs>>,
    /// The page draws the glyph upside down (Ultima's Immobilizer).
    #[serde(default)]
    upside_down: bool,
    /// Per player name: the parts it is made of, as `"S36 S25 T16"`.
    #[serde(default)]
    parts: IndexMap<String, Spanned<String>>,
    /// How many each player has on the board in every position: a number,
    /// or `[fewest, most]`.
    count: Option<Spanned<CountSpec>>,
    /// Zones where the piece never stands.
    #[serde(default)]
    never_in: Option<Spanned<Vec<String>>>,
    /// The zone the piece never leaves.
    only_in: Option<Spanned<String>>,
}

/// `count = 1` or `count = [0, 8]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum CountSpec {
    Exactly(u16),
    Range([u16; 2]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PromoteSection {
    zone: String,
    to: Vec<String>,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    from_zone: bool,
    #[serde(default)]
    immediate: bool,
    forced: Option<String>,
    #[serde(default)]
    captured_only: bool,
    #[serde(default)]
    entering_or_capturing: bool,
    also: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupSection {
    fen: Spanned<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RulesSection {
    #[serde(default)]
    royal_safety: bool,
    #[serde(default)]
    capture_priority: bool,
    maximum_capture: Option<Spanned<String>>,
    #[serde(default)]
    deferred_captures: bool,
    #[serde(default)]
    move_any_piece: bool,
    #[serde(default)]
    captures_to_hand: bool,
    #[serde(default)]
    capture_to_bottom: bool,
    #[serde(default)]
    no_drop_mate: Vec<Spanned<String>>,
    #[serde(default)]
    goals: Vec<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FenSection {
    format: Option<Spanned<String>>,
    man: Option<Spanned<String>>,
    king: Option<Spanned<String>>,
    #[serde(default)]
    castling: IndexMap<String, Spanned<String>>,
    en_passant: Option<Spanned<String>>,
}

/// A piece's `moves`: one expression, or a list of expressions and
/// `{ expr = "...", priority = n }` tables.
struct ExprList(Vec<ExprItem>);

struct ExprItem {
    text: String,
    span: Option<Range<usize>>,
    priority: u8,
}

impl<'de> Deserialize<'de> for ExprList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ExprList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a move expression or a list of move expressions")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ExprList, E> {
                Ok(ExprList(vec![ExprItem {
                    text: s.to_string(),
                    span: None,
                    priority: 0,
                }]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ExprList, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<ExprItem>>()? {
                    let span = item.span();
                    let mut item = item.into_inner();
                    item.span.get_or_insert(span);
                    items.push(item);
                }
                Ok(ExprList(items))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for ExprItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ExprItem;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a move expression or a table { expr = \"...\", priority = n }")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ExprItem, E> {
                Ok(ExprItem {
                    text: s.to_string(),
                    span: None,
                    priority: 0,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExprItem, A::Error> {
                let mut text: Option<Spanned<String>> = None;
                let mut priority = 0u8;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "expr" => text = Some(map.next_value()?),
                        "priority" => priority = map.next_value()?,
                        other => {
                            return Err(de::Error::unknown_field(other, &["expr", "priority"]));
                        }
                    }
                }
                let text = text.ok_or_else(|| de::Error::missing_field("expr"))?;
                Ok(ExprItem {
                    span: Some(text.span()),
                    text: text.into_inner(),
                    priority,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// Loads a game from the text of a game file. `file` names it in errors;
/// `name` is the game's identifier if the file does not give one.
pub fn load_str(source: &str, file: &str, name: &str) -> Result<Game, LoadError> {
    load_with(source, file, name, &HandlerRegistry::builtin())
}

/// Like [`load_str`], with the caller's handlers.
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
    let Some(toml::Value::Table(overlay)) = variants.get(variant) else {
        let known: Vec<&str> = variants.keys().map(String::as_str).collect();
        return Err(fail(format!(
            "unknown variant '{variant}'; this game has: {}",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )));
    };
    let mut overlay = overlay.clone();
    overlay.remove("description");
    merge(&mut root, &overlay);
    toml::to_string(&root).map_err(|e| fail(format!("variant '{variant}': {e}")))
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
        let compiled =
            self.compile_pieces(&spec, &topology, &zones, &players, &handlers, &piece_names)?;
        let mut pieces = Vec::new();
        for (i, (pname, p)) in spec.pieces.iter().enumerate() {
            pieces.push(PieceType {
                name: pname.clone(),
                letter: letters[i],
                value: p.value,
                royal: p.royal,
                resets_clock: p.resets_clock,
                tracks_moved: compiled.tracks[i],
                promotion: self.promotion(p, &zones, &piece_names),
                programs: compiled.programs[i].clone(),
                description: p.description.clone(),
                square_values: self.square_values(pname, p, &topology),
                symbol: p
                    .symbol
                    .as_ref()
                    .map_or_else(|| letters[i].to_string(), |s| s.get_ref().clone()),
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
            });
        }
        let display = self.display(&spec.display, &topology, players.len());
        let rules = self.rules(&spec.rules, &piece_names);
        let mut fen = self.fen_config(&spec.fen, &topology, &piece_names);
        if board_kind == BoardKind::Heap {
            fen.format = PositionFormat::Counts;
        }
        if !self.errors.is_empty() {
            return None;
        }
        let numbers = self.piece_numbers(&spec.board, board_kind, players.len(), pieces.len());
        self.parts(&spec, &player_names, &mut pieces, numbers);
        if !self.errors.is_empty() {
            return None;
        }
        let cells = match board_kind {
            BoardKind::Heap => CellTable::counts(players.len(), pieces.len()),
            _ => CellTable::numbered(players.len(), pieces.len(), numbers),
        };
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
            initial: Position::empty(squares, extra, players.len(), pieces.len()),
            players,
            topology,
            zones,
            pieces,
            cells,
            rules,
            fen,
            once_flags: compiled.once_flags,
            attacks: Attacks::default(),
            handlers,
            end_rule,
            uses_priorities,
            royal_types,
            keys: Vec::new(),
            display: display.unwrap_or_default(),
            stack_height: self.stack_height(&spec.board, board_kind),
        };
        let codes = game.cells.len();
        game.keys = (0..squares * codes)
            .map(|i| {
                crate::position::slot_key(i / codes, crate::position::Cell((i % codes) as u16))
            })
            .collect();
        game.attacks = Attacks::build(&game);
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
        Some(game)
    }

    fn board_kind(&mut self, board: &BoardSection) -> Option<BoardKind> {
        let Some(kind) = &board.kind else {
            return Some(BoardKind::Default);
        };
        match BoardKind::parse(kind.get_ref()) {
            Ok(kind) => Some(kind),
            Err(e) => {
                self.error(format!("board.kind: {e}"), Some(kind.span()), "here");
                None
            }
        }
    }

    /// `[board] piece_numbers`: 1 (no numbers) unless given.
    fn piece_numbers(
        &mut self,
        board: &BoardSection,
        kind: BoardKind,
        players: usize,
        types: usize,
    ) -> usize {
        let Some(n) = &board.piece_numbers else {
            return 1;
        };
        let numbers = *n.get_ref() as usize + 1;
        if kind != BoardKind::Default {
            self.error(
                "board.piece_numbers is for default boards (one piece per square)",
                Some(n.span()),
                "here",
            );
        } else if !CellTable::fits(players, types, numbers) {
            self.error(
                format!(
                    "board.piece_numbers: {players} players x {types} piece types x numbers up to {} is too many combinations",
                    numbers - 1
                ),
                Some(n.span()),
                "here",
            );
        }
        numbers
    }

    /// `[pieces.X] parts`: per player, the numbered parts of the piece.
    fn parts(
        &mut self,
        spec: &FileSpec,
        player_names: &[String],
        pieces: &mut [PieceType],
        numbers: usize,
    ) {
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        for (i, (pname, p)) in spec.pieces.iter().enumerate() {
            if p.parts.is_empty() {
                continue;
            }
            let mut per_player = vec![Vec::new(); player_names.len()];
            for (player, list) in &p.parts {
                let Some(owner) = player_names.iter().position(|n| n == player) else {
                    self.error(
                        format!("pieces.{pname}.parts: no player '{player}'"),
                        Some(list.span()),
                        "here",
                    );
                    continue;
                };
                match parse_parts(list.get_ref(), &letters, numbers) {
                    Ok(parts) => per_player[owner] = parts,
                    Err(message) => {
                        self.error(
                            format!("pieces.{pname}.parts: {message}"),
                            Some(list.span()),
                            "here",
                        );
                    }
                }
            }
            pieces[i].parts = per_player;
        }
    }

    /// The stack height of a stack board (default 32), 1 for other boards.
    fn stack_height(&mut self, board: &BoardSection, kind: BoardKind) -> usize {
        match (&board.stack_height, kind) {
            (None, BoardKind::Stack) => 32,
            (Some(h), BoardKind::Stack) if (2..=255).contains(h.get_ref()) => *h.get_ref() as usize,
            (Some(h), BoardKind::Stack) => {
                self.error(
                    "board.stack_height: 2 to 255 pieces",
                    Some(h.span()),
                    "here",
                );
                32
            }
            (Some(h), _) => {
                self.error(
                    "board.stack_height is for stack boards (kind = \"stack\")",
                    Some(h.span()),
                    "here",
                );
                1
            }
            (None, _) => 1,
        }
    }

    fn topology(&mut self, board: &BoardSection) -> Option<Topology> {
        let directions = board.directions.as_ref().map(|d| {
            d.get_ref()
                .iter()
                .map(|(k, v)| {
                    let spec = match v.get_ref() {
                        DirValue::Vector(v) => DirSpec::Vector(v.clone()),
                        DirValue::Chains(s) => DirSpec::Chains(s.clone()),
                    };
                    (k.clone(), spec)
                })
                .collect()
        });
        let spec = BoardSpec {
            grid: board.grid.get_ref().clone(),
            directions,
            remove: board.remove.iter().map(|r| r.get_ref().clone()).collect(),
            sets: board
                .sets
                .iter()
                .map(|(k, v)| (k.clone(), v.get_ref().clone()))
                .collect(),
            checkered: board.checkered.as_ref().map(|c| c.get_ref().clone()),
            names: board.names.as_ref().map(|c| c.get_ref().clone()),
        };
        match Topology::build(&spec) {
            Ok(t) => Some(t),
            Err(e) => {
                let span = if e.what.starts_with("board.directions.") {
                    let key = &e.what["board.directions.".len()..];
                    board
                        .directions
                        .as_ref()
                        .and_then(|d| d.get_ref().get(key).map(|v| v.span()))
                } else if e.what == "board.remove" {
                    board.remove.as_ref().map(|r| r.span())
                } else if e.what == "board.checkered" {
                    board.checkered.as_ref().map(|r| r.span())
                } else if e.what == "board.names" {
                    board.names.as_ref().map(|r| r.span())
                } else if let Some(set) = e.what.strip_prefix("board.sets.") {
                    board.sets.get(set).map(|s| s.span())
                } else {
                    Some(board.grid.span())
                };
                self.error(
                    format!("{}: {}", e.what, e.message),
                    span,
                    "in this board description",
                );
                None
            }
        }
    }

    fn players(
        &mut self,
        spec: &FileSpec,
        names: &[String],
        topo: &Topology,
    ) -> Option<Vec<Player>> {
        for key in spec.players.keys() {
            if !names.contains(key) {
                self.error(
                    format!("[players.{key}] describes a player that is not in game.players"),
                    Some(spec.game.players.span()),
                    "the players",
                );
            }
        }
        let mut players = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let section = spec.players.get(name);
            let letter = match section.and_then(|s| s.letter.as_ref()) {
                Some(l) => single_char(l.get_ref()).unwrap_or_else(|| {
                    self.error("a player's letter is one character", Some(l.span()), "here");
                    '?'
                }),
                None => match (i, names.len()) {
                    (0, 2) => 'w',
                    (1, 2) => 'b',
                    _ => name.chars().next().map_or('?', |c| c.to_ascii_lowercase()),
                },
            };
            let map = match section.and_then(|s| s.map.as_ref()) {
                None => DirMap::identity(topo),
                Some(m) => match DirMap::parse(topo, m.get_ref()) {
                    Ok(map) => map,
                    Err(e) => {
                        self.error(
                            format!("players.{name}.map: {e}"),
                            Some(m.span()),
                            "this map",
                        );
                        DirMap::identity(topo)
                    }
                },
            };
            let north = topo.dir('N').map(|d| map.apply(d));
            players.push(Player {
                name: name.clone(),
                letter,
                map,
                north,
            });
        }
        Some(players)
    }

    fn zones(&mut self, spec: &FileSpec, players: &[String], topo: &Topology) -> Zones {
        let mut zones = Zones::new(players.len(), topo.len());
        for (zname, per) in &spec.zones {
            let mut lists = vec![Vec::new(); players.len()];
            for (who, squares) in per {
                let set = match topo.parse_squares(squares.get_ref()) {
                    Ok(s) => s,
                    Err(e) => {
                        self.error(
                            format!("zones.{zname}.{who}: {e}"),
                            Some(squares.span()),
                            "these squares",
                        );
                        continue;
                    }
                };
                if who == "all" {
                    for l in lists.iter_mut() {
                        l.extend(set.iter().copied());
                    }
                } else if let Some(p) = players.iter().position(|p| p == who) {
                    lists[p].extend(set);
                } else {
                    self.error(
                        format!("zones.{zname}: '{who}' is not a player (nor 'all')"),
                        Some(squares.span()),
                        "here",
                    );
                }
            }
            zones.add(zname, lists);
        }
        zones
    }

    fn handlers(
        &mut self,
        spec: &FileSpec,
        registry: &HandlerRegistry,
    ) -> [Option<Arc<dyn Handler>>; 10] {
        let mut out: [Option<Arc<dyn Handler>>; 10] = Default::default();
        for (k, name) in &spec.handlers {
            if k == "end" {
                continue;
            }
            let slot = match k.parse::<usize>() {
                Ok(n @ 1..=9) => n,
                _ => {
                    self.error(
                        format!(
                            "handlers.{k}: handler numbers are 1 to 9 (or 'end' for an end rule)"
                        ),
                        Some(name.span()),
                        "here",
                    );
                    continue;
                }
            };
            match registry.get(name.get_ref()) {
                Some(h) => out[slot] = Some(h),
                None => {
                    let known: Vec<&str> = registry.names().collect();
                    self.error(
                        format!(
                            "unknown handler '{}'; registered handlers: {}",
                            name.get_ref(),
                            known.join(", ")
                        ),
                        Some(name.span()),
                        "this handler",
                    );
                }
            }
        }
        out
    }

    /// The end rule named by `[handlers] end = "…"`.
    fn end_rule(
        &mut self,
        spec: &FileSpec,
        registry: &HandlerRegistry,
    ) -> Option<Arc<dyn EndRule>> {
        let name = spec.handlers.get("end")?;
        let rule = match registry.end_rule(name.get_ref()) {
            Err(message) => {
                self.error(
                    format!("end rule '{}': {message}", name.get_ref()),
                    Some(name.span()),
                    "this end rule",
                );
                return None;
            }
            Ok(rule) => rule,
        };
        if rule.is_none() {
            let known: Vec<&str> = registry.end_rule_names().collect();
            self.error(
                format!(
                    "unknown end rule '{}'; registered end rules: {}",
                    name.get_ref(),
                    known.join(", ")
                ),
                Some(name.span()),
                "this end rule",
            );
        }
        rule
    }

    fn letters(&mut self, spec: &FileSpec) -> Vec<char> {
        let mut letters = Vec::new();
        for (pname, p) in &spec.pieces {
            let letter = match &p.letter {
                Some(l) => match single_char(l.get_ref()).filter(|c| c.is_ascii_alphabetic()) {
                    Some(c) => c.to_ascii_uppercase(),
                    None => {
                        self.error(
                            format!("pieces.{pname}.letter: one letter A-Z"),
                            Some(l.span()),
                            "here",
                        );
                        '?'
                    }
                },
                None => pname.chars().next().unwrap_or('?').to_ascii_uppercase(),
            };
            // A piece written with its own symbol (`+P`) is never looked
            // up by its letter, so only the others need distinct letters
            // (chu shogi has more piece types than the alphabet).
            let by_letter = |q: &PieceSection| q.symbol.is_none();
            let clash = by_letter(p)
                && spec
                    .pieces
                    .iter()
                    .zip(&letters)
                    .any(|((_, q), l)| *l == letter && by_letter(q));
            if clash {
                let span = p.letter.as_ref().map(|l| l.span());
                self.error(
                    format!("pieces.{pname}: letter '{letter}' is already used by another piece"),
                    span,
                    "give each piece its own letter",
                );
            }
            letters.push(letter);
        }
        letters
    }

    /// A piece's `betza` key translated into a move expression.
    fn betza_moves(&mut self, pname: &str, piece: &PieceSection) -> Option<ExprItem> {
        let b = piece.betza.as_ref()?;
        match notation::betza::to_dagaz(b.get_ref()) {
            Ok(text) => Some(ExprItem {
                text,
                span: Some(b.span()),
                priority: 0,
            }),
            Err(e) => {
                self.error(format!("pieces.{pname}.betza: {e}"), Some(b.span()), "here");
                None
            }
        }
    }

    /// File position of an expression's error, when the string maps exactly.
    fn expr_span(
        &self,
        item: &ExprItem,
        outer: Range<usize>,
        inner: &Range<usize>,
    ) -> Option<Range<usize>> {
        let span = item.span.clone().unwrap_or(outer);
        match string_offsets(self.source, &span, &item.text) {
            Some(map) => {
                let at = |i: usize| map.get(i.min(map.len() - 1)).copied().unwrap_or(span.start);
                let start = at(inner.start);
                let end = at(inner.end.max(inner.start + 1)).max(start + 1);
                Some(start..end)
            }
            None => Some(span),
        }
    }

    fn compile_pieces(
        &mut self,
        spec: &FileSpec,
        topology: &Topology,
        zones: &Zones,
        players: &[Player],
        handlers: &[Option<Arc<dyn Handler>>; 10],
        names: &[String],
    ) -> Option<CompiledPieces> {
        let mut registered = [false; 10];
        for (k, h) in handlers.iter().enumerate() {
            registered[k] = h.is_some();
        }
        let ctx = CompileContext {
            topology,
            pieces: names,
            zones,
            handlers: registered,
        };
        let mut once_flags: u16 = 0;
        let mut parsed: Vec<[Vec<Parsed>; 2]> = Vec::new();
        let mut refs: Vec<Vec<MovedRef>> = Vec::new();
        let mut priorities = Vec::new();
        for (pname, piece) in &spec.pieces {
            let mut piece_refs = Vec::new();
            let mut lists: [Vec<Parsed>; 2] = [Vec::new(), Vec::new()];
            let betza = self.betza_moves(pname, piece);
            for (k, (what, exprs)) in [("move", &piece.moves), ("drop", &piece.drops)]
                .into_iter()
                .enumerate()
            {
                let outer = exprs.as_ref().map(|e| e.span());
                let written = exprs.iter().flat_map(|e| e.get_ref().0.iter());
                let items: Vec<&ExprItem> = if k == 0 {
                    betza.iter().chain(written).collect()
                } else {
                    written.collect()
                };
                for (i, item) in items.into_iter().enumerate() {
                    let result = notation::parse(&item.text).and_then(|node| {
                        let r = notation::resolve(&node, &ctx)?;
                        Ok((node, r))
                    });
                    match result {
                        Ok((node, resolved)) => {
                            piece_refs.extend(notation::moved_refs(&node));
                            let base = once_flags;
                            once_flags = once_flags.saturating_add(resolved.once_count);
                            priorities.push(item.priority);
                            lists[k].push((node, resolved, base, item.priority));
                        }
                        Err(e) => {
                            let outer = outer.clone().unwrap_or_default();
                            let span = self.expr_span(item, outer, &e.span);
                            let label = e
                                .expected
                                .as_ref()
                                .map_or(String::new(), |x| format!("expected {x}"));
                            let d = Diagnostic::new(format!(
                                "piece {pname}, {what} {}: {}",
                                i + 1,
                                e.message
                            ))
                            .at(span, label)
                            .note(e.render(&item.text));
                            self.errors.push(d);
                        }
                    }
                }
            }
            parsed.push(lists);
            refs.push(piece_refs);
        }
        if !self.errors.is_empty() {
            return None;
        }
        let mut programs = Vec::new();
        let mut drop_programs = Vec::new();
        for (lists, (pname, piece)) in parsed.iter().zip(&spec.pieces) {
            let moves = self.programs(
                &ctx,
                players,
                &lists[0],
                true,
                pname,
                piece
                    .moves
                    .as_ref()
                    .map(|m| m.span())
                    .or_else(|| piece.betza.as_ref().map(|b| b.span())),
            )?;
            let drops = if lists[1].is_empty() {
                Vec::new()
            } else {
                self.programs(
                    &ctx,
                    players,
                    &lists[1],
                    false,
                    pname,
                    piece.drops.as_ref().map(|m| m.span()),
                )?
            };
            programs.push(moves);
            drop_programs.push(drops);
        }
        let mut tracks = vec![false; names.len()];
        for (i, list) in refs.iter().enumerate() {
            for r in list {
                match r {
                    MovedRef::Mover => tracks[i] = true,
                    MovedRef::Piece(n) => {
                        if let Some(j) = names.iter().position(|x| x == n) {
                            tracks[j] = true;
                        }
                    }
                    MovedRef::Any => tracks.iter_mut().for_each(|t| *t = true),
                }
            }
        }
        Some(CompiledPieces {
            programs,
            drop_programs,
            tracks,
            priorities,
            once_flags,
        })
    }

    /// One program per player for a piece's move (or drop) alternatives.
    fn programs(
        &mut self,
        ctx: &CompileContext,
        players: &[Player],
        entries: &[Parsed],
        prologue_take: bool,
        pname: &str,
        span: Option<Range<usize>>,
    ) -> Option<Vec<notation::Program>> {
        let mut out = Vec::new();
        for player in players {
            let list: Vec<(MoveEntry, &Resolved, u16)> = entries
                .iter()
                .map(|(n, r, b, p)| {
                    (
                        MoveEntry {
                            node: n,
                            priority: *p,
                        },
                        r,
                        *b,
                    )
                })
                .collect();
            match ProgramBuilder::new(ctx, &player.map).piece(&list, prologue_take) {
                Ok(p) => out.push(p),
                Err(e) => {
                    self.error(
                        format!("piece {pname}: {}", e.message),
                        span,
                        "in these moves",
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    fn piece_ref(
        &mut self,
        pname: &str,
        key: &str,
        v: Option<&Spanned<String>>,
        names: &[String],
    ) -> Option<u16> {
        let v = v?;
        match names.iter().position(|x| x == v.get_ref()) {
            Some(i) => Some(i as u16),
            None => {
                self.error(
                    format!("pieces.{pname}.{key}: unknown piece '{}'", v.get_ref()),
                    Some(v.span()),
                    "here",
                );
                None
            }
        }
    }

    /// A piece's `count`, checked.
    fn piece_count(&mut self, pname: &str, p: &PieceSection) -> Option<(u16, u16)> {
        let spec = p.count.as_ref()?;
        let (low, high) = match spec.get_ref() {
            CountSpec::Exactly(n) => (*n, *n),
            CountSpec::Range([a, b]) => (*a, *b),
        };
        if low > high {
            self.error(
                format!("piece {pname}: count [{low}, {high}] has its fewest above its most"),
                Some(spec.span()),
                "here",
            );
            return None;
        }
        Some((low, high))
    }

    /// The zones a piece's `never_in` or `only_in` names.
    fn piece_zones(
        &mut self,
        pname: &str,
        key: &str,
        names: Option<&Spanned<Vec<String>>>,
        zones: &Zones,
    ) -> Vec<usize> {
        let Some(names) = names else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for name in names.get_ref() {
            match zones.find(name) {
                Some(z) => out.push(z),
                None => self.error(
                    format!("piece {pname}: {key} names zone '{name}', which is not in [zones]"),
                    Some(names.span()),
                    "here",
                ),
            }
        }
        out
    }

    fn glyphs(&mut self, pname: &str, p: &PieceSection, players: usize) -> Vec<String> {
        let symbol = p
            .symbol
            .as_ref()
            .map(|s| s.get_ref().clone())
            .or_else(|| p.letter.as_ref().map(|l| l.get_ref().clone()))
            .unwrap_or_else(|| pname.chars().take(1).collect());
        match p.glyphs.as_ref().map(|g| (g.get_ref(), g.span())) {
            None => vec![symbol; players],
            Some((Glyphs::One(g), _)) => vec![g.clone(); players],
            Some((Glyphs::PerPlayer(list), _)) if list.len() == players => list.clone(),
            Some((Glyphs::PerPlayer(list), span)) => {
                self.error(
                    format!(
                        "pieces.{pname}.glyphs: {} glyphs for {players} players",
                        list.len()
                    ),
                    Some(span),
                    "one glyph, or one per player",
                );
                Vec::new()
            }
        }
    }

    fn display(
        &mut self,
        section: &Option<Spanned<DisplaySection>>,
        topo: &Topology,
        players: usize,
    ) -> Option<Display> {
        let empty = DisplaySection::default();
        let s = section.as_ref().map_or(&empty, |s| s.get_ref());
        let spec = DisplaySpec {
            style: s.style.clone(),
            pieces: s.pieces.clone(),
            checkered: s.checkered,
            lines: s.lines.clone(),
            segments: s.segments.clone(),
            colours: s.colours.clone(),
            show_removed: s.show_removed,
        };
        match Display::build(&spec, topo, players) {
            Ok(d) => Some(d),
            Err(message) => {
                self.error(
                    message,
                    section.as_ref().map(|s| s.span()),
                    "in this section",
                );
                None
            }
        }
    }

    fn square_values(&mut self, pname: &str, p: &PieceSection, topo: &Topology) -> Vec<i32> {
        let Some(hints) = &p.squares else {
            return Vec::new();
        };
        let mut values = vec![0; topo.len()];
        for (name, v) in hints.get_ref() {
            match topo.square(name) {
                Some(sq) => values[sq.index()] = *v,
                None => self.error(
                    format!("pieces.{pname}.squares: unknown square '{name}'"),
                    Some(hints.span()),
                    "here",
                ),
            }
        }
        values
    }

    fn promotion(
        &mut self,
        p: &PieceSection,
        zones: &Zones,
        names: &[String],
    ) -> Option<Promotion> {
        let promo = p.promote.as_ref()?;
        let span = Some(promo.span());
        let spec = promo.get_ref();
        let Some(zone) = zones.find(&spec.zone) else {
            self.error(
                format!("promotion zone '{}' is not defined in [zones]", spec.zone),
                span,
                "here",
            );
            return None;
        };
        let mut to = Vec::new();
        for t in &spec.to {
            match names.iter().position(|n| n == t) {
                Some(i) => to.push(i as u16),
                None => self.error(
                    format!("promotion to unknown piece '{t}'"),
                    span.clone(),
                    "here",
                ),
            }
        }
        if to.is_empty() {
            self.error("a promotion needs at least one piece in 'to'", span, "here");
            return None;
        }
        let forced_zone = match &spec.forced {
            None => None,
            Some(name) => match zones.find(name) {
                Some(z) => Some(z),
                None => {
                    self.error(
                        format!("forced-promotion zone '{name}' is not defined in [zones]"),
                        span.clone(),
                        "here",
                    );
                    None
                }
            },
        };
        let also_zone = match &spec.also {
            None => None,
            Some(name) => match zones.find(name) {
                Some(z) => Some(z),
                None => {
                    self.error(
                        format!("promotion zone '{name}' (also) is not defined in [zones]"),
                        span,
                        "here",
                    );
                    None
                }
            },
        };
        Some(Promotion {
            zone,
            to,
            optional: spec.optional,
            from_zone: spec.from_zone,
            immediate: spec.immediate,
            forced_zone,
            captured_only: spec.captured_only,
            setup_counts: Vec::new(),
            entering_or_capturing: spec.entering_or_capturing,
            also_zone,
        })
    }

    fn rules(&mut self, r: &RulesSection, names: &[String]) -> Rules {
        let mut goals = Goals::default();
        for g in &r.goals {
            if let Err(e) = parse_goal(&mut goals, g.get_ref()) {
                self.error(format!("rules.goals: {e}"), Some(g.span()), "this goal");
            }
        }
        let maximum_capture = match r
            .maximum_capture
            .as_ref()
            .map(|m| (m.get_ref().as_str(), m.span()))
        {
            None => None,
            Some(("pieces", _)) => Some(MaximumCapture::Pieces),
            Some(("value", _)) => Some(MaximumCapture::Value),
            Some((other, span)) => {
                self.error(
                    format!("rules.maximum_capture: '{other}' is not \"pieces\" or \"value\""),
                    Some(span),
                    "here",
                );
                None
            }
        };
        Rules {
            royal_safety: r.royal_safety,
            capture_priority: r.capture_priority,
            maximum_capture,
            deferred_captures: r.deferred_captures,
            move_any_piece: r.move_any_piece,
            captures_to_hand: r.captures_to_hand,
            capture_to_bottom: r.capture_to_bottom,
            no_drop_mate: r
                .no_drop_mate
                .iter()
                .filter_map(|n| match names.iter().position(|x| x == n.get_ref()) {
                    Some(i) => Some(i as u16),
                    None => {
                        self.error(
                            format!("rules.no_drop_mate: unknown piece '{}'", n.get_ref()),
                            Some(n.span()),
                            "here",
                        );
                        None
                    }
                })
                .collect(),
            goals,
        }
    }

    fn fen_config(&mut self, f: &FenSection, topo: &Topology, names: &[String]) -> FenConfig {
        let mut cfg = FenConfig::default();
        for (letter, squares) in &f.castling {
            let Some(c) = single_char(letter) else {
                self.error(
                    format!("fen.castling: '{letter}' is not one letter"),
                    Some(squares.span()),
                    "here",
                );
                continue;
            };
            let found: Vec<Option<Square>> = squares
                .get_ref()
                .split_whitespace()
                .map(|s| topo.square(s))
                .collect();
            match found.as_slice() {
                [Some(k), Some(r)] => cfg.castling.push((c, *k, *r)),
                _ => self.error(
                    format!("fen.castling.{letter}: give the king's and the rook's squares, e.g. \"e1 h1\""),
                    Some(squares.span()),
                    "here",
                ),
            }
        }
        if let Some(format) = &f.format {
            match format.get_ref().as_str() {
                "fen" => {}
                "sfen" => cfg.format = PositionFormat::Sfen,
                "pdn" => {
                    let mut piece = |key: &str, v: &Option<Spanned<String>>| -> u16 {
                        match v {
                            Some(n) => match names.iter().position(|x| x == n.get_ref()) {
                                Some(i) => i as u16,
                                None => {
                                    self.error(
                                        format!("fen.{key}: unknown piece '{}'", n.get_ref()),
                                        Some(n.span()),
                                        "here",
                                    );
                                    0
                                }
                            },
                            None => {
                                self.error(
                                    format!("fen.format = \"pdn\" needs fen.{key}"),
                                    Some(format.span()),
                                    "here",
                                );
                                0
                            }
                        }
                    };
                    let man = piece("man", &f.man);
                    let king = piece("king", &f.king);
                    cfg.format = PositionFormat::Pdn { man, king };
                }
                other => self.error(
                    format!(
                        "fen.format: unknown format '{other}': use \"fen\", \"pdn\" or \"sfen\""
                    ),
                    Some(format.span()),
                    "here",
                ),
            }
        }
        if let Some(ep) = &f.en_passant {
            match names.iter().position(|n| n == ep.get_ref()) {
                Some(i) => cfg.en_passant = Some(i as u16),
                None => self.error(
                    format!("fen.en_passant: unknown piece '{}'", ep.get_ref()),
                    Some(ep.span()),
                    "here",
                ),
            }
        }
        cfg
    }
}

fn single_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// `"S36 S25 T16"` into parts; the piece's number is a bit set of them, so
/// `numbers` bounds how many there may be.
fn parse_parts(text: &str, letters: &[char], numbers: usize) -> Result<Vec<Part>, String> {
    if numbers <= 1 {
        return Err("parts need numbered pieces ([board] piece_numbers)".into());
    }
    let mut parts = Vec::new();
    for token in text.split_whitespace() {
        let mut chars = token.chars();
        let letter = chars.next().unwrap_or(' ');
        let piece = letters
            .iter()
            .position(|l| *l == letter)
            .ok_or_else(|| format!("'{token}': no piece with letter '{letter}'"))?;
        let number: u16 = chars
            .as_str()
            .parse()
            .map_err(|_| format!("'{token}': expected a letter and a number, as in S36"))?;
        if number as usize >= numbers {
            return Err(format!("'{token}': numbers go up to {}", numbers - 1));
        }
        parts.push(Part {
            piece: piece as u16,
            number,
        });
    }
    if parts.is_empty() || 1usize << parts.len() > numbers {
        return Err(format!(
            "1 to {} parts (a piece's number holds one bit per part)",
            numbers.ilog2()
        ));
    }
    Ok(parts)
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
