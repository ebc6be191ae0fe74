//! The public handler API works as `docs/handlers.md` shows: the example
//! `examples/custom_handler.rs` registers its own handler and the game
//! file's moves use it.

#[path = "../../examples/custom_handler.rs"]
#[allow(dead_code)]
mod example;

#[test]
fn splash_captures_every_enemy_next_to_the_landing_square() {
    let mut moves = example::first_moves();
    moves.sort();
    // The Bomber on c2 (black Bombers on b4, c4, d4): landing on b3, c3 or
    // d3 takes the piece above; landing on row 2 or 1 takes nothing.
    assert_eq!(
        moves,
        [
            "c2b1", "c2b2", "c2b3xb4", "c2c1", "c2c3xc4", "c2d1", "c2d2", "c2d3xd4"
        ]
    );
}
