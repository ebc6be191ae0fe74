//! The native part of the `dagaz` Python package (`dagaz._dagaz`): games,
//! sessions, moves, results and search, wrapping the engine's
//! [`dagaz::session::Session`]. `python/dagaz/__init__.py` re-exports it;
//! `python/dagaz/_dagaz.pyi` types it.
//!
//! Perft and search release the GIL. Errors are Python exceptions (all
//! subclasses of `dagaz.DagazError`) with the messages the command line
//! prints.

use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand::SeedableRng;
use rand::rngs::StdRng;

use dagaz::ai::{self, Engine};
use dagaz::encoding::Encoding;
use dagaz::entry;
use dagaz::game::GameResult;
use dagaz::load::builtin_games;
use dagaz::movegen::{Generator, perft_with};
use dagaz::position::MoveRef;
use dagaz::session::{Session as EngineSession, SessionError};

create_exception!(dagaz, DagazError, PyException, "Any error of dagaz.");
create_exception!(
    dagaz,
    GameError,
    DagazError,
    "A game that cannot be loaded."
);
create_exception!(
    dagaz,
    PositionError,
    DagazError,
    "A position the game does not allow."
);
create_exception!(
    dagaz,
    MoveError,
    DagazError,
    "A move that is not legal, or cannot be made."
);
create_exception!(
    dagaz,
    EngineError,
    DagazError,
    "An engine spec that names no engine."
);

fn session_error(e: SessionError) -> PyErr {
    match e {
        SessionError::Generation(g) => DagazError::new_err(g.to_string()),
        other => MoveError::new_err(other.to_string()),
    }
}

/// The names of the built-in games (`dagaz list`).
#[pyfunction]
fn games() -> Vec<String> {
    builtin_games().iter().map(|g| g.name.to_string()).collect()
}

/// One converted section: name, game file, problems.
type ImportedSection = (String, Option<String>, Vec<String>);

/// Fairy-Stockfish custom variants (the text of a `variants.ini`)
/// converted into dagaz game files: for each section, its name, the game
/// file's text (`None` if it could not be converted) and the problems
/// found, each with its line.
#[pyfunction]
#[pyo3(signature = (text, section = None))]
fn import_variants(text: &str, section: Option<&str>) -> PyResult<Vec<ImportedSection>> {
    let conversions = dagaz::import::fsf::convert(text, section)
        .map_err(|e| GameError::new_err(e.to_string()))?;
    Ok(conversions
        .into_iter()
        .map(|c| {
            let problems = c.problems.iter().map(|p| p.to_string()).collect();
            (c.name, c.game, problems)
        })
        .collect())
}

/// A loaded game.
#[pyclass(module = "dagaz", name = "Game", frozen)]
struct Game {
    game: Arc<dagaz::game::Game>,
    encoding: Encoding,
}

impl Game {
    fn wrap(game: dagaz::game::Game) -> Game {
        Game {
            encoding: Encoding::new(&game),
            game: Arc::new(game),
        }
    }
}

#[pymethods]
impl Game {
    /// A built-in game by name (`"chess"`, `"turkish-draughts:end"`), or the
    /// path of a game file, or of a Zillions rules file (`"game.zrf"`,
    /// `"game.zrf:2"` for its second variant).
    #[new]
    fn new(name: &str) -> PyResult<Game> {
        dagaz::import::open_game(name)
            .map(Game::wrap)
            .map_err(GameError::new_err)
    }

    /// A game from a game file.
    #[staticmethod]
    fn from_file(path: std::path::PathBuf) -> PyResult<Game> {
        Game::new(&path.to_string_lossy())
    }

    #[getter]
    fn name(&self) -> String {
        self.game.name.clone()
    }

    #[getter]
    fn title(&self) -> String {
        self.game.title.clone()
    }

    #[getter]
    fn description(&self) -> String {
        self.game.description.clone()
    }

    /// The players' names, in turn order.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.game.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The piece types' names, in the game file's order.
    #[getter]
    fn pieces(&self) -> Vec<String> {
        self.game.pieces.iter().map(|p| p.name.clone()).collect()
    }

    /// How each piece type is written in position strings (`P`, `+P`),
    /// in the order of `pieces`.
    #[getter]
    fn symbols(&self) -> Vec<String> {
        self.game.pieces.iter().map(|p| p.symbol.clone()).collect()
    }

    /// The letter Fairy-Stockfish gives the piece type `piece` (a name of
    /// `pieces`), upper case: shatranj's Ferz is its `Q`.
    fn fsf_letter(&self, piece: &str) -> PyResult<String> {
        let game = &self.game;
        let t = game
            .pieces
            .iter()
            .position(|p| p.name == piece)
            .ok_or_else(|| DagazError::new_err(format!("no piece type '{piece}'")))?;
        Ok(game.fsf_letter(t as u16).to_string())
    }

    /// The squares' names, in board order.
    #[getter]
    fn squares(&self) -> Vec<String> {
        let topo = &self.game.topology;
        topo.squares().map(|s| topo.name(s).to_string()).collect()
    }

    /// How many action numbers the game's moves can have.
    #[getter]
    fn num_actions(&self) -> usize {
        self.encoding.num_actions()
    }

    /// The shape of an observation: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        self.encoding.observation_shape()
    }

    /// A new session from the setup, or from a position string; with
    /// `shuffled`, from a new draw of the setup in a game that shuffles it
    /// (Chess960), reproducible with `seed`.
    #[pyo3(signature = (fen=None, *, shuffled=false, seed=None))]
    fn new_session(
        &self,
        fen: Option<&str>,
        shuffled: bool,
        seed: Option<u64>,
    ) -> PyResult<Session> {
        let start = match fen {
            None if shuffled => match seed {
                Some(seed) => self.game.shuffled_start(&mut StdRng::seed_from_u64(seed)),
                None => self.game.shuffled_start(&mut rand::rng()),
            },
            None => self.game.initial_position(),
            Some(text) => self
                .game
                .parse_position(text)
                .map_err(|e| PositionError::new_err(e.to_string()))?,
        };
        let inner = EngineSession::from_position(self.game.clone(), start)
            .map_err(|e| DagazError::new_err(e.to_string()))?;
        Ok(Session {
            inner,
            encoding: self.encoding.clone(),
        })
    }

    fn __repr__(&self) -> String {
        format!("Game({:?})", self.game.name)
    }
}

/// A legal move of a position, by value.
#[pyclass(module = "dagaz", name = "Move", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Move {
    /// The move text (`e2e4`, `P*e5`, `a3xc5xe7`).
    #[pyo3(get)]
    text: String,
    /// The start square, `None` for a drop.
    #[pyo3(get, name = "from_")]
    from: Option<String>,
    /// The end square.
    #[pyo3(get)]
    to: Option<String>,
    /// The squares to click: start, the landing square of every part, end.
    #[pyo3(get)]
    parts: Vec<String>,
    /// The squares whose enemy pieces the move takes.
    #[pyo3(get)]
    captures: Vec<String>,
    /// The moving piece's type (`None` where pieces have no type: the
    /// seeds sown in mancala).
    #[pyo3(get)]
    piece: Option<String>,
    /// The type it promotes to, if it does.
    #[pyo3(get)]
    promotion: Option<String>,
    /// Where the Rook stood, if the move is a castling (UCI's Chess960
    /// mode writes it as the King taking that square).
    #[pyo3(get)]
    castling_rook: Option<String>,
}

impl Move {
    fn of(game: &dagaz::game::Game, mv: MoveRef, text: &str) -> Move {
        let name = |s: dagaz::board::Square| game.topology.name(s).to_string();
        let piece_name = |t: u16| game.pieces.get(t as usize).map(|p| p.name.clone());
        Move {
            text: text.to_string(),
            from: mv.header.from().map(name),
            to: mv.header.to().map(name),
            parts: entry::path(game, mv).into_iter().map(name).collect(),
            captures: game.captured_squares(mv).into_iter().map(name).collect(),
            piece: piece_name(mv.header.piece),
            promotion: mv.header.promotion().and_then(piece_name),
            castling_rook: dagaz::text::san::castling_rook(game, mv).map(name),
        }
    }
}

#[pymethods]
impl Move {
    /// Whether the move is a drop from a hand.
    #[getter]
    fn drop(&self) -> bool {
        self.from.is_none()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("Move({:?})", self.text)
    }
}

/// How a finished game ended.
#[pyclass(module = "dagaz", name = "Result", frozen)]
struct Outcome {
    /// The winner's index, `None` for a draw.
    #[pyo3(get)]
    winner: Option<usize>,
    /// The winner's name, `None` for a draw.
    #[pyo3(get)]
    winner_name: Option<String>,
    /// Why: "checkmate", "stalemate", "Black resigned".
    #[pyo3(get)]
    reason: String,
    /// `1-0`, `0-1`, `1/2-1/2` (or "X wins" with more players).
    #[pyo3(get)]
    score: String,
}

#[pymethods]
impl Outcome {
    #[getter]
    fn draw(&self) -> bool {
        self.winner.is_none()
    }

    fn __repr__(&self) -> String {
        match &self.winner_name {
            Some(w) => format!("Result(winner={w:?}, reason={:?})", self.reason),
            None => format!("Result(draw, reason={:?})", self.reason),
        }
    }
}

/// A game in progress.
#[pyclass(module = "dagaz", name = "Session")]
struct Session {
    inner: EngineSession,
    encoding: Encoding,
}

impl Session {
    fn game(&self) -> &dagaz::game::Game {
        self.inner.game()
    }

    /// The index of a legal move given as a `Move` or a text.
    fn index_of(&self, mv: &Bound<'_, PyAny>) -> PyResult<usize> {
        let text = match mv.cast::<Move>() {
            Ok(m) => m.get().text.clone(),
            Err(_) => mv.extract::<String>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("a move is a dagaz.Move or its text")
            })?,
        };
        self.inner.find(&text).map_err(session_error)
    }
}

#[pymethods]
impl Session {
    /// The game being played.
    #[getter]
    fn game_name(&self) -> String {
        self.game().name.clone()
    }

    /// The legal moves now (none once the game is over).
    fn legal_moves(&self) -> Vec<Move> {
        if self.inner.is_over() {
            return Vec::new();
        }
        let game = self.game();
        self.inner
            .legal()
            .iter()
            .zip(self.inner.legal_texts())
            .map(|(m, t)| Move::of(game, m, t))
            .collect()
    }

    /// Plays a legal move, given as a `Move` or as its text; returns the
    /// move played.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        let i = self.index_of(mv)?;
        let played = Move::of(
            self.game(),
            self.inner.legal().get(i),
            &self.inner.legal_texts()[i],
        );
        self.inner.play(i).map_err(session_error)?;
        Ok(played)
    }

    /// Takes back the last move; returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let text = self
            .inner
            .texts()
            .last()
            .cloned()
            .ok_or_else(|| MoveError::new_err("there is no move to take back"))?;
        let mv = self.inner.undo(1).map_err(session_error)?.remove(0);
        Ok(Move::of(self.inner.game(), mv.as_ref(), &text))
    }

    /// The legal moves in standard algebraic notation (`Nbd7`, `e8=Q`,
    /// `O-O`, `P@e4`), in the order of `legal_moves()`.
    fn san_moves(&self) -> PyResult<Vec<String>> {
        let game = self.game();
        if !dagaz::text::san::applies(game) {
            return Err(DagazError::new_err(format!(
                "the moves of {} are not written in SAN (its squares are not named like e4)",
                game.name
            )));
        }
        if self.inner.is_over() {
            return Ok(Vec::new());
        }
        let mut pos = self.inner.position_copy();
        dagaz::text::san::texts(game, &mut pos, self.inner.legal())
            .map_err(|e| DagazError::new_err(e.to_string()))
    }

    /// The game so far as its standard record: PGN (SAN moves for the
    /// chess family), PDN for draughts, KIF for shogi. `tags` (`Event`,
    /// `White`, `Black`, `Date`, …) fill the record's header.
    #[pyo3(signature = (tags = None))]
    fn record(&self, tags: Option<std::collections::BTreeMap<String, String>>) -> PyResult<String> {
        let tags: Vec<(String, String)> = tags.unwrap_or_default().into_iter().collect();
        dagaz::record::write(&self.inner, &tags).map_err(|e| DagazError::new_err(e.to_string()))
    }

    /// The moves played, as text.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner.texts().to_vec()
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.ply()
    }

    /// The index of the player to move.
    #[getter]
    fn side(&self) -> usize {
        self.inner.side()
    }

    /// The position in the game's position notation (FEN, SFEN, …).
    fn fen(&self) -> String {
        self.game().write_position(self.inner.position())
    }

    /// `None` while the game goes on, else how it ended.
    fn result(&self) -> Option<Outcome> {
        let game = self.game();
        self.inner.result().map(|r| Outcome {
            winner: match r {
                GameResult::Win { winner, .. } => Some(*winner),
                GameResult::Draw { .. } => None,
            },
            winner_name: match r {
                GameResult::Win { winner, .. } => Some(game.players[*winner].name.clone()),
                GameResult::Draw { .. } => None,
            },
            reason: r.reason().to_string(),
            score: r.score(game),
        })
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// Counts the leaves of the legal move tree to `depth` (the GIL is
    /// released meanwhile).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > 12 {
            return Err(DagazError::new_err("perft depth is at most 12"));
        }
        let game = self.inner.game().clone();
        let mut pos = self.inner.position_copy();
        py.detach(move || perft_with(&game, &mut pos, depth, &mut Generator::new()))
            .map_err(|e| DagazError::new_err(e.to_string()))
    }

    /// An independent copy.
    fn clone(&self) -> Session {
        Session {
            inner: self.inner.clone(),
            encoding: self.encoding.clone(),
        }
    }

    fn __copy__(&self) -> Session {
        self.clone()
    }

    /// The board as text.
    fn render(&self) -> String {
        dagaz::text::diagram::draw(self.game(), self.inner.position())
    }

    /// The board as an SVG picture.
    fn svg(&self) -> String {
        dagaz::text::svg::draw(self.game(), self.inner.position())
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    /// The position as planes of float32 numbers (a NumPy array of shape
    /// `game.observation_shape`): one plane per player and piece type, the
    /// hands, counts and numbers where the game has them, the side to move.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let values = self
            .encoding
            .observation(self.game(), self.inner.position());
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let (planes, height, width) = self.encoding.observation_shape();
        py.import("numpy")?
            .call_method1("frombuffer", (PyBytes::new(py, &bytes), "float32"))?
            .call_method1("reshape", ((planes, height, width),))?
            .call_method0("copy")
    }

    /// A NumPy array of `game.num_actions` booleans: True for the action
    /// numbers of the legal moves.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![0u8; self.encoding.num_actions()];
        for a in self.legal_actions().into_iter().flatten() {
            mask[a] = 1;
        }
        py.import("numpy")?
            .call_method1("frombuffer", (PyBytes::new(py, &mask), "bool"))?
            .call_method0("copy")
    }

    /// The action numbers of the legal moves, in the order of
    /// `legal_moves()` (`None` for a move without a number).
    fn legal_actions(&self) -> Vec<Option<usize>> {
        if self.inner.is_over() {
            return Vec::new();
        }
        self.encoding.actions(self.game(), self.inner.legal())
    }

    /// Plays the legal move with action number `action`.
    fn push_action(&mut self, action: usize) -> PyResult<Move> {
        let actions = self.legal_actions();
        let i = actions
            .iter()
            .position(|a| *a == Some(action))
            .ok_or_else(|| MoveError::new_err(format!("action {action} is not legal here")))?;
        let played = Move::of(
            self.game(),
            self.inner.legal().get(i),
            &self.inner.legal_texts()[i],
        );
        self.inner.play(i).map_err(session_error)?;
        Ok(played)
    }

    fn __repr__(&self) -> String {
        format!("Session({:?}, {:?})", self.game().name, self.fen())
    }
}

/// What an engine found.
#[pyclass(module = "dagaz", name = "SearchResult", frozen)]
struct SearchResult {
    #[pyo3(get, name = "move")]
    mv: Move,
    /// Score from the mover's point of view, if the engine gives one.
    #[pyo3(get)]
    score: Option<i32>,
    /// The principal variation, as move texts.
    #[pyo3(get)]
    pv: Vec<String>,
    #[pyo3(get)]
    depth: u32,
    #[pyo3(get)]
    nodes: u64,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        let score = self.score.map_or("None".to_string(), |v| v.to_string());
        format!(
            "SearchResult(move={:?}, score={score}, depth={}, pv={:?})",
            self.mv.text, self.depth, self.pv
        )
    }
}

/// Lets an engine (`"random"`, `"ab:0.2s"`, `"ab:d4"`, `"mcts:5000n"`)
/// choose a move in `session`'s position; `None` if there is no legal
/// move. The GIL is released while it thinks.
#[pyfunction]
#[pyo3(signature = (session, engine = "ab:1s", seed = None))]
fn search(
    py: Python<'_>,
    session: &Session,
    engine: &str,
    seed: Option<u64>,
) -> PyResult<Option<SearchResult>> {
    let engine: Engine = engine
        .parse()
        .map_err(|e: ai::EngineError| EngineError::new_err(e.to_string()))?;
    if session.inner.is_over() {
        return Ok(None);
    }
    let game = session.inner.game().clone();
    let mut pos = session.inner.position_copy();
    let seed = seed.unwrap_or_else(rand::random);
    let choice = py
        .detach(move || {
            let mut rng = StdRng::seed_from_u64(seed);
            ai::choose(&game, &mut pos, engine, &mut rng)
        })
        .map_err(|e| DagazError::new_err(e.to_string()))?;
    let Some(choice) = choice else {
        return Ok(None);
    };
    let mut line = session.inner.clone();
    let mut pv = Vec::new();
    for mv in &choice.pv {
        let Some(i) = line.index_of(mv.as_ref()) else {
            break;
        };
        pv.push(line.play(i).map_err(session_error)?);
    }
    let i = session
        .inner
        .index_of(choice.mv.as_ref())
        .ok_or_else(|| DagazError::new_err("the engine chose a move that is not legal"))?;
    let mv = Move::of(
        session.game(),
        session.inner.legal().get(i),
        &session.inner.legal_texts()[i],
    );
    Ok(Some(SearchResult {
        mv,
        score: choice.score,
        pv,
        depth: choice.depth,
        nodes: choice.nodes,
    }))
}

/// Reads a game record (PGN, PDN or KIF) and plays its first game into a
/// session: of `game` if given, else of the game the record names (its
/// `Variant` or `GameType` tag; KIF is shogi; chess if it names none).
#[pyfunction]
#[pyo3(signature = (text, game = None))]
fn load_record(text: &str, game: Option<&Game>) -> PyResult<Session> {
    let records = dagaz::record::read(text).map_err(|e| DagazError::new_err(e.to_string()))?;
    let record = &records[0];
    let game = match game {
        Some(g) => Game {
            game: g.game.clone(),
            encoding: g.encoding.clone(),
        },
        None => {
            let name = dagaz::record::game_name(record).unwrap_or_else(|| "chess".into());
            Game::new(&name)?
        }
    };
    let inner = dagaz::record::load(game.game.clone(), record)
        .map_err(|e| DagazError::new_err(e.to_string()))?;
    Ok(Session {
        inner,
        encoding: game.encoding,
    })
}

#[pymodule]
fn _dagaz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(import_variants, m)?)?;
    m.add_function(wrap_pyfunction!(load_record, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<Session>()?;
    m.add_class::<Move>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<SearchResult>()?;
    m.add("DagazError", py.get_type::<DagazError>())?;
    m.add("GameError", py.get_type::<GameError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("EngineError", py.get_type::<EngineError>())?;
    Ok(())
}
