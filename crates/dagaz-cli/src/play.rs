//! `dagaz play`: a game in the terminal between people, or against the
//! computer (any engine of `dagaz::ai`, the random mover included).

use std::io::BufRead;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::board;
use dagaz::ai::{self, Engine};
use dagaz::game::Game;
use dagaz::movegen::{Generator, Move, MoveList};
use dagaz::position::Position;
use dagaz::{entry, movetext};

const HELP: &str = "Type a move (e.g. e2e4, e7e8q), or its squares one by one (\"a2 b2 b3\"), \
or: moves, undo, fen, help, quit";

/// Plays until the game ends, the input ends or the user quits.
/// `computer[p]` is the engine playing player `p`, if any.
pub fn play(
    game: &Game,
    mut pos: Position,
    computer: &[Option<Engine>],
    seed: Option<u64>,
) -> Result<(), String> {
    let mut rng = match seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::seed_from_u64(rand::random()),
    };
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    let mut played: Vec<Move> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    say!("{} — {}", game.title, HELP);
    // The board is drawn again only when the position has changed, so the
    // answer to `moves`, `fen` or a refused move stays in view.
    let mut drawn: Option<(u64, usize)> = None;
    loop {
        generator
            .legal(game, &mut pos, &mut list)
            .map_err(|e| e.to_string())?;
        let now = Some((pos.hash(), pos.history().len()));
        if drawn != now {
            prompt!("\n{}", board::draw(game, &pos));
            drawn = now;
        }
        if let Some(result) = generator
            .result(game, &mut pos)
            .map_err(|e| e.to_string())?
        {
            say!("{}", result.describe(game));
            return Ok(());
        }
        let side = pos.side();
        let name = &game.players[side].name;
        let texts = movetext::texts(game, &list);
        if let Some(engine) = computer.get(side).copied().flatten() {
            let Some(choice) =
                ai::choose(game, &mut pos, engine, &mut rng).map_err(|e| e.to_string())?
            else {
                return Ok(());
            };
            let i = (0..list.len())
                .find(|&i| {
                    list.get(i).changes == choice.mv.changes.as_slice()
                        && list.get(i).landings == choice.mv.landings.as_slice()
                })
                .unwrap_or(0);
            say!("{name} plays {}", texts[i]);
            played.push(choice.mv.clone());
            game.make(&mut pos, choice.mv.as_ref());
            continue;
        }
        prompt!("{name} to move> ");
        let Some(Ok(line)) = lines.next() else {
            say!();
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" => say!("{HELP}"),
            "moves" => say!("{}", texts.join(" ")),
            "fen" => say!("{}", game.write_position(&pos)),
            "undo" => undo(game, &mut pos, &mut played, computer),
            text => {
                let chosen = match squares(game, text) {
                    Some(squares) => match by_squares(game, &list, &texts, &squares) {
                        Ok(i) => Some(i),
                        Err(message) => {
                            say!("{message}");
                            None
                        }
                    },
                    None => match movetext::find(game, &list, text) {
                        Ok(i) => Some(i),
                        Err(e) => {
                            say!("{e}");
                            None
                        }
                    },
                };
                if let Some(i) = chosen {
                    played.push(list.get(i).to_owned());
                    game.make(&mut pos, list.get(i));
                }
            }
        }
    }
}

/// The squares of `text`, if it is a list of square names.
fn squares(game: &Game, text: &str) -> Option<Vec<dagaz::board::Square>> {
    text.split_whitespace()
        .map(|t| game.topology.square(t))
        .collect()
}

/// The move entered square by square, or what may come next.
fn by_squares(
    game: &Game,
    list: &MoveList,
    texts: &[String],
    chosen: &[dagaz::board::Square],
) -> Result<usize, String> {
    let p = entry::progress(list, chosen);
    let names = |sqs: &[dagaz::board::Square]| -> String {
        sqs.iter()
            .map(|s| game.topology.name(*s))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match p.complete.as_slice() {
        [i] => Ok(*i),
        [] if p.next.is_empty() => Err("no legal move goes through these squares".to_string()),
        [] => Err(format!("next square: {}", names(&p.next))),
        many => Err(format!(
            "these squares make several moves; type one of: {}",
            many.iter()
                .map(|i| texts[*i].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

/// Takes back the last move, and the computer's reply before it if any.
fn undo(game: &Game, pos: &mut Position, played: &mut Vec<Move>, computer: &[Option<Engine>]) {
    loop {
        let Some(mv) = played.pop() else {
            say!("nothing to undo");
            return;
        };
        game.undo(pos, mv.as_ref());
        if computer.get(pos.side()).copied().flatten().is_none() || played.is_empty() {
            return;
        }
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
