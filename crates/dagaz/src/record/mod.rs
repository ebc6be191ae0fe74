//! Game records: whole games as the world's tools write them. PGN with
//! SAN moves for the chess family ([`crate::text::san`]; other games' PGN carries
//! dagaz's move text), PDN for draughts (the same tag-pair syntax,
//! [`pgn`], with numbered squares), and KIF for shogi ([`kif`]).
//!
//! [`write`] turns a [`Session`] into its game's standard record; [`read`]
//! splits a text into [`Record`]s and [`load`] plays one into a session,
//! naming the move and the reason when a move does not apply.

pub mod kif;
pub mod pgn;

use std::sync::Arc;

use crate::game::{Game, GameResult, PositionFormat};
use crate::load::builtin_games;
use crate::load::library::fairy_stockfish_game;
use crate::movegen::GenError;
use crate::session::{Session, SessionError};
use crate::text::FenError;
use crate::text::san;

/// One game as a record holds it: tags, moves as written, result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs in their order (`Event`, `White`, `FEN`, …; KIF's header
    /// lines are read into the same names).
    pub tags: Vec<(String, String)>,
    /// The main line's moves, as the record writes them.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if the record
    /// gives one.
    pub result: Option<String>,
}

impl Record {
    /// The value of a tag, if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn set_tag(&mut self, name: &str, value: String) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }
}

/// The record formats (defined with the game, which may name its own).
pub use crate::game::RecordFormat as Format;

impl Format {
    /// The standard record format of a game: the one its file names
    /// (`[game] record`), else PDN for draughts positions, KIF for
    /// shogi-like games of shogi's pieces, PGN for the others.
    pub fn of(game: &Game) -> Format {
        if let Some(format) = game.record {
            return format;
        }
        match game.fen.format {
            PositionFormat::Pdn { .. } => Format::Pdn,
            PositionFormat::Sfen if kif::applies(game) => Format::Kif,
            _ => Format::Pgn,
        }
    }

    /// The file name extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Pdn => "pdn",
            Format::Kif => "kif",
        }
    }

    /// The MIME type a web server gives a file of the format.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Pgn => "application/x-chess-pgn",
            Format::Pdn => "application/x-draughts-pdn",
            Format::Kif => "text/plain; charset=utf-8",
        }
    }
}

/// Why a record could not be read or played.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("the record's start position: {0}")]
    Position(#[from] FenError),
    #[error("move {number} ('{text}'): {reason}")]
    Move {
        /// As the record numbers it: `2` (the first player's second
        /// move), `2...` (the second player's), or the ply in KIF.
        number: String,
        text: String,
        reason: String,
    },
    #[error("the record says the game ended {written}, but after its moves {actual}")]
    Result { written: String, actual: String },
    #[error("the record is of {found}, not of {wanted}")]
    WrongGame { found: String, wanted: String },
    #[error("{0}")]
    Unsupported(String),
    #[error(transparent)]
    Generation(#[from] GenError),
}

/// The text of a record file: UTF-8 (a byte-order mark dropped), else
/// Shift_JIS if that reads as KIF (the encoding of Japanese programs'
/// KIF files), else Windows-1252 (older PGN files).
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_string();
    }
    let japanese = encoding_rs::SHIFT_JIS.decode(bytes).0;
    if kif::looks_like(&japanese) {
        return japanese.into_owned();
    }
    encoding_rs::WINDOWS_1252.decode(bytes).0.into_owned()
}

/// Splits a text into its games: KIF if it looks like KIF (its move
/// header line or kanji moves), else PGN/PDN.
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.trim_start_matches('\u{FEFF}');
    if kif::looks_like(text) {
        Ok(vec![kif::read(text)?])
    } else {
        pgn::read(text)
    }
}

/// The dagaz game a record names: a dagaz game name in `Variant` (as
/// dagaz writes it), else Fairy-Stockfish's and lichess's variant names
/// (`Standard`, `King of the Hill`, `3check`, `Chess960`), PDN's
/// `GameType`, KIF (shogi, unless its `#dagaz-game:` line says which).
/// `None` if it names none — a PGN without `Variant` is chess by the
/// standard, but a reader may know better; a name dagaz does not know is
/// returned as given, lowercased, for the error to name it.
pub fn game_name(record: &Record) -> Option<String> {
    if let Some(kind) = record.tag("GameType") {
        let number = kind.split(',').next().unwrap_or("").trim();
        if let Some((_, name)) = PDN_GAME_TYPES.iter().find(|(n, _)| *n == number) {
            return Some(name.to_string());
        }
    }
    let Some(variant) = record.tag("Variant").map(str::trim) else {
        return record.tag("KIF").map(|_| "shogi".to_string());
    };
    let base = variant.split(':').next().unwrap_or("");
    if builtin_games().iter().any(|g| g.name == base) {
        return Some(variant.to_string());
    }
    let key: String = variant
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let key = match key.as_str() {
        "standard" | "chess" | "fromposition" | "normal" => return Some("chess".into()),
        "threecheck" => "3check",
        "fivecheck" => "5check",
        "chess960" | "fischerrandom" | "960" => "fischerandom",
        other => other,
    };
    if let Some(game) = fairy_stockfish_game(key) {
        return Some(game.to_string());
    }
    Some(variant.to_ascii_lowercase().replace(' ', "-"))
}

/// The `Variant` tag of a dagaz game: the name lichess and python-chess
/// use where there is one (`Crazyhouse`, `Chess960`), else
/// Fairy-Stockfish's (`xiangqi`, `kyotoshogi`), else dagaz's own. Each
/// reads back as the same game ([`game_name`]).
pub fn variant_tag(game: &str) -> String {
    if let Some((_, tag)) = LICHESS_VARIANTS.iter().find(|(g, _)| *g == game) {
        return tag.to_string();
    }
    crate::load::library::fairy_stockfish_names()
        .into_iter()
        .find(|(_, g)| *g == game)
        .map_or_else(|| game.to_string(), |(fsf, _)| fsf.to_string())
}

/// lichess's variant names of the dagaz games it plays.
const LICHESS_VARIANTS: [(&str, &str); 9] = [
    ("chess:chess960", "Chess960"),
    ("chess:crazyhouse", "Crazyhouse"),
    ("chess:king-of-the-hill", "King of the Hill"),
    ("chess:three-check", "Three-check"),
    ("chess:racing-kings", "Racing Kings"),
    ("chess:antichess", "Antichess"),
    ("chess:atomic", "Atomic"),
    ("horde", "Horde"),
    ("chess:giveaway", "Giveaway"),
];

/// Whether the game's first player is called Black (and the second
/// White), as in English checkers.
fn first_player_is_black(game: &Game) -> bool {
    matches!(game.players.as_slice(), [a, b] if a.name == "Black" && b.name == "White")
}

/// PDN's `GameType` numbers of the draughts games dagaz has.
const PDN_GAME_TYPES: [(&str, &str); 12] = [
    ("20", "international-draughts"),
    ("21", "checkers"),
    ("22", "italian-draughts"),
    ("23", "pool-checkers"),
    ("24", "spanish-draughts"),
    ("25", "russian-draughts"),
    ("26", "brazilian-draughts"),
    ("27", "canadian-draughts"),
    ("28", "spanish-draughts:portuguese"),
    ("30", "turkish-draughts"),
    ("31", "thai-draughts"),
    ("40", "frisian-draughts"),
];

/// The tags a dagaz front end gives a record of `game` it writes:
/// `Event`, `Site` (dagaz), today's `Date`, and the players' names, the
/// first player's first. PGN and PDN name the players by colour: the
/// first player's name goes under `White`, unless the game calls its first
/// player Black and its second White (English checkers, gomoku); KIF's
/// `White` and `Black` tags are the first and second player (先手, 後手).
pub fn header(game: &Game, event: &str, players: [&str; 2]) -> Vec<(String, String)> {
    let today = time::OffsetDateTime::now_utc().date();
    let date = format!(
        "{:04}.{:02}.{:02}",
        today.year(),
        today.month() as u8,
        today.day()
    );
    let by_colour = first_player_is_black(game) && Format::of(game) != Format::Kif;
    let (white, black) = if by_colour {
        (players[1], players[0])
    } else {
        (players[0], players[1])
    };
    [
        ("Event", event),
        ("Site", "dagaz"),
        ("Date", &date),
        ("White", white),
        ("Black", black),
    ]
    .iter()
    .map(|(n, v)| (n.to_string(), v.to_string()))
    .collect()
}

/// Writes the game of a session as its standard record. `tags` (`Event`,
/// `Site`, `Date`, `Round`, `White`, `Black`, …) replace the defaults;
/// the result, the variant and the start position are the session's.
pub fn write(session: &Session, tags: &[(String, String)]) -> Result<String, GenError> {
    let game = session.game();
    let format = Format::of(game);
    if format == Format::Kif {
        return kif::write(session, tags);
    }
    let mut record = Record::default();
    for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
        let unknown = if name == "Date" { "????.??.??" } else { "?" };
        record.set_tag(name, unknown.into());
    }
    for (name, value) in tags {
        record.set_tag(name, value.clone());
    }
    // A score token exists for two players; with more, the winner is a
    // tag of its own and the result `*`.
    let result = session
        .result()
        .filter(|_| game.players.len() <= 2)
        .map(|r| score(game, format, r));
    record.set_tag("Result", result.clone().unwrap_or_else(|| "*".into()));
    if let Some(GameResult::Win { winner, .. }) = session.result()
        && game.players.len() > 2
    {
        record.set_tag("Winner", game.players[*winner].name.clone());
    }
    let game_type = PDN_GAME_TYPES.iter().find(|(_, name)| *name == game.name);
    match (format, game_type) {
        (Format::Pdn, Some((n, _))) => record.set_tag("GameType", n.to_string()),
        _ if game.name != "chess" => record.set_tag("Variant", variant_tag(&game.name)),
        _ => {}
    }
    if game.write_position(session.start()) != game.write_position(game.setup()) {
        if format == Format::Pgn {
            record.set_tag("SetUp", "1".into());
        }
        record.set_tag("FEN", game.write_position(session.start()));
    }
    if let Some(r) = session.result() {
        record.set_tag("Termination", r.reason().to_string());
    }
    record.moves = move_texts(session, format)?;
    record.result = Some(result.unwrap_or_else(|| "*".into()));
    let start = session.start();
    let first = start.side() == 0;
    Ok(pgn::write(&record, start.fullmove().max(1), first))
}

/// The moves of a session as a PGN or PDN record writes them.
fn move_texts(session: &Session, format: Format) -> Result<Vec<String>, GenError> {
    let game = session.game();
    if format == Format::Pdn {
        return Ok(session.played().iter().map(|m| pdn_text(game, m)).collect());
    }
    if format != Format::Pgn || !san::applies(game) {
        return Ok(session.texts().to_vec());
    }
    each_move(session, |replay, i| {
        let mut pos = replay.position_copy();
        san::text(game, &mut pos, replay.legal(), i)
    })
}

/// The moves of a session, each written by `write` in the position before
/// it: the session is replayed from its start, and `write` gets the
/// replay and the index of the move among its legal moves. Draws the game
/// was played past (unclaimed repetitions) are passed again.
pub(crate) fn each_move<T>(
    session: &Session,
    mut write: impl FnMut(&Session, usize) -> Result<T, GenError>,
) -> Result<Vec<T>, GenError> {
    let mut replay = Session::from_position(session.game().clone(), session.start().clone())?;
    let mut out = Vec::with_capacity(session.ply());
    for mv in session.played() {
        replay.resume_after_draw()?;
        let i = replay
            .index_of(mv.as_ref())
            .expect("a move played in the session is legal when replayed");
        out.push(write(&replay, i)?);
        replay.play(i).map_err(|e| match e {
            SessionError::Generation(g) => g,
            other => unreachable!("replaying a played move: {other}"),
        })?;
    }
    Ok(out)
}

/// The result as the format writes it: PDN counts two points a game.
fn score(game: &Game, format: Format, result: &GameResult) -> String {
    let pgn = result.score(game);
    if format != Format::Pdn {
        return pgn;
    }
    match pgn.as_str() {
        "1-0" => "2-0".into(),
        "0-1" => "0-2".into(),
        "1/2-1/2" => "1-1".into(),
        _ => pgn,
    }
}

/// Plays a record's game into a session of `game`: its start position
/// (`FEN`), each move, and a result the rules did not reach (a
/// resignation, a draw by agreement) declared as the record gives it.
pub fn load(game: Arc<Game>, record: &Record) -> Result<Session, RecordError> {
    let format = match Format::of(&game) {
        _ if record.tag("KIF").is_some() => Format::Kif,
        Format::Pdn => Format::Pdn,
        _ => Format::Pgn,
    };
    if let Some(handicap) = record.tag("Handicap")
        && handicap != "平手"
        && record.tag("FEN").is_none()
    {
        return Err(RecordError::Unsupported(format!(
            "the handicap '{handicap}' is not known: the record needs its start position as a board diagram"
        )));
    }
    let start = match record.tag("FEN") {
        Some(fen) => game.parse_position(fen)?,
        None => game.initial_position(),
    };
    let mut session = Session::from_position(game.clone(), start)?;
    let mut previous = None;
    let numbers = MoveNumbers::of(&game, format, session.start());
    for (n, text) in record.moves.iter().enumerate() {
        let fail = |reason: String| RecordError::Move {
            number: numbers.label(n),
            text: text.clone(),
            reason,
        };
        // A draw the players may claim (a repetition, the move-count
        // rule) that the record plays past was not claimed.
        session.resume_after_draw()?;
        if session.is_over() {
            let over = session
                .result()
                .map(|r| r.describe(&game))
                .unwrap_or_default();
            return Err(fail(format!("the game is already over: {over}")));
        }
        let index = match format {
            Format::Kif => kif::find(&game, session.legal(), text, previous)
                .map_err(|e| fail(e.to_string()))?,
            Format::Pgn if san::applies(&game) => {
                let mut pos = session.position_copy();
                san::find(&game, &mut pos, session.legal(), text)
                    .map_err(|e| fail(e.to_string()))?
            }
            Format::Pdn => find_pdn(&game, &session, text).map_err(|e| fail(e.to_string()))?,
            Format::Pgn => session.find(text).map_err(|e| fail(e.to_string()))?,
        };
        previous = session.legal().get(index).header.to();
        session.play(index).map_err(|e| fail(e.to_string()))?;
    }
    settle_result(&game, &mut session, record)?;
    Ok(session)
}

/// How a record numbers its moves: by full moves of two players from
/// the start position's move number (PGN, PDN), or by plies (KIF, and
/// games of more players).
struct MoveNumbers {
    /// The full move of the first ply, and whether the second player made it.
    first: (usize, bool),
    plies: bool,
}

impl MoveNumbers {
    fn of(game: &Game, format: Format, start: &crate::position::Position) -> MoveNumbers {
        MoveNumbers {
            first: (start.fullmove().max(1) as usize, start.side() == 1),
            plies: format == Format::Kif || game.players.len() != 2,
        }
    }

    /// The label of the `n`-th move of the record (from 0).
    fn label(&self, n: usize) -> String {
        if self.plies {
            return (n + 1).to_string();
        }
        let ply = n + usize::from(self.first.1);
        let number = self.first.0 + ply / 2;
        if ply.is_multiple_of(2) {
            number.to_string()
        } else {
            format!("{number}...")
        }
    }
}

/// A move as PDN writes it: its squares from start to end joined by `x`
/// if it captures, `-` if not (`32-28`, `26x17x8`, `c3-c4`).
fn pdn_text(game: &Game, mv: &crate::position::Move) -> String {
    let squares: Vec<&str> = mv
        .from()
        .into_iter()
        .chain(mv.landings.iter().copied())
        .chain(mv.to())
        .map(|s| game.topology.name(s))
        .collect();
    squares.join(if mv.header.captures > 0 { "x" } else { "-" })
}

/// A PDN move: its squares (`32-28`, `26x17x8`, `c3-c4`), or a capture
/// written with its start and end only (`26x8`) when that names one move;
/// or dagaz's move text.
fn find_pdn(game: &Game, session: &Session, text: &str) -> Result<usize, SessionError> {
    let text = text.trim_end_matches(['!', '?', '+', '#']);
    let squares: Vec<&str> = text.split(['-', 'x', ':']).map(str::trim).collect();
    let legal = session.legal();
    let name = |s: crate::board::Square| game.topology.name(s);
    let fits: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            let mv = legal.get(i);
            let (Some(from), Some(to)) = (mv.header.from(), mv.header.to()) else {
                return false;
            };
            let between: Vec<&str> = mv.landings.iter().map(|&s| name(s)).collect();
            squares.len() >= 2
                && squares[0] == name(from)
                && squares[squares.len() - 1] == name(to)
                && (squares.len() == 2 || squares[1..squares.len() - 1] == between[..])
        })
        .collect();
    match fits.as_slice() {
        [i] => Ok(*i),
        _ => session.find(text),
    }
}

/// Checks the record's result against the rules' and declares one the
/// rules did not reach. A draw by the rules gives way to a win the record
/// gives (an adjudication, a draw nobody claimed).
fn settle_result(game: &Game, session: &mut Session, record: &Record) -> Result<(), RecordError> {
    let written = record
        .result
        .as_deref()
        .or(record.tag("Result"))
        .unwrap_or("*");
    let named = record
        .tag("Winner")
        .and_then(|w| game.players.iter().position(|p| p.name == w));
    let winner = match (written, named) {
        (_, Some(w)) => Some(Some(w)),
        ("1-0" | "2-0", _) => Some(Some(0)),
        ("0-1" | "0-2", _) => Some(Some(1)),
        ("1/2-1/2" | "1-1", _) => Some(None),
        _ => None,
    };
    if let Some(Some(w)) = winner
        && w >= game.players.len()
    {
        return Err(RecordError::Result {
            written: written.to_string(),
            actual: format!("{} has {} player(s)", game.title, game.players.len()),
        });
    }
    let reason = record
        .tag("Termination")
        .filter(|t| !t.is_empty())
        .unwrap_or("as the record says")
        .to_string();
    let declared = match winner {
        None => return Ok(()),
        Some(Some(winner)) => GameResult::Win { winner, reason },
        Some(None) => GameResult::Draw { reason },
    };
    match session.result() {
        Some(actual) if same_outcome(actual, &declared) => Ok(()),
        Some(GameResult::Draw { .. }) | None => {
            session.declare(declared);
            Ok(())
        }
        Some(actual) => Err(RecordError::Result {
            written: written.to_string(),
            actual: actual.describe(game),
        }),
    }
}

/// Whether two results have the same winner (or are both draws).
fn same_outcome(a: &GameResult, b: &GameResult) -> bool {
    match (a, b) {
        (GameResult::Win { winner: x, .. }, GameResult::Win { winner: y, .. }) => x == y,
        (GameResult::Draw { .. }, GameResult::Draw { .. }) => true,
        _ => false,
    }
}
