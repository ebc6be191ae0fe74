//! Every construct and bracket code of the notation (`notation.md` §2–§8),
//! each on a board where the answer is known.

use crate::common;

use common::{alone, lab, lab_with, moves, moves_in, play, position, v};
use dagaz::handler::{Branch, Handler, HandlerContext, HandlerRegistry};
use dagaz::load::load_with;
use dagaz::text::fen;

#[test]
fn runs_of_letters_are_alternatives() {
    assert_eq!(alone("NE"), v(&["d4d5", "d4e4"]));
}

#[test]
fn commas_spaces_and_groups_make_sequences() {
    assert_eq!(alone("N,E"), v(&["d4e5"]));
    assert_eq!(alone("N E"), v(&["d4e5"]));
    assert_eq!(alone("(N)(E)"), v(&["d4e5"]));
}

#[test]
fn direction_sets() {
    assert_eq!(alone("+"), v(&["d4d5", "d4d3", "d4c4", "d4e4"]));
    assert_eq!(alone("X"), v(&["d4c5", "d4e5", "d4c3", "d4e3"]));
    assert_eq!(alone("*").len(), 8);
}

#[test]
fn capture_groups_and_variables() {
    assert_eq!(alone(r"(+)\1"), v(&["d4d6", "d4d2", "d4b4", "d4f4"]));
    assert_eq!(alone(r"(+)\1\1~1"), v(&["d4d6", "d4d2", "d4b4", "d4f4"]));
    assert_eq!(alone(r"(NE)\1"), v(&["d4d6", "d4f4"]));
}

#[test]
fn capture_groups_are_numbered_per_alternative() {
    assert_eq!(alone(r"(N)\1; (E)\1"), v(&["d4d6", "d4f4"]));
    assert_eq!(alone(r"((N);(E))\1"), v(&["d4d6", "d4f4"]));
    // Both inner alternatives use the outer group as \1.
    assert_eq!(alone(r"(N)(\1;~1)"), v(&["d4d4", "d4d6"]));
}

#[test]
fn quantifiers_enumerate_every_count() {
    assert_eq!(alone("N?"), v(&["d4d4", "d4d5"]));
    assert_eq!(alone("N*"), v(&["d4d4", "d4d5", "d4d6", "d4d7", "d4d8"]));
    assert_eq!(alone("N+"), v(&["d4d5", "d4d6", "d4d7", "d4d8"]));
    assert_eq!(alone("N{2}"), v(&["d4d6"]));
    assert_eq!(alone("N{2,3}"), v(&["d4d6", "d4d7"]));
    assert_eq!(alone("N{2,}"), v(&["d4d6", "d4d7", "d4d8"]));
    assert_eq!(alone("N{,2}"), v(&["d4d4", "d4d5", "d4d6"]));
    assert_eq!(alone("N{0}"), v(&["d4d4"]));
}

#[test]
fn maximal_quantifiers_only_stop_when_the_body_cannot_go_on() {
    assert_eq!(alone("N*!"), v(&["d4d8"]));
    assert_eq!(alone("N+!"), v(&["d4d8"]));
    assert_eq!(alone("N?!"), v(&["d4d5"]));
    assert_eq!(alone("N{1,2}!"), v(&["d4d6"]));
    // All ways of going on are explored; only stopping early is cut.
    assert_eq!(alone("(N;E)*!"), v(&["d4h8"]));
    let game = lab("(N[p])*!", "");
    assert_eq!(moves(&game, "8/3S4/8/8/3T4/8/8/8 w"), v(&["d4d6"]));
    let plain = lab("(N[p])*", "");
    assert_eq!(
        moves(&plain, "8/3S4/8/8/3T4/8/8/8 w"),
        v(&["d4d4", "d4d5", "d4d6"])
    );
}

#[test]
fn repetitions_that_oscillate_terminate() {
    assert_eq!(
        alone("(N;S)*"),
        v(&[
            "d4d1", "d4d2", "d4d3", "d4d4", "d4d5", "d4d6", "d4d7", "d4d8"
        ])
    );
}

#[test]
fn drop_and_take() {
    // Drop on d5, walk on alone, take the stone on d6 and carry it to d7.
    let game = lab("N|N^N", "");
    let mut pos = position(&game, "8/8/3S4/8/3T4/8/8/8 w");
    assert_eq!(moves_in(&game, &mut pos), v(&["d4d5"]));
    play(&game, &mut pos, "d4d5");
    assert_eq!(fen::write(&game, &pos), "8/3S4/8/3T4/8/8/8/8 b - - 1 1");
}

#[test]
fn square_contents() {
    let fen_text = "8/8/8/3S4/3Ts3/8/8/8 w";
    assert_eq!(moves(&lab("+[p]", ""), fen_text), v(&["d4c4", "d4d3"]));
    assert_eq!(moves(&lab("+[P]", ""), fen_text), v(&["d4e4"]));
    assert_eq!(moves(&lab("+[e]", ""), fen_text), v(&["d4e4"]));
    assert_eq!(moves(&lab("+[E]", ""), fen_text), v(&["d4c4", "d4d3"]));
    assert_eq!(moves(&lab(r"(+)[f]\1", ""), fen_text), v(&["d4d6"]));
    assert_eq!(
        moves(&lab("+[F]", ""), fen_text),
        v(&["d4c4", "d4d3", "d4e4"])
    );
}

#[test]
fn attacked_and_protected() {
    // Black rook on h5 attacks rank 5; White rook on a3 protects rank 3.
    let fen_text = "8/8/8/7r/3T4/R7/8/8 w";
    let tester = |expr: &str| -> Vec<String> {
        moves(&lab(expr, ""), fen_text)
            .into_iter()
            .filter(|m| m.starts_with("d4"))
            .collect()
    };
    assert_eq!(tester("+[a]"), v(&["d4d5"]));
    assert_eq!(tester("+[A]"), v(&["d4c4", "d4d3", "d4e4"]));
    assert_eq!(tester("+[s]"), v(&["d4d3"]));
    assert_eq!(tester("+[S]"), v(&["d4c4", "d4d5", "d4e4"]));
}

#[test]
fn attacks_are_judged_on_the_position_before_the_move() {
    // The tester itself shields c4 from the rook on h4.
    let fen_text = "8/8/8/8/3T3r/8/8/8 w";
    assert_eq!(moves(&lab("W[a]", ""), fen_text), v(&[]));
    assert_eq!(moves(&lab("W[A]", ""), fen_text), v(&["d4c4"]));
}

#[test]
fn moved_flags() {
    let game = lab("[M]N; [m]E", "");
    let mut pos = position(&game, "7w/8/8/8/3T4/8/8/8 w");
    assert_eq!(moves_in(&game, &mut pos), v(&["d4d5"]));
    play(&game, &mut pos, "d4d5");
    play(&game, &mut pos, "h8g8");
    assert_eq!(moves_in(&game, &mut pos), v(&["d5e5"]));
}

#[test]
fn visited_squares() {
    assert_eq!(alone("(N;S),(N;S)[R]"), v(&["d4d2", "d4d6"]));
    assert_eq!(alone("(N;S),(N;S)[r]"), v(&["d4d4"]));
}

#[test]
fn last_move_start_and_end() {
    for (expr, expected) in [("*[t]", "d5e5"), ("*[l]", "d5e6")] {
        let game = lab(expr, "");
        let mut pos = position(&game, "8/8/4w3/3T4/8/8/8/8 b");
        play(&game, &mut pos, "e6e5");
        assert_eq!(moves_in(&game, &mut pos), v(&[expected]), "{expr}");
    }
    // Without an opponent's move, neither holds.
    assert_eq!(moves(&lab("*[t]", ""), "8/8/8/3T4/4w3/8/8/8 w"), v(&[]));
}

#[test]
fn capture_without_moving() {
    assert_eq!(
        moves(&lab("[x>N]", ""), "8/8/8/3s4/3T4/8/8/8 w"),
        v(&["d4d4xd5"])
    );
    assert_eq!(
        moves(&lab("N[x]", ""), "8/8/8/3s4/3T4/8/8/8 w"),
        v(&["d4d5"])
    );
    assert_eq!(
        moves(&lab("[x>N>E]", ""), "8/8/8/4s3/3T4/8/8/8 w"),
        v(&["d4d4xe5"])
    );
    assert_eq!(
        moves(&lab(r"(N)[x>\1]", ""), "8/8/3s4/8/3T4/8/8/8 w"),
        v(&["d4d5xd6"])
    );
    // Nothing to capture: the path fails.
    assert_eq!(alone("[x>N]"), v(&[]));
}

#[test]
fn piece_types() {
    let fen_text = "8/8/8/8/2wTs3/8/8/8 w";
    assert_eq!(moves(&lab("+[=Stone]", ""), fen_text), v(&["d4e4"]));
    assert_eq!(moves(&lab("+[=Walker]", ""), fen_text), v(&["d4c4"]));
}

#[test]
fn zones_are_per_player() {
    let game = lab("N+[@far]", "");
    assert_eq!(moves(&game, "8/8/8/8/3T4/8/8/8 w"), v(&["d4d8"]));
    assert_eq!(moves(&game, "8/8/8/3t4/8/8/8/8 b"), v(&["d5d1"]));
}

#[test]
fn navigation_looks_elsewhere_and_comes_back() {
    let game = lab("[P>N>N]E", "");
    assert_eq!(moves(&game, "8/8/3S4/8/3T4/8/8/8 w"), v(&["d4e4"]));
    assert_eq!(moves(&game, "8/8/8/8/3T4/8/8/8 w"), v(&[]));
}

#[test]
fn builtin_handler() {
    let game = lab("+[e][1]", "[handlers]\n1 = \"explode\"");
    let mut pos = position(&game, "8/8/8/5s2/3Ts3/3Ss3/8/8 w");
    assert_eq!(moves_in(&game, &mut pos), v(&["d4e4xf5xe3"]));
    play(&game, &mut pos, "d4e4xf5xe3");
    assert_eq!(fen::write(&game, &pos), "8/8/8/8/4T3/8/8/8 b - - 0 1");
}

/// A handler that forks the path: continue one square north or south.
struct NorthOrSouth;

impl Handler for NorthOrSouth {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        for letter in ['N', 'S'] {
            if let Some(next) = topo.dir(letter).and_then(|d| topo.step(ctx.cursor, d)) {
                out.push(Branch::stay(next));
            }
        }
    }
}

#[test]
fn handlers_registered_by_the_caller_can_fork_paths() {
    let mut registry = HandlerRegistry::builtin();
    registry.register("north_or_south", NorthOrSouth);
    let source = common::lab_source("moves = 'E[3]'", "[handlers]\n3 = \"north_or_south\"");
    let game = load_with(&source, "lab.toml", "lab", &registry).unwrap();
    assert_eq!(moves(&game, "8/8/8/8/3T4/8/8/8 w"), v(&["d4e3", "d4e5"]));
}

#[test]
fn deferred_captures_leave_pieces_until_the_move_ends() {
    let now = lab("[x>E][P>E]N", "");
    let later = lab("[x>E][P>E]N", "[rules]\ndeferred_captures = true");
    let fen_text = "8/8/8/8/3Ts3/8/8/8 w";
    assert_eq!(moves(&now, fen_text), v(&[]));
    assert_eq!(moves(&later, fen_text), v(&["d4d5xe4"]));
    // A marked piece cannot be captured twice, and stays an obstacle.
    let twice = lab("[x>E][x>E]", "[rules]\ndeferred_captures = true");
    assert_eq!(moves(&twice, fen_text), v(&[]));
    let jump = lab("[x>E]E[p]", "[rules]\ndeferred_captures = true");
    assert_eq!(moves(&jump, fen_text), v(&[]));
    assert_eq!(moves(&lab("[x>E]E[p]", ""), fen_text), v(&["d4e4"]));
    // At the end of the move the marked piece is gone.
    let mut pos = position(&later, fen_text);
    play(&later, &mut pos, "d4d5xe4");
    assert_eq!(fen::write(&later, &pos), "8/8/8/3T4/8/8/8/8 b - - 0 1");
}

#[test]
fn move_priorities() {
    let game = lab_with(
        r#"moves = [{ expr = "+", priority = 0 }, { expr = "+[e]", priority = 1 }]"#,
        "",
    );
    assert_eq!(moves(&game, "8/8/8/8/3Ts3/8/8/8 w"), v(&["d4e4"]));
    assert_eq!(
        moves(&game, "8/8/8/8/3T4/8/8/8 w"),
        v(&["d4c4", "d4d3", "d4d5", "d4e4"])
    );
}

#[test]
fn capture_priority_rule() {
    let game = lab("+", "[rules]\ncapture_priority = true");
    assert_eq!(moves(&game, "8/8/8/8/3Ts3/8/8/8 w"), v(&["d4e4"]));
    assert_eq!(moves(&game, "8/8/8/8/3T4/8/8/8 w").len(), 4);
}

#[test]
fn composite_moves_have_parts() {
    assert_eq!(alone("N|^N"), v(&["d4-d5-d6"]));
    // In the second part, l and t are the previous part's start and end.
    assert_eq!(alone("N|^[t]N"), v(&["d4-d5-d6"]));
    assert_eq!(alone("N|^[l]N"), v(&[]));
    assert_eq!(alone("N|^[l>S]N"), v(&["d4-d5-d6"]));
}

#[test]
fn paths_with_the_same_effect_are_one_move() {
    assert_eq!(alone("N;N"), v(&["d4d5"]));
    assert_eq!(alone("N,S,N;N"), v(&["d4d5"]));
}

#[test]
fn worked_examples_xiangqi_cannon_and_horse() {
    let cannon = lab(r"(+)[p](\1[p])*; (+)([p]\1)*[P]\1([p]\1)*[e]", "");
    let got = moves(&cannon, "3s4/8/3S4/8/3T4/8/8/8 w");
    let expected = v(&[
        "d4d5", "d4d3", "d4d2", "d4d1", "d4c4", "d4b4", "d4a4", "d4e4", "d4f4", "d4g4", "d4h4",
        "d4d8",
    ]);
    assert_eq!(got, expected);
    let horse = lab("N[p]OM; E[p]OT; S[p]TR; W[p]RM", "");
    assert_eq!(
        moves(&horse, "8/8/8/3S4/3T4/8/8/8 w"),
        v(&["d4b3", "d4b5", "d4c2", "d4e2", "d4f3", "d4f5"])
    );
}

#[test]
fn worked_example_fanorona_approach_and_withdrawal() {
    let game = lab(r"(*)[p]|((\1[ex])+!; ~1(~1[ex])+!)", "");
    assert_eq!(
        moves(&game, "8/3s4/3s4/8/3T4/3s4/3s4/8 w"),
        v(&["d4d5xd7xd6", "d4d5xd3xd2"])
    );
}

#[test]
fn black_reads_directions_through_its_map() {
    let game = lab("N", "");
    assert_eq!(moves(&game, "8/8/8/3t4/8/8/8/8 b"), v(&["d5d4"]));
}

#[test]
fn boards_with_link_chains_and_removed_squares() {
    let source = r#"
[game]
players = ["White", "Black"]
[board]
grid = "a-c x 3-1"
remove = "c3"
[board.directions]
N = [0, -1]
S = [0, 1]
E = [1, 0]
W = [-1, 0]
O = "a1>b2, b1>c2"
R = "b2>a1, c2>b1"
[pieces.Tester]
letter = "T"
moves = '(*)([p]\1)*'
[setup]
fen = "3/3/T2 w"
"#;
    let game = dagaz::load::load_str(source, "links.toml", "links").unwrap();
    assert_eq!(game.topology.len(), 8);
    let o = game.topology.dir('O').unwrap();
    assert_eq!(game.topology.opposite(o), game.topology.dir('R'));
    assert_eq!(
        moves(&game, "3/3/T2 w"),
        v(&["a1a2", "a1a3", "a1b1", "a1c1", "a1b2"])
    );
    assert_eq!(
        moves(&game, "3/3/1T1 w"),
        v(&["b1a1", "b1b2", "b1b3", "b1c1", "b1c2"])
    );
    // The removed square is not on the board.
    assert!(game.topology.square("c3").is_none());
}

#[test]
fn large_grids_beyond_26_files() {
    let source = r#"
[game]
players = ["White", "Black"]
[board]
grid = "a-ad x 12-1"
[pieces.Tester]
letter = "T"
moves = '(+)([p]\1)*'
[setup]
fen = "30/30/30/30/30/30/30/30/30/30/30/T29 w"
"#;
    let game = dagaz::load::load_str(source, "wide.toml", "wide").unwrap();
    let got = moves(&game, "30/30/30/30/30/30/30/30/30/30/30/T29 w");
    assert_eq!(got.len(), 29 + 11);
    assert!(got.contains(&"a1ad1".to_string()) && got.contains(&"a1a12".to_string()));
}

/// A move that a fused alternative (a slide, a leap) and a later one both
/// make is listed once: fused alternatives whose targets cannot meet skip
/// the search for duplicates, and the alternatives after them look for
/// duplicates among all the piece's moves.
#[test]
fn a_move_two_alternatives_make_is_listed_once() {
    let slide = ["d4d5", "d4d6", "d4d7", "d4d8"];
    for later in ["NNNN[@far]", "NNNN[e]", "NNNN", "N N N N[@far]"] {
        let game = lab(&format!("(N)([p]\\1)*; {later}"), "");
        assert_eq!(
            moves(&game, "8/8/8/8/3T4/8/8/8 w - - 0 1"),
            v(&slide),
            "(N)([p]\\1)*; {later}"
        );
    }
    // The same with the leap first and the slide after it.
    let game = lab("NNNN; (N)([p]\\1)*", "");
    assert_eq!(moves(&game, "8/8/8/8/3T4/8/8/8 w - - 0 1"), v(&slide));
}

/// Fused hoppers' lines and walks with zone tests give the moves the
/// interpreter gives for the same rules written so that they do not fuse
/// (the screen's test in a group; the first step bound to a variable), in
/// random positions of both sides' testers, stones and walkers.
#[test]
fn fused_lines_and_zone_walks_move_as_interpreted() {
    let not_walker = "[handlers]\n2 = \"not_piece:Walker\"";
    let pairs = [
        (
            r"(+)([p]\1)*[P]\1([p]\1)*[e]",
            r"(+)([p]\1)*([P])\1([p]\1)*[e]",
            "",
        ),
        (
            r"(+)([p]\1)*[P]\1([p]\1)*[p]",
            r"(+)([p]\1)*([P])\1([p]\1)*[p]",
            "",
        ),
        (
            r"(X)([p]\1)*[2]\1([p]\1)*[e2]; (+)([p]\1)*[2]\1([p]\1)*[p]",
            r"(X)([p]\1)*([2])\1([p]\1)*[e2]; (+)([p]\1)*([2])\1([p]\1)*[p]",
            not_walker,
        ),
        (
            "+[@far]; [@far]X; N[@far]N",
            "(+)[@far]; [@far](X); (N)[@far]N",
            "",
        ),
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for (fused, interpreted, extra) in pairs {
        let (a, b) = (lab(fused, extra), lab(interpreted, extra));
        for _ in 0..200 {
            let mut board = [' '; 64];
            for piece in ['T', 't', 'S', 's', 'W', 'w', 'T', 't'] {
                board[next(64) as usize] = piece;
            }
            let rows: Vec<String> = board
                .chunks(8)
                .map(|row| {
                    let mut text = String::new();
                    let mut gap = 0;
                    for &c in row {
                        if c == ' ' {
                            gap += 1;
                            continue;
                        }
                        if gap > 0 {
                            text.push_str(&gap.to_string());
                        }
                        gap = 0;
                        text.push(c);
                    }
                    if gap > 0 {
                        text.push_str(&gap.to_string());
                    }
                    text
                })
                .collect();
            for side in ["w", "b"] {
                let fen = format!("{} {side}", rows.join("/"));
                assert_eq!(moves(&a, &fen), moves(&b, &fen), "{fused} in {fen}");
            }
        }
    }
}

/// The cannons' lines and the palace moves of janggi are fused: the
/// interpreter does not run for them.
#[test]
fn cannons_and_palace_steps_fuse() {
    use dagaz::notation::Op;
    let janggi = dagaz::load::load_game("janggi").unwrap();
    for player in 0..2 {
        let program = |name: &str| {
            let t = janggi.piece_by_name(name).unwrap();
            &janggi.pieces[t as usize].programs[player]
        };
        let hops = program("Cannon").kernel.iter();
        assert_eq!(hops.filter(|op| matches!(op, Op::Hop { .. })).count(), 2);
        let guard = program("Guard");
        assert!(guard.split && guard.rest.is_empty() && guard.kernel.len() == 3);
        // Its pass too, a step there and back.
        let general = program("General");
        assert!(general.split && general.rest.is_empty() && general.kernel.len() == 4);
    }
}
