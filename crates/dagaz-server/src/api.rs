//! The HTTP routes: the page, the JSON API and the event streams. Every
//! refusal or failure is a 4xx/5xx answer with a JSON body
//! `{"error": "..."}` — also those axum itself would give (unknown method,
//! a path or query it cannot read), and anything else that slips through
//! is turned into one by [`json_errors`].
//!
//! A request that changes a match computes the change on a copy, saves it,
//! and only then applies it: when the store fails, the match is as it was.
//! When another server sharing the store changed the match first, the
//! save is refused; the match is read again and the request tried again.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::{Stream, StreamExt};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Deserialize;

use crate::matches::{Change, Match, Mode, Refusal, stored_result};
use crate::store::{Action, Save, SaveError, StoreError, StoredMatch};
use crate::thinking::{self, Job, ThinkState};
use crate::views::{
    BoardView, Created, ErrorBody, GameDescription, GameSummary, Invite, MatchSummary, MatchView,
    PieceView, PlayerView, SquareView, SummaryResult, VariantView,
};
use crate::{AppState, Live, page};
use dagaz::ai::{self, Engine, Limit};
use dagaz::game::Game;
use dagaz::record;
use dagaz::session::Session;

/// Requests larger than this are refused before they are read.
const BODY_LIMIT: usize = 64 * 1024;

/// Engine specs a page may ask for: a longer time or more nodes than the
/// search bounds (`thinking`) is refused outright; a depth is accepted up
/// to this and still bounded by time and nodes.
const MAX_DEPTH: u32 = 12;

type Shared = Arc<AppState>;

/// All routes.
pub fn router(state: Shared) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/match/{id}", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/games", get(list_games))
        .route("/api/games/{name}", get(game_info))
        .route("/api/matches", get(list_matches).post(create_match))
        .route("/api/matches/{id}", get(match_state))
        .route("/api/matches/{id}/moves", post(make_move))
        .route("/api/matches/{id}/undo", post(undo))
        .route("/api/matches/{id}/resign", post(resign))
        .route("/api/matches/{id}/events", get(events))
        .route("/api/matches/{id}/export", get(export))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(json_errors))
        .with_state(state)
}

/// A refused or failed request.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        ApiError::new(
            StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST),
            r.message,
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::new(r.status(), r.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> ApiError {
        ApiError::new(r.status(), r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::new(r.status(), r.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this route does not take that method",
    )
}

/// The last guard: an error answer whose body is not JSON (one axum or a
/// layer made) gets the JSON form, with the status's reason as message
/// when the body was empty.
async fn json_errors(request: Request<Body>, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let bytes = axum::body::to_bytes(response.into_body(), BODY_LIMIT)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    ApiError::new(status, message).into_response()
}

// ---- games -------------------------------------------------------------

async fn list_games(State(state): State<Shared>) -> Json<Vec<GameSummary>> {
    let games = state
        .catalogue
        .entries()
        .iter()
        .map(|e| GameSummary {
            name: e.name.clone(),
            title: e.title.clone(),
            description: e.description.clone(),
            players: e.players.clone(),
            variants: e
                .variants
                .iter()
                .map(|(n, d)| VariantView {
                    name: n.clone(),
                    description: d.clone(),
                })
                .collect(),
        })
        .collect();
    Json(games)
}

async fn game_info(
    State(state): State<Shared>,
    name: Result<Path<String>, PathRejection>,
) -> ApiResult<Json<GameDescription>> {
    let Path(name) = name?;
    let game = state
        .catalogue
        .game(&name)
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, e))?;
    Ok(Json(describe_game(&game)))
}

/// Everything the page needs to draw a game.
fn describe_game(game: &Game) -> GameDescription {
    use dagaz::game::display::{BoardStyle, PieceShape};
    let topo = &game.topology;
    let grid = topo.grid();
    let d = &game.display;
    GameDescription {
        name: game.name.clone(),
        title: game.full_title(),
        description: game.description.clone(),
        players: game
            .players
            .iter()
            .zip(&d.colours)
            .map(|(p, c)| PlayerView {
                name: p.name.clone(),
                colour: c.clone(),
                at_bottom: sits_at_bottom(game, p),
            })
            .collect(),
        board: BoardView {
            style: match d.style {
                BoardStyle::Squares => "squares",
                BoardStyle::Points => "points",
                BoardStyle::Pits => "pits",
                BoardStyle::Hexes => "hexes",
            },
            checkered: d.checkered,
            show_removed: d.show_removed,
            // Squares with names of their own: the grid's labels name nothing.
            cols: labels(&grid.cols, topo.has_own_names()),
            rows: labels(&grid.rows, topo.has_own_names()),
            levels: grid.levels.clone(),
            squares: topo
                .squares()
                .map(|sq| {
                    let c = topo.coords(sq);
                    SquareView {
                        name: topo.name(sq).to_string(),
                        col: c.col,
                        row: c.row,
                        level: c.level,
                    }
                })
                .collect(),
            lines: d
                .lines
                .iter()
                .map(|(a, b)| [topo.name(*a).to_string(), topo.name(*b).to_string()])
                .collect(),
        },
        shape: match d.shape {
            PieceShape::Glyph => "glyph",
            PieceShape::Disc => "disc",
            PieceShape::Counter => "counter",
            PieceShape::Tile => "tile",
        },
        pieces: game
            .pieces
            .iter()
            .map(|p| PieceView {
                name: p.name.clone(),
                letter: p.letter.to_string(),
                symbol: p.symbol.clone(),
                glyphs: p.glyphs.clone(),
                upside_down: p.upside_down,
                value: p.value,
            })
            .collect(),
        hands: game.has_hands(),
    }
}

/// Whether a player's forward direction points up the screen, so that the
/// board is drawn with that player's side at the bottom.
fn sits_at_bottom(game: &Game, player: &dagaz::game::Player) -> bool {
    use dagaz::board::DirKind;
    match player.north.map(|d| &game.topology.direction(d).kind) {
        Some(DirKind::Vector(v)) => v[1] <= 0,
        _ => true,
    }
}

// ---- matches -----------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewMatch {
    /// The game; with `record`, the game the record names if it names one.
    #[serde(default)]
    game: String,
    /// `ai` (default), `local` or `online`.
    mode: Option<String>,
    /// The computer's engine, in `ai` mode (default `ab:1s`).
    ai: Option<String>,
    /// The seat of the person creating the match (default 0, the first player).
    side: Option<usize>,
    /// A starting position in the game's position notation (FEN, SFEN, PDN).
    position: Option<String>,
    /// A game record (PGN, PDN, KIF) whose first game the match goes on
    /// from, with its moves and result.
    record: Option<String>,
}

/// A record's first game, played into a session of the game the record
/// names (if this server has it), else of `game` (chess if empty).
fn imported(state: &AppState, game: &str, text: &str) -> ApiResult<Session> {
    let records =
        record::read(text).map_err(|e| ApiError::bad_request(format!("the record: {e}")))?;
    let first = &records[0];
    let asked = if game.is_empty() { "chess" } else { game };
    let named =
        record::game_name(first).filter(|n| game.is_empty() || state.catalogue.game(n).is_ok());
    let name = named.as_deref().unwrap_or(asked);
    let game = state.catalogue.game(name).map_err(ApiError::bad_request)?;
    record::load(game, first).map_err(|e| ApiError::bad_request(format!("the record: {e}")))
}

async fn create_match(
    State(state): State<Shared>,
    body: Result<Json<NewMatch>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let Json(req) = body?;
    let import = match &req.record {
        Some(_) if req.position.is_some() => {
            return Err(ApiError::bad_request(
                "give a position or a record, not both",
            ));
        }
        Some(text) => Some(imported(&state, &req.game, text)?),
        None => None,
    };
    let game = match &import {
        Some(session) => session.game().clone(),
        None => state
            .catalogue
            .game(&req.game)
            .map_err(ApiError::bad_request)?,
    };
    let players = game.players.len();
    let start = match (&req.position, &import) {
        (_, Some(session)) => Some(session.start().clone()),
        // A game that shuffles its setup (Chess960) draws a new one.
        (None, None) => game
            .shuffles()
            .then(|| game.shuffled_start(&mut rand::rng())),
        (Some(text), None) => Some(
            game.parse_position(text)
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
        ),
    };
    let side = req.side.unwrap_or(0);
    if side >= players {
        return Err(ApiError::bad_request(format!(
            "side {side}: {} has players 0 to {}",
            game.title,
            players - 1
        )));
    }
    let mode = match req.mode.as_deref().unwrap_or("ai") {
        "ai" => Mode::Ai {
            engine: engine_for_page(
                req.ai
                    .as_deref()
                    .unwrap_or(if players == 2 { "ab:1s" } else { "mcts:1s" }),
                state.thinkers.max_think(),
            )?,
            human: side,
        },
        "local" => Mode::Local,
        "online" => Mode::Online,
        other => {
            return Err(ApiError::bad_request(format!(
                "unknown mode '{other}': use ai, local or online"
            )));
        }
    };
    let id = random_id(12);
    let token = random_id(24);
    let seats: Vec<String> = (0..players)
        .map(|p| match mode {
            Mode::Ai { human, .. } if p != human => String::new(),
            Mode::Online if p != side => random_id(24),
            _ => token.clone(),
        })
        .collect();
    let mut m = Match::new(id.clone(), game.clone(), mode, seats.clone(), start)?;
    let (moves, result) = match &import {
        Some(session) => (session.texts().to_vec(), stored_result(session)),
        None => (Vec::new(), None),
    };
    m.restore(&moves, result.as_ref())
        .map_err(ApiError::bad_request)?;
    let computer_first = m.computer_to_move().is_some();
    let stored = StoredMatch {
        id: id.clone(),
        game: game.name.clone(),
        mode: mode.name().to_string(),
        ai: match mode {
            Mode::Ai { engine, .. } => Some(engine.to_string()),
            _ => None,
        },
        seats: seats.clone(),
        start: (m.session().start() != game.setup())
            .then(|| game.write_position(m.session().start())),
        result,
        created: now(),
        plies: moves.len(),
        version: 0,
    };
    state
        .store()
        .create(&stored, &moves, computer_first)
        .await?;
    let invites = seats
        .iter()
        .enumerate()
        .filter(|(p, t)| *p != side && !t.is_empty() && **t != token)
        .map(|(p, t)| Invite {
            side: p,
            player: game.players[p].name.clone(),
            token: t.clone(),
        })
        .collect();
    let live = Arc::new(Live::new(m));
    state.live_map().insert(id.clone(), live.clone());
    think_if_needed(&state, &live, &*live.lock().await);
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id,
            token,
            side,
            invites,
        }),
    ))
}

/// An engine spec from a request, within the server's bounds.
fn engine_for_page(spec: &str, max_think: Duration) -> ApiResult<Engine> {
    let engine: Engine = spec
        .parse()
        .map_err(|e: ai::EngineError| ApiError::bad_request(e.to_string()))?;
    let (limit, max_nodes) = match engine {
        Engine::Random => return Ok(engine),
        Engine::AlphaBeta(l) => (l, thinking::MAX_AB_NODES),
        Engine::Mcts { limit, .. } => (limit, thinking::MAX_MCTS_PLAYOUTS),
    };
    let within = match limit {
        Limit::Time(t) | Limit::Clock(t) => t <= max_think,
        Limit::Depth(d) => d <= MAX_DEPTH,
        Limit::Nodes(n) => n <= max_nodes,
    };
    if !within {
        return Err(ApiError::bad_request(format!(
            "engine '{spec}' thinks too long for this server (at most {:.1}s, depth {MAX_DEPTH} or {max_nodes} nodes; every search also stops after {:.1}s)",
            max_think.as_secs_f64(),
            max_think.as_secs_f64()
        )));
    }
    Ok(engine)
}

async fn list_matches(State(state): State<Shared>) -> ApiResult<Json<Vec<MatchSummary>>> {
    let list = state.store().list().await?;
    let out = list
        .into_iter()
        .map(|m| {
            let title = state
                .catalogue
                .game(&m.game)
                .map(|g| g.full_title())
                .unwrap_or_else(|_| m.game.clone());
            MatchSummary {
                id: m.id,
                game: m.game,
                title,
                mode: m.mode,
                ai: m.ai,
                plies: m.plies,
                result: m.result.map(|r| SummaryResult {
                    text: r.score,
                    reason: r.reason,
                }),
                created: m.created,
            }
        })
        .collect();
    Ok(Json(out))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct TokenQuery {
    token: Option<String>,
}

async fn match_state(
    State(state): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<TokenQuery>, QueryRejection>,
) -> ApiResult<Json<MatchView>> {
    let (Path(id), Query(q)) = (id?, query?);
    let live = find_live(&state, &id).await?;
    let m = live.lock().await;
    Ok(Json(m.view(
        q.token.as_deref().unwrap_or(""),
        live.think_state(),
    )))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    token: String,
    /// The match version the move was chosen at: when the match has moved
    /// on since, the answer is 409 (in a free opening, only if the move is
    /// no longer legal).
    version: Option<u64>,
}

async fn make_move(
    State(state): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> ApiResult<Json<MatchView>> {
    let (Path(id), Json(req)) = (id?, body?);
    let live = find_live(&state, &id).await?;
    let view = change_match(&state, &live, &req.token, |m| {
        let stale = req.version.is_some_and(|v| v != m.version);
        // Players take turns: a move chosen in another position than the
        // match's is refused. In a free opening, where both sides move
        // at once, it is played if it is still legal.
        if stale && !m.game().in_free_phase(m.session().position()) {
            return Err(Refusal::new(
                409,
                format!(
                    "the match changed before this move arrived (it was chosen at version {}, the match is at {})",
                    req.version.unwrap_or_default(),
                    m.version
                ),
            ));
        }
        match m.move_change(&req.token, &req.text) {
            Err(r) if r.status == 400 && stale => Err(Refusal::new(
                409,
                format!("the match changed before this move arrived: {}", r.message),
            )),
            other => other,
        }
    })
    .await?;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    #[serde(default)]
    token: String,
}

async fn undo(
    State(state): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<SeatRequest>, JsonRejection>,
) -> ApiResult<Json<MatchView>> {
    let (Path(id), Json(req)) = (id?, body?);
    let live = find_live(&state, &id).await?;
    let view = change_match(&state, &live, &req.token, |m| m.undo_change(&req.token)).await?;
    Ok(Json(view))
}

async fn resign(
    State(state): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<SeatRequest>, JsonRejection>,
) -> ApiResult<Json<MatchView>> {
    let (Path(id), Json(req)) = (id?, body?);
    let live = find_live(&state, &id).await?;
    let view = change_match(&state, &live, &req.token, |m| m.resign_change(&req.token)).await?;
    Ok(Json(view))
}

/// How often a change is computed again when other servers keep
/// changing the match first.
const CONFLICT_TRIES: usize = 4;

/// Computes a change of the match with `compute`, saves it and applies
/// it; the view of the holder of `token` afterwards. When another server
/// saved a change of the match first, the match is read again from the
/// store and the change computed again on it.
async fn change_match(
    state: &Shared,
    live: &Arc<Live>,
    token: &str,
    compute: impl Fn(&Match) -> Result<Change, Refusal>,
) -> ApiResult<MatchView> {
    let mut checked = false;
    for _ in 0..CONFLICT_TRIES {
        let mut m = live.lock().await;
        let change = match compute(&m) {
            Ok(change) => change,
            // A refusal on a shared store may come from a match another
            // server changed a moment ago (its notice not here yet): the
            // request is judged again on the stored match.
            Err(refusal) if !checked && state.store().shared() => {
                checked = true;
                let stored = state.store().get(&m.id).await?;
                if stored.is_some_and(|s| s.version != m.version) {
                    reload(state, live, &mut m).await?;
                    continue;
                }
                return Err(refusal.into());
            }
            Err(refusal) => return Err(refusal.into()),
        };
        match save_and_apply(state, live, &mut m, change).await {
            Ok(()) => {
                think_if_needed(state, live, &m);
                return Ok(m.view(token, live.think_state()));
            }
            Err(SaveError::Conflict) => reload(state, live, &mut m).await?,
            Err(SaveError::Store(e)) => return Err(e.into()),
        }
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        "the match kept changing on other servers while this request was saved: try again",
    ))
}

/// Saves a change, then applies it to the match and tells the watchers.
/// A search for the position before the change is stopped.
async fn save_and_apply(
    state: &AppState,
    live: &Live,
    m: &mut Match,
    change: Change,
) -> Result<(), SaveError> {
    let result = change.stored_result();
    let action = match &change.text {
        Some(text) => Action::Move { ply: m.ply(), text },
        None if change.ply() != m.ply() => Action::TakeBack { ply: change.ply() },
        None => Action::Result,
    };
    let save = Save {
        id: &m.id,
        version: m.version,
        action,
        result: result.as_ref(),
        computer_next: m.computer_moves_after(&change),
    };
    state.store().save(&save).await?;
    live.stop_thinking();
    m.apply(change);
    live.notify(m.version);
    Ok(())
}

/// Reads the match again from the store (another server changed it),
/// tells the watchers, and stops a search for the position it had.
pub(crate) async fn reload(state: &Shared, live: &Live, m: &mut Match) -> ApiResult<()> {
    let (stored, moves) = load(state, &m.id).await?;
    if stored.version == m.version {
        return Ok(());
    }
    // Usually the other servers only played moves: those are played here
    // too; otherwise the match is rebuilt from its start.
    if !m.catch_up(&moves, stored.result.as_ref(), stored.version) {
        *m = restore(state, &stored, &moves)?;
    }
    live.stop_thinking();
    live.notify(m.version);
    Ok(())
}

/// A match and its moves from the store.
async fn load(state: &Shared, id: &str) -> ApiResult<(StoredMatch, Vec<String>)> {
    let Some(stored) = state.store().get(id).await? else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no match '{id}'"),
        ));
    };
    let moves = state.store().moves(id).await?;
    Ok((stored, moves))
}

async fn export(
    State(state): State<Shared>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let Path(id) = id?;
    let live = find_live(&state, &id).await?;
    let (text, format) = live
        .lock()
        .await
        .export()
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let file = format!("dagaz-{id}.{}", format.extension());
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file}\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(format.mime()),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// Server-sent events: `version` with the match's version number, at once
/// and after every change, until the server stops.
async fn events(
    State(state): State<Shared>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let Path(id) = id?;
    let live = find_live(&state, &id).await?;
    let mut stop = state.shutdown.subscribe();
    let versions = tokio_stream::wrappers::WatchStream::new(live.changes.subscribe())
        .map(|v| Ok(Event::default().event("version").data(v.to_string())))
        .take_until(async move {
            let _ = stop.wait_for(|s| *s).await;
        });
    Ok(Sse::new(versions).keep_alive(KeepAlive::default()))
}

// ---- helpers -------------------------------------------------------------

/// The live match `id`, loaded from the database (and its moves replayed)
/// if the server has not seen it since it started.
pub(crate) async fn find_live(state: &Shared, id: &str) -> ApiResult<Arc<Live>> {
    if let Some(live) = state.live_map().get(id) {
        return Ok(live.clone());
    }
    if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no match '{id}'"),
        ));
    }
    let (stored, moves) = load(state, id).await?;
    let live = Arc::new(Live::new(restore(state, &stored, &moves)?));
    let live = state
        .live_map()
        .entry(id.to_string())
        .or_insert(live)
        .clone();
    let mut m = live.lock().await;
    // Another server's notice may have come between the read and the
    // insert, and been passed over: read the version once more.
    if state.store().shared() {
        reload(state, &live, &mut m).await?;
    }
    think_if_needed(state, &live, &m);
    drop(m);
    Ok(live)
}

/// Rebuilds a match from the database.
fn restore(state: &Shared, stored: &StoredMatch, moves: &[String]) -> ApiResult<Match> {
    let broken = |why: String| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("match '{}' cannot be restored: {why}", stored.id),
        )
    };
    let game = state.catalogue.game(&stored.game).map_err(broken)?;
    let players = game.players.len();
    if stored.seats.len() != players {
        return Err(broken(format!(
            "{} seats for {players} players",
            stored.seats.len()
        )));
    }
    let mode = match stored.mode.as_str() {
        "local" => Mode::Local,
        "online" => Mode::Online,
        "ai" => Mode::Ai {
            engine: stored
                .ai
                .as_deref()
                .unwrap_or("ab:1s")
                .parse()
                .map_err(|e: ai::EngineError| broken(e.to_string()))?,
            human: stored
                .seats
                .iter()
                .position(|s| !s.is_empty())
                .ok_or_else(|| broken("no seat for the person".into()))?,
        },
        other => return Err(broken(format!("unknown mode '{other}'"))),
    };
    let start = match &stored.start {
        None => None,
        Some(text) => Some(
            game.parse_position(text)
                .map_err(|e| broken(e.to_string()))?,
        ),
    };
    let mut m = Match::new(stored.id.clone(), game, mode, stored.seats.clone(), start)
        .map_err(|r| broken(r.message))?;
    m.restore(moves, stored.result.as_ref()).map_err(broken)?;
    m.version = stored.version;
    Ok(m)
}

/// If the computer is to move in `m` (the match of `live`, locked by the
/// caller), queues a search for the pool of thinking threads. With a free
/// thread, the search's job is claimed in the store (another server
/// sharing it may have it), and its move is played (saved first) if the
/// match has not changed in the meantime.
pub(crate) fn think_if_needed(state: &Shared, live: &Arc<Live>, m: &Match) {
    let Some(engine) = m.computer_to_move() else {
        return;
    };
    let (id, version) = (m.id.clone(), m.version);
    let stop = {
        let mut job = live.job();
        if job.as_ref().is_some_and(|j| j.version == version) {
            return;
        }
        if let Some(old) = job.take() {
            old.stop.store(true, Ordering::Relaxed);
        }
        let stop = state.thinkers.register();
        *job = Some(Job {
            version,
            state: ThinkState::Queued,
            stop: stop.clone(),
        });
        stop
    };
    let (state, live) = (state.clone(), live.clone());
    tokio::spawn(async move {
        let permit = state.thinkers.acquire().await;
        let claimed =
            permit.is_some() && !stop.load(Ordering::Relaxed) && claim(&state, &id, version).await;
        let position = if claimed {
            let m = live.lock().await;
            let mut job = live.job();
            match job.as_mut() {
                Some(j) if j.version == version && m.version == version => {
                    j.state = ThinkState::Thinking;
                    Some((m.game().clone(), m.session().position_copy()))
                }
                _ => None,
            }
        } else {
            None
        };
        let Some((game, mut pos)) = position else {
            forget_job(&live, &stop);
            state.thinkers.finished(&stop);
            return;
        };
        let mcts = matches!(engine, Engine::Mcts { .. });
        let control = state.thinkers.control(stop.clone(), mcts);
        let choice = tokio::task::spawn_blocking(move || {
            let mut rng = StdRng::seed_from_u64(rand::random());
            ai::choose_within(&game, &mut pos, engine, &mut rng, &control)
        })
        .await;
        drop(permit);
        state.thinkers.finished(&stop);
        play_computer_move(&state, &live, version, &stop, choice).await;
    });
}

/// Claims the computer's move at `version` in the store; false if another
/// server has it (its move will be announced) or the store failed.
async fn claim(state: &Shared, id: &str, version: u64) -> bool {
    let lease = state.thinkers.lease();
    matches!(
        state
            .store()
            .claim_job(id, version, &state.instance, lease)
            .await,
        Ok(true)
    )
}

/// Forgets the match's job if it is still the one of `stop`.
fn forget_job(live: &Live, stop: &Arc<std::sync::atomic::AtomicBool>) {
    let mut job = live.job();
    if job.as_ref().is_some_and(|j| Arc::ptr_eq(&j.stop, stop)) {
        *job = None;
    }
}

/// Plays the computer's choice for `version`, if it is still wanted.
async fn play_computer_move(
    state: &Shared,
    live: &Arc<Live>,
    version: u64,
    stop: &Arc<std::sync::atomic::AtomicBool>,
    choice: Result<Result<Option<ai::Choice>, dagaz::movegen::GenError>, tokio::task::JoinError>,
) {
    let mut m = live.lock().await;
    forget_job(live, stop);
    if stop.load(Ordering::Relaxed) {
        return;
    }
    let Ok(Ok(Some(choice))) = choice else {
        return;
    };
    let Some(change) = m.computer_change(choice.mv.as_ref(), version) else {
        return;
    };
    // A conflict: another server changed the match, and its notice
    // brings the change here.
    if save_and_apply(state, live, &mut m, change).await.is_ok() {
        // With more than two players the computer may move again.
        think_if_needed(state, live, &m);
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A random identifier of `len` letters and digits (about 5.9 bits each).
pub(crate) fn random_id(len: usize) -> String {
    use rand::RngExt;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A grid's labels as the page shows them: none where the squares have
/// names of their own.
fn labels(labels: &[String], own_names: bool) -> Vec<String> {
    match own_names {
        true => vec![String::new(); labels.len()],
        false => labels.to_vec(),
    }
}
