//! Command-line front end: `list`, `perft`, `moves`, `check`, `play`.

/// Prints a line on standard output. When the reader has gone away (the
/// output was piped into `head`), the program ends quietly.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// Like [`say!`] without the line end, flushed (for prompts).
macro_rules! prompt {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout();
        if write!(out, $($arg)*).and_then(|_| out.flush()).is_err() {
            std::process::exit(0);
        }
    }};
}

mod board;
mod play;

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use dagaz::game::{Game, builtin_games, load_game, load_str};
use dagaz::movegen::{Generator, MoveList, divide, perft_with};
use dagaz::movetext;
use dagaz::position::Position;

#[derive(Parser)]
#[command(
    name = "dagaz",
    version,
    about = "A universal board-game system: games are data, moves are written in the Dagaz notation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in games
    List,
    /// Count the leaf nodes of the legal move tree to a depth (perft)
    Perft {
        /// Built-in game name or path to a game file
        game: String,
        /// Depth in plies
        depth: u32,
        /// Start from this position instead of the game's setup
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each legal first move
        #[arg(long)]
        divide: bool,
        /// Count capture paths with the same effect but different landing
        /// squares as different moves (a convention of some draughts data)
        #[arg(long)]
        keep_duplicates: bool,
    },
    /// Print the legal moves of a position
    Moves {
        /// Built-in game name or path to a game file
        game: String,
        /// The position (default: the game's setup)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Validate a game file: print diagnostics, exit non-zero on error
    Check {
        /// Path to a game file
        file: String,
    },
    /// Play in the terminal, against another person or a random mover
    Play {
        /// Built-in game name or path to a game file
        game: String,
        /// Start from this position
        #[arg(long)]
        fen: Option<String>,
        /// Let the computer (a random mover) play this side; repeatable
        #[arg(long = "random", value_name = "PLAYER")]
        random: Vec<String>,
        /// Seed for the random mover, for repeatable games
        #[arg(long)]
        seed: Option<u64>,
    },
}

/// Runs the command line; errors are printed and give a non-zero exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List => list(),
        Command::Perft {
            game,
            depth,
            fen,
            divide,
            keep_duplicates,
        } => perft_cmd(&game, depth, fen.as_deref(), divide, keep_duplicates),
        Command::Moves { game, fen } => moves_cmd(&game, fen.as_deref()),
        Command::Check { file } => check(&file),
        Command::Play {
            game,
            fen,
            random,
            seed,
        } => load(&game).and_then(|g| {
            let pos = start(&g, fen.as_deref())?;
            play::play(&g, pos, &random, seed)
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", e.trim_end());
            ExitCode::FAILURE
        }
    }
}

type CliResult = Result<(), String>;

fn load(name: &str) -> Result<Game, String> {
    load_game(name).map_err(|e| e.to_string())
}

fn start(game: &Game, fen_text: Option<&str>) -> Result<Position, String> {
    match fen_text {
        None => Ok(game.initial_position()),
        Some(text) => game.parse_position(text).map_err(|e| e.to_string()),
    }
}

fn list() -> CliResult {
    for g in builtin_games() {
        match load_str(g.source, g.name, g.name) {
            Ok(game) => say!("{:<12} {}", g.name, game.description),
            Err(e) => say!(
                "{:<12} (does not load: {})",
                g.name,
                e.diagnostics.first().map_or("", |d| &d.message)
            ),
        }
    }
    Ok(())
}

fn perft_cmd(
    name: &str,
    depth: u32,
    fen_text: Option<&str>,
    split: bool,
    keep_duplicates: bool,
) -> CliResult {
    let game = load(name)?;
    let mut pos = start(&game, fen_text)?;
    let mut generator = Generator::new();
    generator.keep_distinct_paths(keep_duplicates);
    let t0 = Instant::now();
    let nodes = if split {
        let mut list = MoveList::new();
        generator
            .legal(&game, &mut pos, &mut list)
            .map_err(|e| e.to_string())?;
        let texts = movetext::texts(&game, &list);
        let counts = divide(&game, &mut pos, depth, &mut generator).map_err(|e| e.to_string())?;
        let mut rows: Vec<(String, u64)> = texts
            .into_iter()
            .zip(counts.into_iter().map(|(_, n)| n))
            .collect();
        rows.sort();
        for (text, n) in &rows {
            say!("{text}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft_with(&game, &mut pos, depth, &mut generator).map_err(|e| e.to_string())?
    };
    let secs = t0.elapsed().as_secs_f64();
    say!("nodes {nodes}");
    say!("time {secs:.3} s");
    say!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

fn moves_cmd(name: &str, fen_text: Option<&str>) -> CliResult {
    let game = load(name)?;
    let mut pos = start(&game, fen_text)?;
    let mut list = MoveList::new();
    Generator::new()
        .legal(&game, &mut pos, &mut list)
        .map_err(|e| e.to_string())?;
    let mut texts = movetext::texts(&game, &list);
    texts.sort();
    say!("{}", texts.join(" "));
    Ok(())
}

fn check(file: &str) -> CliResult {
    let game = load(file)?;
    say!(
        "{}: ok ({}, {} players, {} squares, {} piece types)",
        file,
        game.title,
        game.players.len(),
        game.topology.len(),
        game.pieces.len()
    );
    Ok(())
}
