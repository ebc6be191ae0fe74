//! The JSON the API answers with, as typed structures: what each field is
//! is written here once, and the page (`page/app.js`) reads exactly these.

use serde::Serialize;

/// A refusal or failure: every 4xx and 5xx answer has this body.
#[derive(Serialize)]
pub struct ErrorBody {
    pub error: String,
}

/// A game of the catalogue, in `GET /api/games`.
#[derive(Serialize)]
pub struct GameSummary {
    pub name: String,
    pub title: String,
    pub description: String,
    pub players: Vec<String>,
    pub variants: Vec<VariantView>,
}

#[derive(Serialize)]
pub struct VariantView {
    pub name: String,
    pub description: String,
}

/// Everything the page needs to draw a game (`GET /api/games/{name}`).
#[derive(Serialize)]
pub struct GameDescription {
    pub name: String,
    pub title: String,
    pub description: String,
    pub players: Vec<PlayerView>,
    pub board: BoardView,
    /// `glyph`, `disc`, `counter` or `tile`.
    pub shape: &'static str,
    pub pieces: Vec<PieceView>,
    /// Pieces can be held in hand (and dropped).
    pub hands: bool,
}

#[derive(Serialize)]
pub struct PlayerView {
    pub name: String,
    pub colour: String,
    /// The player's forward direction points up the screen.
    pub at_bottom: bool,
}

#[derive(Serialize)]
pub struct BoardView {
    /// `squares`, `points` or `pits`.
    pub style: &'static str,
    pub checkered: bool,
    pub show_removed: bool,
    pub cols: Vec<String>,
    pub rows: Vec<String>,
    pub levels: Vec<String>,
    pub squares: Vec<SquareView>,
    /// Lines drawn between points (`[from, to]`).
    pub lines: Vec<[String; 2]>,
}

#[derive(Serialize)]
pub struct SquareView {
    pub name: String,
    pub col: i32,
    pub row: i32,
    pub level: i32,
}

#[derive(Serialize)]
pub struct PieceView {
    pub name: String,
    pub letter: String,
    pub symbol: String,
    pub glyphs: Vec<String>,
    pub upside_down: bool,
    pub value: i32,
}

/// The answer to `POST /api/matches`.
#[derive(Serialize)]
pub struct Created {
    pub id: String,
    /// The creator's seat token.
    pub token: String,
    pub side: usize,
    /// Tokens to pass to the other people (online matches).
    pub invites: Vec<Invite>,
}

#[derive(Serialize)]
pub struct Invite {
    pub side: usize,
    pub player: String,
    pub token: String,
}

/// A saved match, in `GET /api/matches`.
#[derive(Serialize)]
pub struct MatchSummary {
    pub id: String,
    pub game: String,
    pub title: String,
    pub mode: String,
    pub ai: Option<String>,
    pub plies: usize,
    pub result: Option<SummaryResult>,
    pub created: i64,
}

#[derive(Serialize)]
pub struct SummaryResult {
    pub text: String,
    pub reason: String,
}

/// A match as the holder of a token sees it (`GET /api/matches/{id}` and
/// every move, undo and resignation).
#[derive(Serialize)]
pub struct MatchView {
    pub id: String,
    pub game: String,
    /// `ai`, `local` or `online`.
    pub mode: &'static str,
    /// The seat the computer plays, in `ai` mode (the first of them).
    pub computer: Option<usize>,
    pub engine: Option<String>,
    /// The player to move.
    pub side: usize,
    /// Every player may move now (Ethiopian chess's free opening): the
    /// legal moves are those of the token's own seats.
    pub free: bool,
    /// The seats the token holds.
    pub you: Vec<usize>,
    /// The position string.
    pub position: String,
    pub board: Vec<PieceOnBoard>,
    /// Per player, the pieces in hand.
    pub hands: Vec<Vec<InHand>>,
    /// The moves played, as text.
    pub moves: Vec<String>,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    pub last: Option<LastMove>,
    /// The squares of the side to move's royal pieces that are attacked.
    pub check: Vec<String>,
    pub result: Option<ResultView>,
    /// The computer is to move (waiting for a thinker or thinking).
    pub thinking: bool,
    /// `queued` (waiting for a free thinking thread) or `thinking`.
    pub think_state: Option<&'static str>,
    /// Bumped at every change; the event stream sends it.
    pub version: u64,
}

#[derive(Serialize)]
pub struct PieceOnBoard {
    pub square: String,
    /// Heap boards: the number of pieces (no `piece`/`owner`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<u8>,
    /// Stack boards: the pieces under the top one, from the top down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below: Option<Vec<StackedPiece>>,
    /// Numbered pieces (Rithmomachia).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<u16>>,
}

#[derive(Serialize)]
pub struct StackedPiece {
    pub piece: u16,
    pub owner: u8,
}

#[derive(Serialize)]
pub struct InHand {
    pub piece: u16,
    pub count: u16,
}

#[derive(Serialize)]
pub struct LegalMove {
    pub text: String,
    /// The squares to click: start (none for a drop), landings, end.
    pub path: Vec<String>,
    pub captures: Vec<String>,
    pub piece: u16,
    pub drop: bool,
    pub promotion: Option<u16>,
}

#[derive(Serialize)]
pub struct LastMove {
    pub path: Vec<String>,
    pub captures: Vec<String>,
}

#[derive(Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1`, `1/2-1/2`, or "X wins".
    pub text: String,
    /// "White wins (checkmate)".
    pub message: String,
    pub winner: Option<usize>,
}
