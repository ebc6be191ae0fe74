//! Fanorona: the first moves given by the rules reference, and positions
//! for chains, the direction rule, the no-revisit rule, the choice between
//! approach and withdrawal, whole lines and paika.

use crate::common;

use common::{moves, v};
use dagaz::load::load_game;

fn fanorona() -> dagaz::game::Game {
    load_game("fanorona").unwrap()
}

#[test]
fn the_five_first_moves() {
    let game = fanorona();
    assert_eq!(
        moves(&game, "sssssssss/sssssssss/sSsS1sSsS/SSSSSSSSS/SSSSSSSSS w"),
        v(&[
            "d3e3xf3",    // approach, taking f3
            "d3e3xc3",    // withdrawal, taking c3
            "e2e3xe5xe4", // approach, taking e4 and e5
            "d2e3xg5xf4", // approach along the diagonal, taking f4 and g5
            "f2e3xc5xd4", // approach, taking d4 and c5
        ])
    );
}

#[test]
fn a_chain_may_go_on_or_stop() {
    // a2-b2 takes c2; b2-b3 then takes b4.
    let game = fanorona();
    assert_eq!(
        moves(&game, "9/1s7/9/S1s6/9 w"),
        v(&["a2b2xc2", "a2xb2xb3xb4xc2"])
    );
}

#[test]
fn no_step_in_the_direction_of_the_previous_one() {
    // b3-c3 withdraws from a3; going on east to d3 (towards e3) is the same
    // direction and is refused; turning north to c4 (towards c5) is fine.
    let game = fanorona();
    assert_eq!(
        moves(&game, "2s6/9/sS2s4/9/9 w"),
        v(&["b3c3xa3", "b3xc3xc4xc5xa3"])
    );
}

#[test]
fn no_point_twice_and_the_choice_of_capture() {
    // c3-b3 approaches a3 or withdraws from d3; coming back to c3 is refused.
    let game = fanorona();
    assert_eq!(moves(&game, "9/9/s1Ss5/9/9 w"), v(&["c3b3xa3", "c3b3xd3"]));
}

#[test]
fn the_whole_line_is_taken() {
    let game = fanorona();
    assert_eq!(moves(&game, "9/9/9/9/S1sss1s2 w"), v(&["a1b1xc1xd1xe1"]));
}

#[test]
fn paika_only_without_captures() {
    let game = fanorona();
    assert_eq!(moves(&game, "8s/9/9/9/S8 w"), v(&["a1a2", "a1b1", "a1b2"]));
    // With a capture available, paika moves are gone.
    assert!(
        moves(&game, "8s/9/9/9/S1s6 w")
            .iter()
            .all(|m| m.contains('x'))
    );
}
