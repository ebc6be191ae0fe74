//! The HTTP routes: the page, the JSON API and the event streams. Every
//! refusal is a 4xx answer with a JSON body `{"error": "..."}`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::{Stream, StreamExt};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::matches::{Match, Mode, Refusal};
use crate::store::{StoreError, StoredMatch, StoredResult};
use crate::{AppState, Live, page};
use dagaz::ai::{self, Engine, Limit};
use dagaz::game::{Game, GameResult};

/// Requests larger than this are refused before they are read.
const BODY_LIMIT: usize = 16 * 1024;

/// The engines a page may ask for are capped, so that one request cannot
/// keep a core busy for long.
const MAX_THINK_SECONDS: f64 = 30.0;
const MAX_DEPTH: u32 = 12;
const MAX_NODES: u64 = 5_000_000;

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
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API route")
}

// ---- games -------------------------------------------------------------

async fn list_games(State(state): State<Shared>) -> Json<Value> {
    let games: Vec<Value> = state
        .catalogue
        .entries()
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "title": e.title,
                "description": e.description,
                "players": e.players,
                "variants": e.variants.iter().map(|(n, d)| json!({"name": n, "description": d})).collect::<Vec<_>>(),
            })
        })
        .collect();
    Json(Value::Array(games))
}

async fn game_info(
    State(state): State<Shared>,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let game = state
        .catalogue
        .game(&name)
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, e))?;
    Ok(Json(describe_game(&game)))
}

/// Everything the page needs to draw a game.
fn describe_game(game: &Game) -> Value {
    use dagaz::game::display::{BoardStyle, PieceShape};
    let topo = &game.topology;
    let grid = topo.grid();
    let d = &game.display;
    let squares: Vec<Value> = topo
        .squares()
        .map(|sq| {
            let c = topo.coords(sq);
            json!({"name": topo.name(sq), "col": c.col, "row": c.row, "level": c.level})
        })
        .collect();
    let lines: Vec<Value> = d
        .lines
        .iter()
        .map(|(a, b)| json!([topo.name(*a), topo.name(*b)]))
        .collect();
    let pieces: Vec<Value> = game
        .pieces
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "letter": p.letter.to_string(),
                "symbol": p.symbol,
                "glyphs": p.glyphs,
                "upside_down": p.upside_down,
                "value": p.value,
            })
        })
        .collect();
    json!({
        "name": game.name,
        "title": game.title,
        "description": game.description,
        "players": game.players.iter().zip(&d.colours).map(|(p, c)| json!({
            "name": p.name,
            "colour": c,
            "at_bottom": sits_at_bottom(game, p),
        })).collect::<Vec<_>>(),
        "board": {
            "style": match d.style { BoardStyle::Squares => "squares", BoardStyle::Points => "points", BoardStyle::Pits => "pits" },
            "checkered": d.checkered,
            "show_removed": d.show_removed,
            "cols": grid.cols,
            "rows": grid.rows,
            "levels": grid.levels,
            "squares": squares,
            "lines": lines,
        },
        "shape": match d.shape {
            PieceShape::Glyph => "glyph",
            PieceShape::Disc => "disc",
            PieceShape::Counter => "counter",
            PieceShape::Tile => "tile",
        },
        "pieces": pieces,
        "hands": game.has_hands(),
    })
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
    game: String,
    /// `ai` (default), `local` or `online`.
    mode: Option<String>,
    /// The computer's engine, in `ai` mode (default `ab:1s`).
    ai: Option<String>,
    /// The seat of the person creating the match (default 0, the first player).
    side: Option<usize>,
    /// A starting position in the game's position notation (FEN, SFEN, PDN).
    position: Option<String>,
}

async fn create_match(
    State(state): State<Shared>,
    body: Result<Json<NewMatch>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let Json(req) = body?;
    let game = state
        .catalogue
        .game(&req.game)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let players = game.players.len();
    let start = match &req.position {
        None => None,
        Some(text) => Some(
            game.parse_position(text)
                .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?,
        ),
    };
    let side = req.side.unwrap_or(0);
    if side >= players {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "side {side}: {} has players 0 to {}",
                game.title,
                players - 1
            ),
        ));
    }
    let mode = match req.mode.as_deref().unwrap_or("ai") {
        "ai" => Mode::Ai {
            engine: engine_for_page(req.ai.as_deref().unwrap_or(if players == 2 {
                "ab:1s"
            } else {
                "mcts:1s"
            }))?,
            human: side,
        },
        "local" => Mode::Local,
        "online" => Mode::Online,
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("unknown mode '{other}': use ai, local or online"),
            ));
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
    let stored = StoredMatch {
        id: id.clone(),
        game: game.name.clone(),
        mode: mode.name().to_string(),
        ai: match mode {
            Mode::Ai { engine, .. } => Some(engine.to_string()),
            _ => None,
        },
        seats: seats.clone(),
        start: start.as_ref().map(|p| game.write_position(p)),
        result: None,
        created: now(),
        plies: 0,
    };
    state.store().create(&stored)?;
    let invites: Vec<Value> = seats
        .iter()
        .enumerate()
        .filter(|(p, t)| *p != side && !t.is_empty() && **t != token)
        .map(|(p, t)| json!({"side": p, "player": game.players[p].name, "token": t}))
        .collect();
    let live = Arc::new(Live::new(Match::new(id.clone(), game, mode, seats, start)));
    state.live_map().insert(id.clone(), live.clone());
    think_if_needed(state.clone(), live);
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "token": token, "side": side, "invites": invites})),
    ))
}

/// An engine spec from a request, within the server's caps.
fn engine_for_page(spec: &str) -> ApiResult<Engine> {
    let engine: Engine = spec
        .parse()
        .map_err(|e: ai::EngineError| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
    let limit = match engine {
        Engine::Random => None,
        Engine::AlphaBeta(l) | Engine::Mcts { limit: l, .. } => Some(l),
    };
    let within = match limit {
        None => true,
        Some(Limit::Time(t)) => t.as_secs_f64() <= MAX_THINK_SECONDS,
        Some(Limit::Depth(d)) => d <= MAX_DEPTH,
        Some(Limit::Nodes(n)) => n <= MAX_NODES,
    };
    if !within {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "engine '{spec}' thinks too long for this server (at most {MAX_THINK_SECONDS}s, depth {MAX_DEPTH} or {MAX_NODES} nodes)"
            ),
        ));
    }
    Ok(engine)
}

async fn list_matches(State(state): State<Shared>) -> ApiResult<Json<Value>> {
    let list = state.store().list()?;
    let out: Vec<Value> = list
        .iter()
        .map(|m| {
            let title = state
                .catalogue
                .game(&m.game)
                .map(|g| g.title.clone())
                .unwrap_or_else(|_| m.game.clone());
            json!({
                "id": m.id,
                "game": m.game,
                "title": title,
                "mode": m.mode,
                "ai": m.ai,
                "plies": m.plies,
                "result": m.result.as_ref().map(|r| json!({"text": r.score, "reason": r.reason})),
                "created": m.created,
            })
        })
        .collect();
    Ok(Json(Value::Array(out)))
}

#[derive(Deserialize, Default)]
struct TokenQuery {
    token: Option<String>,
}

async fn match_state(
    State(state): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> ApiResult<Json<Value>> {
    let live = find_live(&state, &id)?;
    let mut m = live.lock();
    Ok(Json(m.view(q.token.as_deref().unwrap_or(""))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    token: String,
}

async fn make_move(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(req) = body?;
    let live = find_live(&state, &id)?;
    let view = {
        let mut m = live.lock();
        let (i, text) = m.check_move(&req.token, &req.text)?;
        state.store().add_move(&id, m.ply(), &text)?;
        m.apply(i);
        save_result(&state, &m)?;
        live.notify(m.version);
        m.view(&req.token)
    };
    think_if_needed(state, live);
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
    Path(id): Path<String>,
    body: Result<Json<SeatRequest>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(req) = body?;
    let live = find_live(&state, &id)?;
    let mut m = live.lock();
    m.undo(&req.token)?;
    state.store().truncate(&id, m.ply())?;
    save_result(&state, &m)?;
    live.notify(m.version);
    Ok(Json(m.view(&req.token)))
}

async fn resign(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Json<SeatRequest>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(req) = body?;
    let live = find_live(&state, &id)?;
    let mut m = live.lock();
    m.resign(&req.token)?;
    save_result(&state, &m)?;
    live.notify(m.version);
    Ok(Json(m.view(&req.token)))
}

async fn export(State(state): State<Shared>, Path(id): Path<String>) -> ApiResult<Response> {
    let live = find_live(&state, &id)?;
    let text = live.lock().export();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"dagaz-{id}.txt\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// Server-sent events: `version` with the match's version number, at once
/// and after every change, until the server stops.
async fn events(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let live = find_live(&state, &id)?;
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
fn find_live(state: &Shared, id: &str) -> ApiResult<Arc<Live>> {
    if let Some(live) = state.live_map().get(id) {
        return Ok(live.clone());
    }
    let unknown = || ApiError::new(StatusCode::NOT_FOUND, format!("no match '{id}'"));
    if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(unknown());
    }
    let (stored, moves) = {
        let store = state.store();
        let Some(stored) = store.get(id)? else {
            return Err(unknown());
        };
        let moves = store.moves(id)?;
        (stored, moves)
    };
    let live = Arc::new(Live::new(restore(state, &stored, &moves)?));
    let live = state
        .live_map()
        .entry(id.to_string())
        .or_insert(live)
        .clone();
    think_if_needed(state.clone(), live.clone());
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
    let mut m = Match::new(stored.id.clone(), game, mode, stored.seats.clone(), start);
    m.replay(moves).map_err(broken)?;
    if m.result().is_none()
        && let Some(r) = &stored.result
    {
        m.restore_result(r.winner, r.reason.clone());
    }
    Ok(m)
}

/// Saves the match's result (or that it has none, after an undo).
fn save_result(state: &Shared, m: &Match) -> Result<(), StoreError> {
    let result = m.result().map(|r| StoredResult {
        score: r.score(&m.game),
        winner: match r {
            GameResult::Win { winner, .. } => Some(*winner),
            GameResult::Draw { .. } => None,
        },
        reason: r.reason().to_string(),
    });
    state.store().set_result(&m.id, result.as_ref())
}

/// If the computer is to move, lets it think on a blocking thread (not on
/// the runtime's workers) and plays its move if the match has not changed
/// in the meantime.
fn think_if_needed(state: Shared, live: Arc<Live>) {
    let (game, mut pos, version, engine) = {
        let m = live.lock();
        let Some(engine) = m.computer_to_move() else {
            return;
        };
        let mut thinking = live.thinking.lock().unwrap_or_else(|e| e.into_inner());
        if *thinking == Some(m.version) {
            return;
        }
        *thinking = Some(m.version);
        (m.game.clone(), m.position().clone(), m.version, engine)
    };
    tokio::task::spawn_blocking(move || {
        let mut rng = StdRng::seed_from_u64(rand::random());
        let choice = ai::choose(&game, &mut pos, engine, &mut rng);
        let mut m = live.lock();
        *live.thinking.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let Ok(Some(choice)) = choice else {
            return;
        };
        let Some((i, text)) = m.computer_move(&choice.mv, version) else {
            return;
        };
        if state.store().add_move(&m.id, m.ply(), &text).is_err() {
            return;
        }
        m.apply(i);
        let _ = save_result(&state, &m);
        live.notify(m.version);
        drop(m);
        // With more than two players the computer may move again.
        think_if_needed(state, live);
    });
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A random identifier of `len` letters and digits (about 5.9 bits each).
fn random_id(len: usize) -> String {
    use rand::RngExt;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}
