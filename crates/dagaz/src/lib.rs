//! Dagaz: a universal board-game system.
//!
//! A game is data: a game file describes the board, the players, the
//! pieces (their moves written in the Dagaz move notation), the setup and
//! the goals. The data flows through these modules:
//!
//! ```text
//! game file ──> notation (parse, compile) ──> game::Game (board::Topology,
//!   programs, rules) ──> position::Position ──movegen──> moves ──> front ends
//! ```
//!
//! - [`board`]: squares, directions, links, player maps, zones.
//! - [`notation`]: the move notation: parser, syntax tree, compiler.
//! - [`game`]: the compiled game and the game-file loader; the built-in library.
//! - [`position`]: board state, make/undo, Zobrist hash, FEN.
//! - [`movegen`]: the program interpreter, attack detection, legality, perft.
//! - [`movetext`]: moves as text (`e2e4`, `e7e8q`, `a3xc5xe7`).
//! - [`entry`]: entering a move square by square.
//! - [`handler`]: the extension API for rules the notation cannot express.
//! - [`import`]: Fairy-Stockfish's `variants.ini` converted into game files.
//! - [`ai`]: alpha-beta and Monte-Carlo players, evaluation, matches.

pub mod ai;
pub mod board;
pub mod diagnostic;
pub mod encoding;
pub mod entry;
pub mod game;
pub mod handler;
pub mod import;
pub mod load;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod record;
pub mod session;
pub mod text;
