//! A game file's sections as read from TOML, before any checking: the
//! names and spans the loader reports problems against.

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileSpec {
    pub(super) game: GameSection,
    pub(super) board: BoardSection,
    #[serde(default)]
    pub(super) players: IndexMap<String, PlayerSection>,
    #[serde(default)]
    pub(super) zones: IndexMap<String, IndexMap<String, Spanned<String>>>,
    pub(super) pieces: IndexMap<String, PieceSection>,
    pub(super) setup: SetupSection,
    #[serde(default)]
    pub(super) rules: RulesSection,
    #[serde(default)]
    pub(super) fen: FenSection,
    #[serde(default)]
    pub(super) handlers: BTreeMap<String, Spanned<String>>,
    /// Variants: tables laid over the rest of the file (see
    /// [`apply_variant`]); only their names and descriptions are read here.
    #[serde(default)]
    pub(super) variants: IndexMap<String, toml::Table>,
    pub(super) display: Option<Spanned<DisplaySection>>,
}

/// `[display]`: how front ends draw the game (see [`super::display`]).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct DisplaySection {
    pub(super) style: Option<String>,
    pub(super) pieces: Option<String>,
    pub(super) checkered: Option<bool>,
    pub(super) lines: Option<String>,
    pub(super) segments: Option<String>,
    pub(super) colours: Option<Vec<String>>,
    pub(super) show_removed: Option<bool>,
}

/// A piece's `squares`: square name to bonus, or a picture of the board,
/// one number per square in the board's order.
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a table of square names to numbers, or a picture of the board: a string of whole numbers, one per square"
)]
pub(super) enum SquareHints {
    Named(IndexMap<String, i32>),
    Picture(String),
}

/// A piece's `glyphs`: one for every player, or one per player.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum Glyphs {
    One(String),
    PerPlayer(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GameSection {
    pub(super) name: Option<String>,
    pub(super) title: Option<String>,
    #[serde(default)]
    pub(super) description: String,
    pub(super) players: Spanned<Vec<String>>,
    /// The format of the game's records (`pgn`, `pdn`, `kif`), if not
    /// the one its positions imply.
    pub(super) record: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BoardSection {
    pub(super) kind: Option<Spanned<String>>,
    pub(super) grid: Spanned<String>,
    pub(super) directions: Option<Spanned<IndexMap<String, Spanned<DirValue>>>>,
    pub(super) remove: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) sets: IndexMap<String, Spanned<String>>,
    pub(super) checkered: Option<Spanned<String>>,
    pub(super) names: Option<Spanned<String>>,
    /// Squares given names of their own: grid name = new name.
    pub(super) rename: Option<Spanned<IndexMap<String, String>>>,
    /// Stack boards: the most pieces one square can hold.
    pub(super) stack_height: Option<Spanned<u16>>,
    /// Pieces carry a number below this (Rithmomachia).
    pub(super) piece_numbers: Option<Spanned<u16>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum DirValue {
    Vector(Vec<i32>),
    Chains(String),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerSection {
    pub(super) letter: Option<Spanned<String>>,
    pub(super) map: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PieceSection {
    pub(super) letter: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) value: i32,
    pub(super) capture_value: Option<i32>,
    #[serde(default)]
    pub(super) royal: bool,
    #[serde(default)]
    pub(super) resets_clock: bool,
    #[serde(default)]
    pub(super) description: String,
    pub(super) moves: Option<Spanned<ExprList>>,
    /// Moves in Betza's notation, translated and put before `moves`.
    pub(super) betza: Option<Spanned<String>>,
    /// How the piece is dropped from a hand.
    pub(super) drops: Option<Spanned<ExprList>>,
    pub(super) promote: Option<Spanned<PromoteSection>>,
    /// How the piece is written in position strings (default: its letter).
    pub(super) symbol: Option<Spanned<String>>,
    /// Its letter in SAN game records, if not its position letter
    /// (xiangqi's Horse is `N` in FEN and `H` in SAN).
    pub(super) san: Option<Spanned<String>>,
    /// The piece it becomes when captured into a hand.
    pub(super) demotes_to: Option<Spanned<String>>,
    /// Piece-square hints for the AI.
    pub(super) squares: Option<Spanned<SquareHints>>,
    /// Piece-square hints for the endgame, where the evaluation moves to
    /// as the material leaves the board (default: `squares`).
    pub(super) endgame_squares: Option<Spanned<SquareHints>>,
    /// What the page draws for the piece.
    pub(super) glyphs: Option<Spanned<Glyphs>>,
    /// The page draws the glyph upside down (Ultima's Immobilizer).
    #[serde(default)]
    pub(super) upside_down: bool,
    /// Per player name: the parts it is made of, as `"S36 S25 T16"`.
    #[serde(default)]
    pub(super) parts: IndexMap<String, Spanned<String>>,
    /// How many each player has on the board in every position: a number,
    /// or `[fewest, most]`.
    pub(super) count: Option<Spanned<CountSpec>>,
    /// Zones where the piece never stands.
    #[serde(default)]
    pub(super) never_in: Option<Spanned<Vec<String>>>,
    /// The zone the piece never leaves.
    pub(super) only_in: Option<Spanned<String>>,
    /// The piece belongs to nobody (a wall, the duck).
    pub(super) neutral: Option<Spanned<bool>>,
    /// Named true/false attributes the piece carries, with their values
    /// when it is set up or created (ZRF's `attribute`).
    pub(super) attributes: Option<Spanned<IndexMap<String, bool>>>,
}

/// `[rules] consecutive_moves`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ConsecutiveMovesSpec {
    pub(super) piece: String,
    pub(super) most: u16,
}

/// `count = 1` or `count = [0, 8]`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum CountSpec {
    Exactly(u16),
    Range([u16; 2]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PromoteSection {
    pub(super) zone: String,
    pub(super) to: PromoteTargets,
    #[serde(default)]
    pub(super) optional: bool,
    #[serde(default)]
    pub(super) from_zone: bool,
    #[serde(default)]
    pub(super) immediate: bool,
    pub(super) forced: Option<String>,
    #[serde(default)]
    pub(super) captured_only: bool,
    #[serde(default)]
    pub(super) entering_or_capturing: bool,
    pub(super) also: Option<String>,
    /// A piece in hand may also be dropped as any of its `to` pieces.
    #[serde(default)]
    pub(super) drops: bool,
    /// Target piece to the most a player may have of it on the board.
    #[serde(default)]
    pub(super) limits: IndexMap<String, u16>,
    /// A move that captures a piece of one of these types promotes.
    #[serde(default)]
    pub(super) capturing: Vec<String>,
}

/// A name, or a list of names.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub(super) fn names(&self) -> &[String] {
        match self {
            OneOrMany::One(name) => std::slice::from_ref(name),
            OneOrMany::Many(names) => names,
        }
    }
}

/// `to = ["Queen", …]`, or per player: `to = { White = ["Queen"], Black =
/// ["Chancellor"] }`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum PromoteTargets {
    All(Vec<String>),
    ByPlayer(IndexMap<String, Vec<String>>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SetupSection {
    pub(super) fen: Spanned<String>,
    /// A new order of some pieces for every game (Chess960).
    pub(super) shuffle: Option<Spanned<ShuffleSpec>>,
}

/// `[setup] shuffle = { squares = "a1 … h1", mirror = "a8 … h8",
/// both_colours = ["Bishop"], between = ["King", "Rook"] }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShuffleSpec {
    pub(super) squares: String,
    #[serde(default)]
    pub(super) mirror: String,
    #[serde(default)]
    pub(super) both_colours: Vec<String>,
    #[serde(default)]
    pub(super) between: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RulesSection {
    #[serde(default)]
    pub(super) royal_safety: bool,
    #[serde(default)]
    pub(super) capture_priority: bool,
    pub(super) maximum_capture: Option<Spanned<OneOrMany>>,
    #[serde(default)]
    pub(super) deferred_captures: bool,
    #[serde(default)]
    pub(super) move_any_piece: bool,
    #[serde(default)]
    pub(super) captures_to_hand: bool,
    #[serde(default)]
    pub(super) capture_to_bottom: bool,
    #[serde(default)]
    pub(super) no_drop_mate: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) goals: Vec<Spanned<String>>,
    /// `"allowed"` or `"forced"` (only when there is no other move).
    pub(super) pass: Option<Spanned<String>>,
    /// Who moves when: a repeating list of players, or a table with an
    /// `opening` and a `repeat` part.
    pub(super) turns: Option<Spanned<TurnsSpec>>,
    /// `{ piece = "King", most = 3 }`.
    pub(super) consecutive_moves: Option<Spanned<ConsecutiveMovesSpec>>,
    /// While the side to move holds pieces in hand, it must drop one.
    #[serde(default)]
    pub(super) drops_first: bool,
    /// A move may not attack an enemy royal piece.
    #[serde(default)]
    pub(super) no_checks: bool,
    /// A drop may not attack an enemy royal piece.
    #[serde(default)]
    pub(super) no_drop_checks: bool,
    /// A dropped piece counts as having moved.
    #[serde(default)]
    pub(super) dropped_pieces_have_moved: bool,
    /// Players hold pieces in hand.
    #[serde(default)]
    pub(super) hands: bool,
    /// Captures explode (atomic chess).
    #[serde(default)]
    pub(super) captures_explode: bool,
    /// Piece types an explosion spares unless they are captured.
    #[serde(default)]
    pub(super) explosion_immune: Vec<Spanned<String>>,
    /// Piece types no explosion removes, even when they capture.
    #[serde(default)]
    pub(super) explosion_proof: Vec<Spanned<String>>,
    /// Piece types that burn the enemy pieces around them (Tenjiku).
    #[serde(default)]
    pub(super) burning: Vec<Spanned<String>>,
    /// The direction (a letter) of the piece whose moves a piece makes
    /// (Annan shogi: `S`).
    pub(super) borrowed_moves: Option<Spanned<String>>,
    /// `"any"`, `"all"` or `"last"`: when a player with several royal
    /// pieces is in check.
    pub(super) royal_check: Option<Spanned<String>>,
    /// `"simple"` or `"situation"`: which earlier positions a move may not
    /// bring back.
    pub(super) ko: Option<Spanned<String>>,
    /// The neutral piece every move ends by moving (duck chess).
    pub(super) move_neutral: Option<Spanned<String>>,
    /// ZRF blocks: a move whose part ended with `add-partial` may stop
    /// there even when it could go on.
    #[serde(default)]
    pub(super) pass_partial: bool,
}

/// `turns = ["White", "Black", "Black", "White"]` or
/// `turns = { opening = ["Black"], repeat = ["White", "White", "Black", "Black"] }`;
/// a turn is a player's name or a table ([`TurnSpec`]).
pub(super) enum TurnsSpec {
    /// `"free_until_capture"` (Ethiopian chess's opening).
    Mode(String),
    Cycle(Vec<Spanned<TurnSpec>>),
    Parts {
        opening: Vec<Spanned<TurnSpec>>,
        repeat: Vec<Spanned<TurnSpec>>,
    },
}

/// One turn: `"White"`, or `{ player = "White", type = "setup", pieces =
/// "Black" }` (White moves Black's pieces, only moves of type `setup`).
pub(super) struct TurnSpec {
    pub(super) player: String,
    pub(super) move_type: Option<String>,
    pub(super) pieces: Option<String>,
}

impl<'de> Deserialize<'de> for TurnsSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TurnsSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a list of turns, a table { opening, repeat }, or \"free_until_capture\"",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<TurnsSpec, E> {
                Ok(TurnsSpec::Mode(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TurnsSpec, A::Error> {
                let mut turns = Vec::new();
                while let Some(t) = seq.next_element::<Spanned<TurnSpec>>()? {
                    turns.push(t);
                }
                Ok(TurnsSpec::Cycle(turns))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TurnsSpec, A::Error> {
                let (mut opening, mut repeat) = (Vec::new(), None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "opening" => opening = map.next_value()?,
                        "repeat" => repeat = Some(map.next_value()?),
                        other => {
                            return Err(de::Error::unknown_field(other, &["opening", "repeat"]));
                        }
                    }
                }
                let repeat = repeat.ok_or_else(|| de::Error::missing_field("repeat"))?;
                Ok(TurnsSpec::Parts { opening, repeat })
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for TurnSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TurnSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a player's name or a table { player, type, pieces }")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<TurnSpec, E> {
                Ok(TurnSpec {
                    player: s.to_string(),
                    move_type: None,
                    pieces: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TurnSpec, A::Error> {
                let (mut player, mut move_type, mut pieces) = (None, None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "player" => player = Some(map.next_value()?),
                        "type" => move_type = Some(map.next_value()?),
                        "pieces" => pieces = Some(map.next_value()?),
                        other => {
                            return Err(de::Error::unknown_field(
                                other,
                                &["player", "type", "pieces"],
                            ));
                        }
                    }
                }
                let player = player.ok_or_else(|| de::Error::missing_field("player"))?;
                Ok(TurnSpec {
                    player,
                    move_type,
                    pieces,
                })
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct FenSection {
    pub(super) format: Option<Spanned<String>>,
    pub(super) man: Option<Spanned<String>>,
    pub(super) king: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) castling: IndexMap<String, Spanned<String>>,
    /// The piece (or pieces) whose double step sets the en passant square.
    pub(super) en_passant: Option<Spanned<OneOrMany>>,
    /// Other letters for pieces in position strings: `{ B = "Alfil" }`.
    #[serde(default)]
    pub(super) aliases: IndexMap<String, Spanned<String>>,
    /// Pieces in hand in position strings are read and ignored.
    #[serde(default)]
    pub(super) ignore_hand: bool,
    /// The pieces in the order SFEN writes them in hand.
    #[serde(default)]
    pub(super) hand_order: Vec<Spanned<String>>,
    /// Chess960 castling letters, with this piece as the Rook.
    pub(super) castling_960: Option<Spanned<String>>,
}

/// A piece's `moves`: one expression, or a list of expressions and
/// `{ expr = "...", priority = n }` tables.
pub(super) struct ExprList(pub(super) Vec<ExprItem>);

pub(super) struct ExprItem {
    pub(super) text: String,
    pub(super) span: Option<Range<usize>>,
    pub(super) priority: u8,
    /// The text is a ZRF move block (`{ zrf = "(…)" }`), not an expression.
    pub(super) zrf: bool,
    /// A ZRF block's move type (`type = "jump"`), which partial moves name.
    pub(super) move_type: Option<String>,
    /// False for a ZRF block that only continues partial moves
    /// (`starts = false`).
    pub(super) starts: bool,
    /// Where a converted block was written in its source (`origin =
    /// "game.zrf:12:5"`), named by errors about it.
    pub(super) origin: Option<String>,
}

impl ExprItem {
    /// A plain move expression.
    pub(super) fn expression(text: String, span: Option<Range<usize>>) -> ExprItem {
        ExprItem {
            text,
            span,
            priority: 0,
            zrf: false,
            move_type: None,
            starts: true,
            origin: None,
        }
    }
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
                Ok(ExprList(vec![ExprItem::expression(s.to_string(), None)]))
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
                f.write_str(
                    "a move expression or a table { expr = \"...\", priority = n } or { zrf = \"(...)\" }",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ExprItem, E> {
                Ok(ExprItem::expression(s.to_string(), None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExprItem, A::Error> {
                let mut text: Option<Spanned<String>> = None;
                let mut priority = 0u8;
                let mut zrf = false;
                let mut move_type = None;
                let mut starts = true;
                let mut origin = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "expr" | "zrf" if text.is_some() => {
                            return Err(de::Error::custom("give either expr or zrf, once"));
                        }
                        "expr" => text = Some(map.next_value()?),
                        "zrf" => {
                            text = Some(map.next_value()?);
                            zrf = true;
                        }
                        "type" => move_type = Some(map.next_value()?),
                        "starts" => starts = map.next_value()?,
                        "origin" => origin = Some(map.next_value()?),
                        "priority" => priority = map.next_value()?,
                        other => {
                            return Err(de::Error::unknown_field(
                                other,
                                &["expr", "zrf", "type", "starts", "origin", "priority"],
                            ));
                        }
                    }
                }
                let text = text.ok_or_else(|| de::Error::missing_field("expr"))?;
                if (move_type.is_some() || !starts || origin.is_some()) && !zrf {
                    return Err(de::Error::custom(
                        "type, starts and origin are for zrf blocks",
                    ));
                }
                Ok(ExprItem {
                    span: Some(text.span()),
                    text: text.into_inner(),
                    priority,
                    zrf,
                    move_type,
                    starts,
                    origin,
                })
            }
        }
        d.deserialize_any(V)
    }
}
