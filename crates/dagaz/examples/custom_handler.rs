//! A complete extension handler: "splash" — after a Bomber lands, every
//! enemy piece orthogonally next to it is captured. The notation can step
//! to each neighbour and test it, but a capture of "all enemies around,
//! however many" is simplest said in Rust.
//!
//! Run with `cargo run --example custom_handler`; `docs/handlers.md`
//! explains it line by line.

use dagaz::game::Game;
use dagaz::handler::{Branch, Handler, HandlerContext, HandlerRegistry};
use dagaz::load::load_with;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;
use dagaz::text::movetext;

/// Captures the enemy pieces on the squares orthogonally next to the
/// cursor. Always continues the path (exactly one branch).
struct Splash;

impl Handler for Splash {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let mut branch = Branch::stay(ctx.cursor);
        for dir in topo.orthogonal() {
            let Some(next) = topo.step(ctx.cursor, *dir) else {
                continue;
            };
            if ctx.piece_at(next).is_some_and(|p| p.owner != ctx.player) {
                branch = branch.capture(next);
            }
        }
        out.push(branch);
    }
}

/// The game file: a Bomber steps like a king to an empty square, then
/// handler 1 (`splash`) runs on its landing square.
const GAME: &str = r#"
[game]
name = "bombers"
players = ["White", "Black"]

[board]
grid = "a-e x 5-1"

[players.Black]
map = "N=S S=N O=T T=O M=R R=M"

[handlers]
1 = "splash"

[pieces.Bomber]
letter = "B"
moves = "*[p][1]"

[setup]
fen = "5/1bbb1/5/2B2/5 w"

[rules]
goals = ["no_moves = loss"]
"#;

/// Loads the game with `splash` registered next to the built-in handlers.
fn load() -> Game {
    let mut registry = HandlerRegistry::builtin();
    registry.register("splash", Splash);
    load_with(GAME, "bombers.toml", "bombers", &registry).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves of the setup, as text.
pub fn first_moves() -> Vec<String> {
    let game = load();
    let mut pos = game.initial_position();
    let mut list = MoveList::new();
    Generator::new()
        .legal(&game, &mut pos, &mut list)
        .expect("the setup has moves");
    movetext::texts(&game, &list)
}

fn main() {
    for text in first_moves() {
        println!("{text}");
    }
}
