//! `dagaz play`: a game in the terminal between people, or against the
//! computer (any engine of `dagaz::ai`, the random mover included).

use std::io::BufRead;
use std::path::Path;
use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::StdRng;

use dagaz::ai::{self, Engine};
use dagaz::board::Square;
use dagaz::entry;
use dagaz::game::Game;
use dagaz::position::Position;
use dagaz::record;
use dagaz::session::Session;

/// What can be typed; `example` is a move of the game as it is written.
fn help(example: &str) -> String {
    let example = match example {
        "" => String::new(),
        e => format!("e.g. {e}; "),
    };
    format!(
        "Type a move ({example}SAN in the games written in it), or its squares one by \
one, on one line (\"a2 b2 b3\") or over several (\"e2\", then \"e4\"; an empty line ends a \
move that may stop there), or: moves, undo, fen, record (the game as PGN, PDN or KIF), save \
FILE, help, quit"
    )
}

/// How positions are written: the game's own form, or Fairy-Stockfish's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FenStyle {
    Native,
    Fsf,
}

impl FenStyle {
    pub fn write(self, game: &Game, pos: &Position) -> String {
        match self {
            FenStyle::Native => game.write_position(pos),
            FenStyle::Fsf => game.write_position_fsf(pos),
        }
    }
}

/// Reads the first game of a record file (PGN, PDN, KIF; UTF-8 or
/// Shift_JIS) into a session of `game`, or of the game the record names
/// (chess if it names none).
pub fn load_record(game: Option<Arc<Game>>, path: &Path) -> Result<Session, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = record::decode(&bytes);
    let in_file = |e: String| format!("{}: {e}", path.display());
    let records = record::read(&text).map_err(|e| in_file(e.to_string()))?;
    let first = &records[0];
    // A game named on the command line that the record is not of: said
    // if the record's moves do not play.
    let other = game.as_ref().and_then(|g| {
        record::game_name(first).filter(|named| named.split(':').next() != g.name.split(':').next())
    });
    let game = match game {
        Some(g) => g,
        None => {
            // A PGN that names no variant is of chess.
            let name = record::game_name(first).unwrap_or_else(|| "chess".into());
            Arc::new(dagaz::import::open_game(&name).map_err(in_file)?)
        }
    };
    if records.len() > 1 {
        say!(
            "{} holds {} games; playing on from the first",
            path.display(),
            records.len()
        );
    }
    let name = game.name.clone();
    record::load(game, first).map_err(|e| match other {
        Some(named) => in_file(format!(
            "{e} (the record is of {named}, not {name}: leave the game out to play the record's own)"
        )),
        None => in_file(e.to_string()),
    })
}

/// The tags of a record written from the terminal: the players are a
/// person, or the engine that plays the side.
fn record_tags(game: &Game, computer: &[Option<Engine>]) -> Vec<(String, String)> {
    let who = |side: usize| match computer.get(side).copied().flatten() {
        Some(engine) => format!("dagaz {engine}"),
        None => "?".to_string(),
    };
    record::header(
        game,
        &format!("dagaz play {}", game.name),
        [&who(0), &who(1)],
    )
}

/// Plays until the game ends, the input ends or the user quits.
/// `computer[p]` is the engine playing player `p`, if any.
pub fn play(
    mut session: Session,
    computer: &[Option<Engine>],
    seed: Option<u64>,
    fen_style: FenStyle,
) -> Result<(), String> {
    let mut rng = match seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::seed_from_u64(rand::random()),
    };
    let game = session.game().clone();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let example = session.legal_texts().first().cloned().unwrap_or_default();
    say!("{} — {}", game.full_title(), help(&example));
    // The board is drawn again only when the position has changed, so the
    // answer to `moves`, `fen` or a refused move stays in view.
    let mut drawn: Option<usize> = None;
    // Squares of a move being entered square by square.
    let mut entered: Vec<Square> = Vec::new();
    // The ply at which the result was last announced.
    let mut announced: Option<usize> = None;
    loop {
        if drawn != Some(session.ply()) {
            prompt!(
                "\n{}",
                dagaz::text::diagram::draw(&game, session.position())
            );
            drawn = Some(session.ply());
        }
        // A finished game stays open for `record`, `save`, `undo`, `fen`.
        let over = session.is_over();
        if let Some(result) = session.result()
            && announced != Some(session.ply())
        {
            say!("{}", result.describe(&game));
            announced = Some(session.ply());
            if computer.iter().all(Option::is_some) {
                // Engines on both sides: nobody is there to ask.
                return Ok(());
            }
        }
        let side = session.side();
        let name = &game.players[side].name;
        if !over && let Some(engine) = computer.get(side).copied().flatten() {
            let mut pos = session.position_copy();
            let Some(choice) =
                ai::choose(&game, &mut pos, engine, &mut rng).map_err(|e| e.to_string())?
            else {
                return Ok(());
            };
            let i = session
                .index_of(choice.mv.as_ref())
                .ok_or("the engine chose a move that is not legal")?;
            let text = session.play(i).map_err(|e| e.to_string())?;
            say!("{name} plays {text}");
            continue;
        }
        let so_far = names(&game, &entered);
        let sep = if so_far.is_empty() { "" } else { " " };
        if over {
            prompt!("game over (record, save FILE, undo, quit)> ");
        } else {
            prompt!("{name} to move{sep}{so_far}> ");
        }
        let Some(Ok(line)) = lines.next() else {
            say!();
            return Ok(());
        };
        match line.trim() {
            "" if entered.is_empty() => {}
            "" => finish_entry(&mut session, &mut entered),
            "quit" | "exit" => return Ok(()),
            "help" => say!("{}", help(&example)),
            "moves" => say!("{}", session.legal_texts().join(" ")),
            "fen" => say!("{}", fen_style.write(&game, session.position())),
            "record" => match record::write(&session, &record_tags(&game, computer)) {
                Ok(text) => say!("{}", text.trim_end()),
                Err(e) => say!("{e}"),
            },
            text if text.starts_with("save ") => save(&session, computer, text[5..].trim()),
            "undo" => {
                entered.clear();
                undo(&mut session, computer);
            }
            text => match squares(&game, text) {
                Some(more) => enter_squares(&mut session, &mut entered, &more, text),
                None => {
                    entered.clear();
                    if let Err(e) = session.play_text(text) {
                        say!("{e}");
                    }
                }
            },
        }
    }
}

/// Writes the game's record to a file.
fn save(session: &Session, computer: &[Option<Engine>], path: &str) {
    let written = record::write(session, &record_tags(session.game(), computer))
        .map_err(|e| e.to_string())
        .and_then(|text| {
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
        });
    match written {
        Ok(()) => say!("saved to {path}"),
        Err(e) => say!("{e}"),
    }
}

/// Square names, as written in the game's square names.
fn names(game: &Game, squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| game.topology.name(*s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The squares of `text`, if it is a list of square names.
fn squares(game: &Game, text: &str) -> Option<Vec<Square>> {
    text.split_whitespace()
        .map(|t| game.topology.square(t))
        .collect()
}

/// Adds squares to the move being entered: plays the move once the
/// squares name exactly one and nothing can follow; otherwise says what
/// may come next and keeps the squares for the next line. A line of
/// squares that starts no move may be a move's text (SAN's `e4`).
fn enter_squares(session: &mut Session, entered: &mut Vec<Square>, more: &[Square], line: &str) {
    let game = session.game().clone();
    let mut chosen = entered.clone();
    chosen.extend_from_slice(more);
    let mut p = entry::progress(session.game(), session.legal(), &chosen);
    if p.is_dead_end() && !entered.is_empty() {
        // Squares that do not go on with the move being entered start a new one.
        chosen = more.to_vec();
        p = entry::progress(session.game(), session.legal(), &chosen);
    }
    if p.is_dead_end() {
        if session.find(line).is_ok() {
            entered.clear();
            if let Err(e) = session.play_text(line) {
                say!("{e}");
            }
            return;
        }
        say!("no legal move goes through {}", names(&game, &chosen));
        return;
    }
    match (p.complete.as_slice(), p.next.is_empty()) {
        ([i], true) => {
            entered.clear();
            play_index(session, *i);
        }
        ([], false) => {
            say!("next square: {}", names(&game, &p.next));
            *entered = chosen;
        }
        ([_], false) => {
            say!(
                "the move may stop here (press Enter) or go on to: {}",
                names(&game, &p.next)
            );
            *entered = chosen;
        }
        (many, _) => {
            entered.clear();
            let texts = session.legal_texts();
            say!(
                "these squares make several moves; type one of: {}",
                many.iter()
                    .map(|i| texts[*i].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
}

/// An empty line ends a move entered square by square, if the squares so
/// far make exactly one.
fn finish_entry(session: &mut Session, entered: &mut Vec<Square>) {
    let p = entry::progress(session.game(), session.legal(), entered);
    match p.complete.as_slice() {
        [i] => play_index(session, *i),
        _ => say!("{} is not a whole move yet", names(session.game(), entered)),
    }
    entered.clear();
}

fn play_index(session: &mut Session, i: usize) {
    if let Err(e) = session.play(i) {
        say!("{e}");
    }
}

/// Takes back the last move, and the computer's replies before it if any.
fn undo(session: &mut Session, computer: &[Option<Engine>]) {
    let is_computer = |side: usize| computer.get(side).copied().flatten().is_some();
    let mut count = 0;
    let mut pos = session.position_copy();
    for mv in session.played().iter().rev() {
        session.game().undo(&mut pos, mv.as_ref());
        count += 1;
        if !is_computer(pos.side()) {
            break;
        }
    }
    if let Err(e) = session.undo(count) {
        say!("{e}");
    }
}

/// Which players the computer plays: `--random P` (random mover), and
/// `--computer P` with the `--ai` engine (by default the last player).
pub fn computer_players(
    game: &Game,
    random: &[String],
    computer: &[String],
    ai: Option<Engine>,
) -> Result<Vec<Option<Engine>>, String> {
    let mut out = vec![None; game.players.len()];
    for p in players_named(game, random)? {
        out[p] = Some(Engine::Random);
    }
    if let Some(engine) = ai {
        let sides = players_named(game, computer)?;
        if sides.is_empty()
            && let Some(last) = out.last_mut()
        {
            *last = Some(engine);
        }
        for p in sides {
            out[p] = Some(engine);
        }
    } else if !computer.is_empty() {
        return Err("--computer needs --ai ENGINE (e.g. --ai ab:1s)".into());
    }
    Ok(out)
}

fn players_named(game: &Game, names: &[String]) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for n in names {
        let i = game
            .players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(n))
            .or_else(|| {
                n.parse::<usize>()
                    .ok()
                    .filter(|i| (1..=game.players.len()).contains(i))
                    .map(|i| i - 1)
            })
            .ok_or_else(|| {
                let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
                format!("unknown player '{n}'; the players are {}", names.join(", "))
            })?;
        out.push(i);
    }
    Ok(out)
}
