//! The `dagaz` command line: `list`, `perft`, `moves`, `check`, `betza`,
//! `play`, `analyse`, `match` and `serve`.

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

mod external;
mod matches;
mod perft;
mod play;
mod protocol;
mod squares;
mod xboard;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand};

use dagaz::ai::Engine;
use dagaz::game::Game;
use dagaz::load::{builtin_games, load_str};
use dagaz::position::Position;
use dagaz::session::Session;
use rand::SeedableRng;

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
        /// Depth in plies (at most 64)
        #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// Start from this position instead of the game's setup
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each legal first move
        #[arg(long)]
        divide: bool,
        /// Count capture paths with the same effect but a different order
        /// of captures as different moves (a convention of some draughts
        /// data)
        #[arg(long)]
        keep_duplicates: bool,
        /// Also count paths whose parts end on different squares as
        /// different moves (lishogi's count of the chu shogi Lion's moves)
        #[arg(long)]
        keep_landings: bool,
        /// Count with this many threads (the first moves shared out)
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
    },
    /// Print the legal moves of a position
    Moves {
        /// Built-in game name or path to a game file
        game: String,
        /// The position (default: the game's setup)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Read a position (the game's own form or Fairy-Stockfish's) and write
    /// it in the form asked for
    Convert {
        /// Built-in game name or path to a game file
        game: String,
        /// The position
        position: String,
        /// `native` (the game's own form) or `fsf` (Fairy-Stockfish's)
        #[arg(long, alias = "fen-style", value_enum, default_value_t = play::FenStyle::Native)]
        to: play::FenStyle,
    },
    /// Validate a game file: print diagnostics, exit non-zero on error
    Check {
        /// Path to a game file
        file: String,
    },
    /// Convert Fairy-Stockfish custom variants (a `variants.ini` file) or a
    /// Zillions of Games rules file (`.zrf`) into dagaz game files,
    /// reporting everything that cannot be converted
    Import {
        /// The variants.ini file, or a Zillions rules file (.zrf)
        file: String,
        /// Convert only this section (variants.ini)
        #[arg(long)]
        section: Option<String>,
        /// Convert this game of a .zrf file (0: the game, 1…: its
        /// variants; default: list them and convert the game)
        #[arg(long)]
        variant: Option<usize>,
        /// Write each game to DIR/<section>.toml (default: print them)
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// Speak the Universal Chess Interface on stdin/stdout (for chess GUIs
    /// and tools; the option UCI_Variant chooses the game)
    Uci,
    /// Speak the Universal Shogi Interface on stdin/stdout (for shogi GUIs
    /// and tools; the option USI_Variant chooses the game)
    Usi,
    /// Speak XBoard's protocol (CECP version 2) on stdin/stdout; `variant`
    /// chooses the game
    Xboard,
    /// Translate a piece's moves from Betza notation (e.g. "mRcpR") into
    /// the Dagaz move notation
    Betza {
        /// The piece in Betza notation, with XBetza's multi-leg `a`
        betza: String,
    },
    /// Play in the terminal, against another person or the computer
    Play {
        /// Built-in game name or path to a game file (with --load: the
        /// game the record names, unless given)
        #[arg(required_unless_present = "load")]
        game: Option<String>,
        /// Start from this position
        #[arg(long, conflicts_with = "load")]
        fen: Option<String>,
        /// Go on from the end of a game record: PGN, PDN or KIF (its first
        /// game)
        #[arg(long, value_name = "FILE")]
        load: Option<std::path::PathBuf>,
        /// The computer's engine: random, ab:2s, ab:d6, mcts:1s, mcts-greedy:5000n
        #[arg(long, value_name = "ENGINE")]
        ai: Option<String>,
        /// The player the --ai engine plays (default: the last); repeatable
        #[arg(long = "computer", value_name = "PLAYER")]
        computer: Vec<String>,
        /// Let a random mover play this side; repeatable
        #[arg(long = "random", value_name = "PLAYER")]
        random: Vec<String>,
        /// Seed for the computer's random choices, for repeatable games
        #[arg(long)]
        seed: Option<u64>,
        /// How the `fen` command writes the position: `native` (the
        /// game's own form) or `fsf` (Fairy-Stockfish's)
        #[arg(long, value_enum, default_value_t = play::FenStyle::Native)]
        fen_style: play::FenStyle,
    },
    /// Let the computer analyse a position: best move, score, depth, line
    Analyse {
        /// Built-in game name or path to a game file
        game: String,
        /// The position (default: the game's setup)
        #[arg(long)]
        fen: Option<String>,
        /// The engine
        #[arg(long, default_value = "ab:2s", value_name = "ENGINE")]
        ai: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Threads the alpha-beta search uses (they share its table)
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play a match between two engines (with more than two players they
    /// take the seats in turn; in a one-player game each plays alone in turn)
    Match {
        /// Built-in game name or path to a game file
        game: String,
        /// Engine A
        #[arg(long, value_name = "ENGINE")]
        a: String,
        /// Engine B
        #[arg(long, value_name = "ENGINE")]
        b: String,
        /// Number of games (A plays first in the odd-numbered ones)
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Games played at the same time (at most 64)
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// Seed for all random choices, for repeatable matches
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Random plies at the start of each game, for variety
        #[arg(long, default_value_t = 0)]
        openings: usize,
        /// Games longer than this are drawn
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Write the games to this file
        #[arg(long)]
        save: Option<std::path::PathBuf>,
    },
    /// Serve the web page: play any game in the browser
    Serve {
        /// Address to listen on (loopback unless told otherwise)
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Where matches are saved: a SQLite file, or a PostgreSQL URL
        /// (postgres://user:password@host/database) that several servers
        /// share
        #[arg(long, value_name = "FILE|URL", default_value = "dagaz.db")]
        db: String,
        /// A folder of extra game files to offer
        #[arg(long, value_name = "DIR")]
        games: Option<std::path::PathBuf>,
        /// Searches of the computer that may run at once (default: one per
        /// core); more wait in line
        #[arg(long, value_name = "N")]
        think_threads: Option<usize>,
        /// The longest the computer may think about one move, in seconds
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        max_think: f64,
    },
}

/// Runs the command line; errors are printed and give a non-zero exit code.
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List => list(),
        Command::Serve {
            addr,
            db,
            games,
            think_threads,
            max_think,
        } => think_limit(max_think).and_then(|max_think| {
            serve(dagaz_server::ServerConfig {
                addr,
                db,
                games_dir: games,
                think_threads: think_threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                max_think,
            })
        }),
        Command::Perft {
            game,
            depth,
            fen,
            divide,
            keep_duplicates,
            keep_landings,
            threads,
        } => {
            let counting = perft::Counting {
                keep_duplicates,
                keep_landings,
            };
            perft_cmd(
                &game,
                depth,
                fen.as_deref(),
                divide,
                counting,
                threads as usize,
            )
        }
        Command::Moves { game, fen } => moves_cmd(&game, fen.as_deref()),
        Command::Check { file } => check(&file),
        Command::Convert { game, position, to } => load(&game).and_then(|g| {
            let pos = g.parse_position(&position).map_err(|e| e.to_string())?;
            say!("{}", to.write(&g, &pos));
            Ok(())
        }),
        Command::Import {
            file,
            section,
            variant,
            out,
        } if file.ends_with(".zrf") => {
            let _ = section;
            import_zrf(&file, variant, out.as_deref())
        }
        Command::Import {
            file, section, out, ..
        } => import(&file, section.as_deref(), out.as_deref()),
        Command::Uci => engine_protocol(protocol::Dialect::Uci),
        Command::Usi => engine_protocol(protocol::Dialect::Usi),
        Command::Xboard => xboard::run(
            std::io::stdin().lock(),
            std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout())),
        ),
        Command::Betza { betza } => dagaz::notation::betza::to_dagaz(&betza)
            .map(|text| say!("{text}"))
            .map_err(|e| e.to_string()),
        Command::Play {
            game,
            fen,
            load: record,
            ai,
            computer,
            random,
            seed,
            fen_style,
        } => (|| {
            let session = match &record {
                Some(path) => play::load_record(game.as_deref().map(load).transpose()?, path)?,
                None => {
                    let g = load(game.as_deref().unwrap_or_default())?;
                    let pos = new_game_start(&g, fen.as_deref())?;
                    Session::from_position(g, pos).map_err(|e| e.to_string())?
                }
            };
            let ai = ai
                .map(|a| a.parse::<Engine>().map_err(|e| e.to_string()))
                .transpose()?;
            let sides = play::computer_players(session.game(), &random, &computer, ai)?;
            play::play(session, &sides, seed, fen_style)
        })(),
        Command::Analyse {
            game,
            fen,
            ai,
            seed,
            threads,
        } => analyse(&game, fen.as_deref(), &ai, seed, threads),
        Command::Match {
            game,
            a,
            b,
            games,
            threads,
            seed,
            openings,
            max_plies,
            save,
        } => load(&game).and_then(|g| {
            let spec = matches::MatchSpec {
                game_name: game.clone(),
                a: matches::Contender::parse(&a)?,
                b: matches::Contender::parse(&b)?,
                games,
                threads: threads.into(),
                seed,
                openings,
                max_plies,
                save,
            };
            matches::run(&g, &spec)
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

fn load(name: &str) -> Result<Arc<Game>, String> {
    dagaz::import::open_game(name).map(Arc::new)
}

fn start(game: &Game, fen_text: Option<&str>) -> Result<Position, String> {
    match fen_text {
        None => Ok(game.initial_position()),
        Some(text) => game.parse_position(text).map_err(|e| e.to_string()),
    }
}

/// The start of a game to play: the position given, else a new draw of
/// the setup in a game that shuffles it (Chess960), else the setup.
fn new_game_start(game: &Game, fen_text: Option<&str>) -> Result<Position, String> {
    match fen_text {
        None => Ok(game.shuffled_start(&mut rand::rng())),
        Some(_) => start(game, fen_text),
    }
}

fn list() -> CliResult {
    for g in builtin_games() {
        match load_str(g.source, g.name, g.name) {
            Ok(game) => {
                say!("{:<24} {}", g.name, game.description);
                for (variant, description) in &game.variants {
                    say!("  {:<22} {description}", format!("{}:{variant}", g.name));
                }
            }
            Err(e) => say!(
                "{:<24} (does not load: {})",
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
    counting: perft::Counting,
    threads: usize,
) -> CliResult {
    let game = load(name)?;
    let pos = start(&game, fen_text)?;
    let t0 = Instant::now();
    let (nodes, root_moves) = if depth == 0 {
        (1, 1)
    } else {
        let rows = perft::divide(&game, &pos, depth, threads, counting)?;
        if split {
            for (text, n) in &rows {
                say!("{text}: {n}");
            }
        }
        (rows.iter().map(|(_, n)| n).sum(), rows.len())
    };
    let secs = t0.elapsed().as_secs_f64();
    if root_moves == 0 {
        say!("note: {}", no_moves_reason(&game, fen_text)?);
    } else if nodes == 0 {
        say!("note: every line ends before {depth} plies");
    }
    say!("nodes {nodes}");
    say!("time {secs:.3} s");
    say!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

fn moves_cmd(name: &str, fen_text: Option<&str>) -> CliResult {
    let game = load(name)?;
    let pos = start(&game, fen_text)?;
    let session = Session::from_position(game, pos).map_err(|e| e.to_string())?;
    match session.result() {
        Some(result) if session.legal().is_empty() => {
            say!("no legal moves: {}", result.describe(session.game()))
        }
        Some(result) => say!("the game is over: {}", result.describe(session.game())),
        None => {
            let mut texts = session.legal_texts().to_vec();
            texts.sort();
            say!("{}", texts.join(" "));
        }
    }
    Ok(())
}

/// Why the side to move of a position has no moves ("White wins (checkmate)").
fn no_moves_reason(game: &Arc<Game>, fen_text: Option<&str>) -> Result<String, String> {
    let pos = start(game, fen_text)?;
    let side = game.players[pos.side()].name.clone();
    let session = Session::from_position(game.clone(), pos).map_err(|e| e.to_string())?;
    Ok(match session.result() {
        Some(r) if session.legal().is_empty() => {
            format!("{side}, to move, has no legal moves: {}", r.describe(game))
        }
        Some(r) => format!("the game is already over: {}", r.describe(game)),
        None => format!("{side}, to move, has no legal moves"),
    })
}

fn analyse(name: &str, fen_text: Option<&str>, ai: &str, seed: u64, threads: usize) -> CliResult {
    let game = load(name)?;
    let mut pos = start(&game, fen_text)?;
    let engine: Engine = ai
        .parse()
        .map_err(|e: dagaz::ai::EngineError| e.to_string())?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // The attack tables are the game's, built once: not the search's time.
    game.prepare_attacks();
    let t0 = Instant::now();
    let control = dagaz::ai::Control {
        threads: threads.clamp(1, 64),
        ..dagaz::ai::Control::unbounded()
    };
    let Some(choice) = dagaz::ai::choose_within(&game, &mut pos, engine, &mut rng, &control)
        .map_err(|e| e.to_string())?
    else {
        say!("{}", no_moves_reason(&game, fen_text)?);
        return Ok(());
    };
    let mut line =
        Session::from_position(game.clone(), start(&game, fen_text)?).map_err(|e| e.to_string())?;
    for mv in &choice.pv {
        let Some(i) = line.index_of(mv.as_ref()) else {
            break;
        };
        line.play(i).map_err(|e| e.to_string())?;
    }
    let line = line.texts();
    say!("best {}", line.first().map_or("", String::as_str));
    match choice.score {
        Some(s) if s.abs() >= dagaz::ai::search::WIN - 1000 => {
            let plies = dagaz::ai::search::WIN - s.abs();
            say!(
                "score {} in {plies} {}",
                if s > 0 { "win" } else { "loss" },
                if plies == 1 { "ply" } else { "plies" }
            );
        }
        Some(s) => say!("score {s:+}"),
        // A player that does not search (random), or a search that ran
        // out of time before its first move.
        None => say!("score unknown (no move was searched to the end)"),
    }
    say!("depth {}", choice.depth);
    say!("nodes {}", choice.nodes);
    say!("time {:.3} s", t0.elapsed().as_secs_f64());
    say!("pv {}", line.join(" "));
    Ok(())
}

/// `check`: the game file loads, and so does each of its variants.
fn check(file: &str) -> CliResult {
    let game = load(file)?;
    for (variant, _) in &game.variants {
        load(&format!("{file}:{variant}"))?;
    }
    let variants = match game.variants.len() {
        0 => String::new(),
        1 => ", 1 variant".to_string(),
        n => format!(", {n} variants"),
    };
    say!(
        "{}: ok ({}, {} players, {} squares, {} piece types{variants})",
        file,
        game.title,
        game.players.len(),
        game.topology.len(),
        game.pieces.len()
    );
    Ok(())
}

/// `uci`, `usi`: the engine protocol on stdin and stdout.
fn engine_protocol(dialect: protocol::Dialect) -> CliResult {
    let out: protocol::Output = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
    protocol::run(dialect, std::io::stdin().lock(), out)
}

/// `import`: converts the sections, prints every problem on stderr, and
/// prints or writes the games; fails if a section could not be converted.
fn import(file: &str, section: Option<&str>, out: Option<&std::path::Path>) -> CliResult {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let conversions =
        dagaz::import::fsf::convert(&text, section).map_err(|e| format!("{file}: {e}"))?;
    let mut refused = Vec::new();
    for c in &conversions {
        for p in &c.problems {
            eprintln!("{file}: [{}] {p}", c.name);
        }
        let Some(game) = &c.game else {
            refused.push(c.name.as_str());
            continue;
        };
        match out {
            Some(dir) => {
                let path = write_game_file(dir, &c.name, game)?;
                eprintln!("{file}: [{}] written to {}", c.name, path.display());
            }
            None => say!("# [{}] from {file}, line {}\n{game}", c.name, c.line),
        }
    }
    if refused.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{file}: {} of {} sections not converted: {}",
            refused.len(),
            conversions.len(),
            refused.join(", ")
        ))
    }
}

/// Writes a converted game to `dir/NAME.toml`, making the folder if it is
/// not there; returns the file's path.
fn write_game_file(
    dir: &std::path::Path,
    name: &str,
    text: &str,
) -> Result<std::path::PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// `import game.zrf`: converts the game (or one variant) of a Zillions
/// rules file, prints the warnings on stderr, and prints or writes the
/// game file; lists the file's games on stderr.
fn import_zrf(file: &str, variant: Option<usize>, out: Option<&std::path::Path>) -> CliResult {
    use dagaz::import::zrf;
    let path = std::path::Path::new(file);
    let zrf_file = zrf::ZrfFile::open(path)?;
    if variant.is_none() {
        for e in zrf_file.entries() {
            eprintln!("{file}: game {e}");
        }
    }
    let index = variant.unwrap_or(0);
    let c = zrf_file.convert(index).map_err(|e| e.to_string())?;
    for w in &c.warnings {
        eprintln!("{w}");
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("zrf");
    let name = if index == 0 {
        stem.to_string()
    } else {
        format!("{stem}-{index}")
    };
    // The game file must load: a conversion that does not is an error here.
    dagaz::load::load_str(&c.game, &format!("{file} (converted)"), &name)
        .map_err(|e| e.to_string())?;
    match out {
        Some(dir) => {
            let to = write_game_file(dir, &name, &c.game)?;
            eprintln!("{file}: game {index} written to {}", to.display());
        }
        None => say!("{}", c.game),
    }
    Ok(())
}

/// `--max-think`: a positive number of seconds, at most an hour.
fn think_limit(seconds: f64) -> Result<std::time::Duration, String> {
    std::time::Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero() && d.as_secs() <= 3600)
        .ok_or_else(|| format!("--max-think {seconds}: give more than 0 and at most 3600 seconds"))
}

/// `serve`: runs the web server on a tokio runtime until Ctrl-C.
fn serve(config: dagaz_server::ServerConfig) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let served = runtime.block_on(dagaz_server::serve(config));
    // Searches were told to stop; do not wait long for a thread that has
    // not noticed yet.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served.map_err(|e| e.to_string())
}
