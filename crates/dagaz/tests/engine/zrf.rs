//! Zillions of Games rule files (ZRF): the small fixtures of
//! `tests/data/zrf/`, written for these tests, converted by the importer and
//! played. Chess and English checkers written in ZRF give the published
//! perft counts; the constructs fixture has one piece per construct and
//! its moves worked out by hand; broken files give located errors.

use dagaz::game::Game;
use dagaz::import::zrf::{ZrfFile, convert};
use dagaz::load::load_str;
use dagaz::movegen::{Generator, perft};

use crate::common::{moves_in, play, v};

const CHESS: &str = include_str!("../data/zrf/chess.zrf");
const CHECKERS: &str = include_str!("../data/zrf/checkers.zrf");
const CONSTRUCTS: &str = include_str!("../data/zrf/constructs.zrf");
const CONSTRUCTS_MACROS: &str = include_str!("../data/zrf/constructs-macros.zrf");
const BROKEN: &str = include_str!("../data/zrf/broken.zrf");

/// The fixtures' included files.
fn include(name: &str) -> Option<String> {
    (name == "constructs-macros.zrf").then(|| CONSTRUCTS_MACROS.to_string())
}

/// Entry `index` of a ZRF text, converted and loaded.
fn game(name: &str, text: &str, index: usize) -> Game {
    let c = convert(name, text, index, &include).unwrap_or_else(|e| panic!("{e}"));
    load_str(&c.game, &format!("{name} (converted)"), name).unwrap_or_else(|e| panic!("{e}"))
}

/// Published counts of one position of a tab-separated file whose rows
/// start with `name`, up to `max_nodes`: (depth, nodes). Draughts rows
/// are those that count captures of the same pieces by other paths
/// ("keep"); both columns agree at these depths.
fn published(text: &str, name: &str, depth_col: usize, max_nodes: u64) -> Vec<(u32, u64)> {
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == name && f.get(5) != Some(&"drop"))
        .map(|f| {
            (
                f[depth_col].parse().unwrap(),
                f[depth_col + 1].parse().unwrap(),
            )
        })
        .filter(|r: &(u32, u128)| r.1 <= max_nodes as u128)
        .map(|(d, n)| (d, n as u64))
        .collect()
}

/// Perft from the setup equals each (depth, nodes).
fn check_counts(g: &Game, rows: &[(u32, u64)]) {
    for &(depth, nodes) in rows {
        let mut pos = g.initial_position();
        assert_eq!(perft(g, &mut pos, depth).unwrap(), nodes, "depth {depth}");
    }
}

#[test]
fn chess_in_zrf_gives_the_published_counts() {
    // Castling is left out of the fixture; it cannot happen before ply 7.
    let rows = published(
        include_str!("../data/chess-perft.tsv"),
        "initial",
        2,
        200_000,
    );
    assert_eq!(rows.len(), 4);
    check_counts(&game("chess.zrf", CHESS, 0), &rows);
}

#[test]
#[ignore = "larger count (run by .ci/run with --include-ignored)"]
fn chess_in_zrf_depth_five() {
    let rows = published(
        include_str!("../data/chess-perft.tsv"),
        "initial",
        2,
        5_000_000,
    );
    let (depth, nodes) = *rows.iter().find(|r| r.0 == 5).unwrap();
    let g = game("chess.zrf", CHESS, 0);
    let mut pos = g.initial_position();
    assert_eq!(perft(&g, &mut pos, depth).unwrap(), nodes);
}

#[test]
fn english_checkers_in_zrf_gives_the_published_counts() {
    // Partial moves (add-partial) for multiple jumps, move-priorities for
    // compulsory capture, crowning ending the move.
    let rows = published(
        include_str!("../data/draughts-perft.tsv"),
        "checkers-english",
        3,
        900_000,
    );
    assert_eq!(rows.len(), 8);
    check_counts(&game("checkers.zrf", CHECKERS, 0), &rows);
}

#[test]
fn a_multiple_jump_must_go_on_and_crowning_ends_it() {
    let g = game("checkers.zrf", CHECKERS, 0);
    // Black (the first player, upper case) on c3 takes d4, then f6: it may
    // not stop on e5, and must take rather than step.
    let mut pos = g.parse_position("8/8/5m2/8/3m4/2M5/8/8 w - - 0 1").unwrap();
    assert_eq!(moves_in(&g, &mut pos), ["c3xe5xg7"]);
    play(&g, &mut pos, "c3xe5xg7");
    assert_eq!(g.write_position(&pos), "8/6M1/8/8/8/8/8/8 b - - 0 1");
    // A man crowned by a capture stops there, a King.
    let mut pos = g.parse_position("8/2m5/1M6/8/8/8/8/8 w - - 0 1").unwrap();
    assert_eq!(moves_in(&g, &mut pos), ["b6d8k"]);
    play(&g, &mut pos, "b6d8k");
    assert_eq!(g.write_position(&pos), "3K4/8/8/8/8/8/8/8 b - - 0 1");
}

#[test]
fn every_construct_of_the_fixture_moves_as_worked_out_by_hand() {
    let g = game("constructs.zrf", CONSTRUCTS, 0);
    let mut pos = g.initial_position();
    let got = moves_in(&g, &mut pos);
    // Marker a2: north to a3 (mark), east to b3, back to a3, then the
    // included macros step east again: lands on b3. Creator b1 stays and
    // creates a Stone on b2; Flipper d3 turns d4's Stone; Flagger e2
    // cannot go east (no file there), so goes north; Thinker c3 goes north
    // (c4 empty, c2 taken). Stones drop on the 13 empty squares outside
    // White's home row (e5 is killed).
    let drops = [
        "a3", "a4", "a5", "b2", "b3", "b4", "b5", "c4", "c5", "d2", "d5", "e3", "e4",
    ];
    let mut want: Vec<String> = drops.iter().map(|s| format!("S*{s}")).collect();
    want.extend(v(&["a2b3", "b1b1", "c3c4", "d3d3", "e2e3"]));
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn create_and_change_owner_change_the_board() {
    let g = game("constructs.zrf", CONSTRUCTS, 0);
    let mut pos = g.initial_position();
    play(&g, &mut pos, "b1b1");
    let fen = g.write_position(&pos);
    // A White Stone on b2, the Creator still on b1.
    assert!(fen.starts_with("5/3s1/2TF1/MSs1L/1C3["), "{fen}");
    let mut pos = g.initial_position();
    play(&g, &mut pos, "d3d3");
    let fen = g.write_position(&pos);
    assert!(fen.starts_with("5/3S1/2TF1/M1s1L/1C3["), "{fen}");
}

#[test]
fn the_turn_order_and_the_goals_are_converted() {
    let g = game("constructs.zrf", CONSTRUCTS, 0);
    let mut pos = g.initial_position();
    // White, White, Black, then White and Black in turn.
    play(&g, &mut pos, "e2e3");
    let second = moves_in(&g, &mut pos);
    assert!(
        second.iter().any(|m| m == "c3c4"),
        "White moves again: {second:?}"
    );
    play(&g, &mut pos, "c3c4");
    let third = moves_in(&g, &mut pos);
    assert!(
        third.iter().all(|m| m.starts_with("S*")),
        "Black: {third:?}"
    );
    // The Marker reaching a5 or b5 wins for White.
    let mut generator = Generator::new();
    let mut pos = g.initial_position();
    assert_eq!(generator.result(&g, &mut pos).unwrap(), None);
    let mut pos = g
        .parse_position("M4/3s1/2TF1/2s1L/1C3[2S25s] b - - 0 1")
        .unwrap();
    let result = generator.result(&g, &mut pos).unwrap();
    assert_eq!(
        format!("{result:?}"),
        r#"Some(Win { winner: 0, reason: "reached goal2" })"#
    );
}

#[test]
fn a_variant_keeps_the_game_and_replaces_its_setup() {
    let file = ZrfFile::read("chess.zrf", CHESS, &include).unwrap();
    let titles: Vec<String> = file.entries().iter().map(|e| e.to_string()).collect();
    // The "-" variant is a menu separator, not a game.
    assert_eq!(titles, ["0: Test chess", "2: Pawns and kings"]);
    let g = game("chess.zrf", CHESS, 2);
    let mut pos = g.initial_position();
    // Three pawns with single and double steps, five king moves.
    assert_eq!(moves_in(&g, &mut pos).len(), 11);
    let err = ZrfFile::read("chess.zrf", CHESS, &include)
        .unwrap()
        .convert(1)
        .unwrap_err();
    assert!(err.to_string().contains("separator"), "{err}");
}

#[test]
fn the_goals_read_as_the_game_file_writes_them() {
    let c = convert("constructs.zrf", CONSTRUCTS, 0, &include).unwrap();
    let goals = c
        .game
        .lines()
        .find(|l| l.starts_with("goals = "))
        .unwrap_or_default();
    // absolute-config for White only, pieces-remaining for both, and a
    // count-condition: the player with the most pieces wins.
    assert_eq!(
        goals,
        r#"goals = ["White: reach goal2 Marker = win", "pieces == 0 = loss", "no_moves = most"]"#
    );
}

#[test]
fn unknown_options_are_warnings() {
    let c = convert("constructs.zrf", CONSTRUCTS, 0, &include).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("constructs.zrf:9:") && w.contains("a-rule-nobody-knows")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn errors_name_the_file_line_and_column() {
    let e = ZrfFile::read("bad.zrf", "(game (title \"x\")", &include)
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("bad.zrf:1:1"), "{e}");
    let e = convert("missing.zrf", "(include \"nowhere.zrf\")", 0, &include).unwrap_err();
    assert!(e.to_string().contains("missing.zrf:1:"), "{e}");
    assert!(e.to_string().contains("nowhere.zrf"), "{e}");
    // An unknown instruction in a macro is reported when the game loads.
    let c = convert("broken.zrf", BROKEN, 0, &include).unwrap();
    let e = load_str(&c.game, "broken.zrf (converted)", "broken").unwrap_err();
    assert!(e.to_string().contains("'teleport'"), "{e}");
    // The error names where the block was written, and the macro it came
    // through.
    assert!(
        e.to_string()
            .contains("written at broken.zrf:1:18, in macro 'bad-step' called at broken.zrf:6:28"),
        "{e}"
    );
}

#[test]
fn boards_of_positions_and_links_keep_their_names() {
    let text = include_str!("../data/zrf/boards.zrf");
    let g = game("boards.zrf", text, 0);
    assert_eq!(g.players.len(), 3);
    // Eight positions: five listed and a grid of three. z1 is killed, but
    // an explicit link still names it, so it stays (the Dagaz project
    // keeps reserve pieces so) with that link alone.
    assert_eq!(g.topology.len(), 8);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), ["top-centre"]);
    // 'lost' has no links left (unlink lost), its link down included.
    let mut pos = g.parse_position("2,rR,1,rR/gR,2,bR,1/bR,gR,3 r").unwrap();
    assert_eq!(moves_in(&g, &mut pos), ["top-centre"]);
    // Green goes across; x1 no longer links east to y1 (unlink (x1 y1)),
    // and y1's east neighbour was killed.
    let mut pos = g.parse_position("2,rR,2/gR,3,1/bR,gR,3 g").unwrap();
    assert_eq!(moves_in(&g, &mut pos), ["left-centre"]);
    let mut pos = g.parse_position("2,rR,2/gR,3,1/bR,gR,3 b").unwrap();
    assert!(moves_in(&g, &mut pos).is_empty());
    // Blue holds two Stones: the hand is written player by player.
    let start = g.write_position(&g.initial_position());
    assert!(start.contains("[2bS]"), "{start}");
    let mut pos = g.parse_position("2,rR,2/gR,3,1/bR,gR,3[2bS] b").unwrap();
    let drops = moves_in(&g, &mut pos);
    assert_eq!(drops.len(), 4, "{drops:?}");
    assert!(drops.iter().all(|m| m.starts_with("S*")), "{drops:?}");
    // From the killed z1 only its explicit link leads anywhere.
    let mut pos = g.parse_position("5/gR,2,bR,1/bR,gR,rR,2 r").unwrap();
    assert_eq!(moves_in(&g, &mut pos), ["z1-top"]);
}

#[test]
fn a_piece_promoted_in_the_middle_of_a_move_goes_on_as_its_new_type() {
    // A man that reaches the far row by a jump becomes a King and goes on
    // jumping with the King's blocks (backwards too), as Russian draughts
    // has it.
    let text = r#"
(define man-jump ($1 (verify enemy?) capture $1 (verify empty?)
                  (if (in-zone? crown) (add-partial King jumps) else (add-partial jumps))))
(define king-jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumps)))
(game
  (title "Crowned in passing")
  (players White Black)
  (turn-order White Black)
  (board
    (grid (dimensions ("a/b/c/d/e" (50 0)) ("5/4/3/2/1" (0 50)))
          (directions (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
    (zone (name crown) (players White) (positions a5 b5 c5 d5 e5)))
  (board-setup (White (Man a3)) (Black (Man b4 d4)))
  (piece (name Man) (moves (move-type jumps) (man-jump ne) (man-jump nw)))
  (piece (name King) (moves (move-type jumps) (king-jump ne) (king-jump nw)
                                             (king-jump se) (king-jump sw)))
  (loss-condition (White Black) stalemated))
"#;
    let g = game("crowned.zrf", text, 0);
    let mut pos = g.initial_position();
    // a3 takes b4 to c5 (crowned), then as a King takes d4 to e3.
    assert_eq!(moves_in(&g, &mut pos), ["a3xc5xe3k"]);
}

#[test]
fn cascade_without_to_hands_the_move_on_to_the_piece_there() {
    // A man steps onto a line of friends; each cascade lands the moving
    // man and picks up the one that stood there, and the last one steps
    // onto the empty square: the line moves one square forwards.
    let text = r#"
(game
  (title "Shift")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a" (50 0)) ("5/4/3/2/1" (0 50))) (directions (n 0 -1))))
  (piece (name Man) (moves (n (while friend? cascade n) (verify empty?) add)))
  (board-setup (White (Man a1 a2 a3)) (Black (Man a5)))
  (loss-condition (White Black) stalemated))
"#;
    let g = game("shift.zrf", text, 0);
    let mut pos = g.initial_position();
    let moves = moves_in(&g, &mut pos);
    assert_eq!(moves.len(), 3, "{moves:?}");
    let shift = moves.iter().find(|m| m.starts_with("a1")).unwrap().clone();
    play(&g, &mut pos, &shift);
    assert!(
        g.write_position(&pos).starts_with("m/M/M/M/1 "),
        "{}",
        g.write_position(&pos)
    );
}

#[test]
fn malformed_files_are_errors_not_crashes() {
    let board = r#"(board (grid (dimensions ("a/b" (1 0)) ("2/1" (0 1))) (directions (n 0 -1))))"#;
    let cases = [
        // A string where an instruction belongs.
        format!(r#"(game (players A B) {board} (piece (name M) (moves (n "x" add))) (board-setup (A (M a1)) (B (M b2))))"#),
        format!(r#"(game (players A B) {board} (piece (name M) (moves ("x" add))) (board-setup (A (M a1)) (B (M b2))))"#),
        // Every position killed.
        "(game (players A B) (board (positions (a 0 0 9 9)) (kill-positions a)))".to_string(),
        // A macro whose argument doubles at every call.
        "(define d (d ($1 $1))) (game (d x))".to_string(),
        // Lists nested past reason.
        format!("{}{}", "(".repeat(100_000), ")".repeat(100_000)),
        // Coordinates that overflow.
        "(game (players A B) (board (grid (dimensions (\"a/b/c\" (9223372036854775807 0)) (\"1\" (0 1))) (directions (e 9223372036854775807 0)))))".to_string(),
        // A grid too large.
        format!("(game (players A B) (board (grid (dimensions (\"{}\" (1 0)) (\"{}\" (0 1))))))", vec!["a"; 200].join("/"), vec!["1"; 200].join("/")),
        // Two pieces of one name.
        format!("(define p (piece (name P))) (game (players A B) {board} {})", "(p) ".repeat(28)),
    ];
    for text in cases {
        let result = convert("bad.zrf", &text, 0, &include)
            .map_err(|e| e.to_string())
            .and_then(|c| {
                load_str(&c.game, "bad.zrf (converted)", "bad").map_err(|e| e.to_string())
            });
        let e = result
            .err()
            .unwrap_or_else(|| panic!("accepted: {}", &text[..text.len().min(80)]));
        assert!(e.contains("bad.zrf"), "{e}");
    }
}

#[test]
fn shared_pieces_let_a_player_move_the_others_pieces() {
    // A puzzle: You moves White's and Black's pieces (Chess Swappers).
    let text = r#"
(game
  (title "Swap")
  (option "shared pieces" true)
  (players White Black You)
  (turn-order You)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves (e (verify empty?) add) (w (verify empty?) add)))
  (board-setup (White (Man a1)) (Black (Man c1))))
"#;
    let g = game("swap.zrf", text, 0);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), ["a1b1", "c1b1"]);
}

#[test]
fn a_block_sees_its_own_piece_on_its_start_square() {
    // Light Off: a light turns dark where it stands; the block first checks
    // that its square is not empty, which it is not until the move is made.
    let text = r#"
(game
  (title "Lights")
  (players You)
  (turn-order You)
  (board (grid (dimensions ("a/b" (50 0)) ("1" (0 50))) (directions (e 1 0))))
  (piece (name Light) (moves ((verify not-empty?) (verify friend?) (add Dark))))
  (piece (name Dark))
  (board-setup (You (Light a1))))
"#;
    let g = game("lights.zrf", text, 0);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), ["a1a1d"]);
}

#[test]
fn the_ko_option_is_the_ko_rule() {
    // One Man each on a strip; going back would bring back the start.
    let text = |ko: &str| {
        format!(
            r#"
(game
  (title "Strip")
  (option "ko" {ko})
  (option "shared pieces" true)
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves (e (verify empty?) add) (w (verify empty?) add)))
  (board-setup (White (Man a1))))
"#
        )
    };
    let after_one = |ko: &str| {
        let g = game("strip.zrf", &text(ko), 0);
        let mut pos = g.initial_position();
        play(&g, &mut pos, "a1b1");
        moves_in(&g, &mut pos)
    };
    assert_eq!(after_one("situation"), v(&["b1c1"]));
    assert_eq!(after_one("true"), v(&["b1a1", "b1c1"]));
    assert_eq!(after_one("false"), v(&["b1a1", "b1c1"]));
    let c = convert("strip.zrf", &text("situation"), 0, &include).unwrap();
    assert!(c.game.contains(r#"ko = "situation""#), "{}", c.game);
    let c = convert("strip.zrf", &text("true"), 0, &include).unwrap();
    assert!(c.game.contains(r#"ko = "simple""#), "{}", c.game);
    assert!(
        c.warnings.iter().all(|w| !w.contains("'ko'")),
        "{:?}",
        c.warnings
    );
}

/// The drops of a White Chip whose drop blocks are `blocks`, on an empty
/// 3x3 board (files a-c, ranks 1-3, `n` towards rank 3).
fn chip_drops(blocks: &str) -> Vec<String> {
    let text = format!(
        r#"
(game
  (title "Drops")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
               (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name Chip) (drops {blocks}))
  (board-setup (White (Chip off 3)) (Black (Chip off 3))))
"#
    );
    let g = game("drops.zrf", &text, 0);
    let mut pos = g.initial_position();
    moves_in(&g, &mut pos)
}

#[test]
fn flags_take_conditions_and_position_flags_belong_to_squares() {
    // A flag set to a condition's value where it is set.
    assert_eq!(
        chip_drops("((set-flag f (position? b2)) (if (flag? f) e add))"),
        v(&["C*c2"])
    );
    assert_eq!(
        chip_drops("((set-flag f (not-position? b2)) e (if (not-flag? f) add))"),
        v(&["C*c2"])
    );
    // A position flag stays on the square it was set on.
    assert_eq!(
        chip_drops("((set-position-flag f true) e (if (position-flag? f w) add))"),
        v(&["C*b1", "C*b2", "C*b3", "C*c1", "C*c2", "C*c3"])
    );
    assert_eq!(
        chip_drops("((set-position-flag f (position? b2)) e (if (position-flag? f w) add))"),
        v(&["C*c2"])
    );
    // Set on a named square, asked here.
    assert_eq!(
        chip_drops("((set-position-flag f true c3) (if (not-position-flag? f) add))"),
        v(&[
            "C*a1", "C*a2", "C*a3", "C*b1", "C*b2", "C*b3", "C*c1", "C*c2"
        ])
    );
    // Flags and position flags are two namespaces.
    assert!(chip_drops("((set-flag f true) (if (position-flag? f) add))").is_empty());
    // A failed block's flags are gone when the next block runs.
    assert!(
        chip_drops("((set-position-flag f true) (verify false)) ((if (position-flag? f) add))")
            .is_empty()
    );
}

const LINES: &str = r#"
(define add-to-empty ((verify empty?) add))
(game
  (title "Lines")
  (players X O)
  (turn-order X O)
  (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
               (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
  (piece (name man) (drops (add-to-empty)))
  (board-setup (X (man off 5)) (O (man off 5)))
  (draw-condition (X O) stalemated)
  (win-condition (X O)
    (or (relative-config man n man n man)
        (relative-config man e man e man)
        (relative-config man ne man ne man)
        (relative-config man nw man nw man))))
(variant
  (title "Four pieces")
  (draw-condition (X O) (total-piece-count 4)))
"#;

/// The result after playing `moves` in entry `index` of [`LINES`].
fn lines_result(index: usize, moves: &[&str]) -> Option<dagaz::game::GameResult> {
    let g = game("lines.zrf", LINES, index);
    let mut pos = g.initial_position();
    for m in moves {
        play(&g, &mut pos, m);
    }
    Generator::new().result(&g, &mut pos).unwrap()
}

#[test]
fn relative_configs_and_total_piece_counts_end_games() {
    use dagaz::game::GameResult;
    let win = |r: Option<GameResult>| match r {
        Some(GameResult::Win { winner, .. }) => Some(winner),
        _ => None,
    };
    // A file (n n), a rank (e e) and both diagonals, each for either side.
    assert_eq!(
        win(lines_result(0, &["M*a1", "M*b1", "M*a2", "M*b2", "M*a3"])),
        Some(0)
    );
    assert_eq!(
        win(lines_result(
            0,
            &["M*a1", "M*a2", "M*b1", "M*b2", "M*c3", "M*c2"]
        )),
        Some(1)
    );
    assert_eq!(
        win(lines_result(0, &["M*a1", "M*a2", "M*b2", "M*b1", "M*c3"])),
        Some(0)
    );
    assert_eq!(
        win(lines_result(0, &["M*c1", "M*a2", "M*b2", "M*b1", "M*a3"])),
        Some(0)
    );
    // Two in a row, or three not in a row, is no win.
    assert_eq!(lines_result(0, &["M*a1", "M*b1", "M*a2", "M*b2"]), None);
    assert_eq!(
        lines_result(0, &["M*a1", "M*b1", "M*c2", "M*b2", "M*a3"]),
        None
    );
    // The variant: drawn when four pieces stand on the board, whoever's.
    assert_eq!(lines_result(1, &["M*a1", "M*b1", "M*c2"]), None);
    assert!(matches!(
        lines_result(1, &["M*a1", "M*b1", "M*c2", "M*b3"]),
        Some(GameResult::Draw { .. })
    ));
}

const ATTRIBUTES: &str = r#"
(define step ($1 (verify empty?) (set-attribute never-moved? false) add))
(game
  (title "Attributes")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c/d/e" (50 0)) ("2/1" (0 50)))
               (directions (e 1 0) (w -1 0))))
  (piece (name King)
    (attribute never-moved? true)
    (moves (step e) (step w)
           ((verify never-moved?) e (verify empty?) e (verify empty?) add)))
  (board-setup (White (King a1)) (Black (King a2))))
"#;

#[test]
fn attributes_travel_with_their_pieces() {
    let g = game("attributes.zrf", ATTRIBUTES, 0);
    let mut pos = g.initial_position();
    let start = pos.hash();
    // Never moved: the King may also leap two squares.
    assert_eq!(moves_in(&g, &mut pos), v(&["a1b1", "a1c1"]));
    play(&g, &mut pos, "a1b1");
    assert_eq!(moves_in(&g, &mut pos), v(&["a2b2", "a2c2"]));
    play(&g, &mut pos, "a2b2");
    assert_eq!(moves_in(&g, &mut pos), v(&["b1a1", "b1c1"]));
    play(&g, &mut pos, "b1a1");
    play(&g, &mut pos, "b2a2");
    // The same squares as at the start, but both Kings have moved.
    assert_eq!(moves_in(&g, &mut pos), v(&["a1b1"]));
    assert_ne!(pos.hash(), start);
    assert_eq!(pos.repetitions(), 0);
}

#[test]
fn attributes_take_conditions_and_positions() {
    // The attribute tested on another square, and set from a condition.
    let text = ATTRIBUTES
        .replace(
            "(set-attribute never-moved? false)",
            "(set-attribute never-moved? (position? b1))",
        )
        .replace(
            "((verify never-moved?) e",
            "(e (verify (never-moved? w)) (verify empty?) add) ((verify never-moved?) e",
        );
    let g = game("attributes.zrf", &text, 0);
    let mut pos = g.initial_position();
    play(&g, &mut pos, "a1b1");
    play(&g, &mut pos, "a2b2");
    // Landing on b1 kept the attribute true: the leap is still there, and
    // the step that asks the square behind it, where the King stands. Its
    // c1 keeps the attribute, the plain step's c1 clears it: two moves.
    assert_eq!(
        moves_in(&g, &mut pos),
        v(&["b1a1", "b1c1", "b1c1#2", "b1d1"])
    );
    // An attribute nobody has is an error where it is set.
    let bad = ATTRIBUTES.replace(
        "(set-attribute never-moved? false)",
        "(set-attribute ghost? false)",
    );
    let c = convert("bad.zrf", &bad, 0, &include).unwrap();
    let e = load_str(&c.game, "bad.zrf (converted)", "bad").unwrap_err();
    assert!(
        e.to_string()
            .contains("no piece of the game has this attribute"),
        "{e}"
    );
}

#[test]
fn add_copy_leaves_the_piece_where_it_was() {
    let text = r#"
(game
  (title "Copies")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name Cell) (moves (e (verify empty?) add-copy) (e e (verify empty?) (add-copy Spore))))
  (piece (name Spore))
  (board-setup (White (Cell a1)) (Black (Spore c1))))
"#;
    let g = game("copies.zrf", text, 0);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), v(&["a1b1"]));
    play(&g, &mut pos, "a1b1");
    // Both the Cell and its copy are on the board.
    assert!(
        g.write_position(&pos).starts_with("CCs "),
        "{}",
        g.write_position(&pos)
    );
}

#[test]
fn attributes_that_are_not_true_or_false_are_warnings() {
    // Dagaz's JavaScript reads numbers kept as attributes (Pasang's weights).
    let text = ATTRIBUTES.replace(
        "(attribute never-moved? true)",
        "(attribute never-moved? true) (attribute weight 7)",
    );
    let c = convert("weights.zrf", &text, 0, &include).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("attribute 'weight' is not true or false")),
        "{:?}",
        c.warnings
    );
    assert!(!c.game.contains("weight ="), "{}", c.game);
}

#[test]
fn add_copy_changes_type_fails_on_a_taken_square_and_drops_as_add() {
    // The copy of a piece that turns into a Spore stays a Cell; a block
    // that fills its own start square first cannot leave a copy there.
    let text = r#"
(game
  (title "Copies")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name Cell)
    (moves (e (verify empty?) (add-copy Spore))
           (e (verify empty?) (create Spore a1) add-copy)))
  (piece (name Spore) (drops ((verify empty?) add-copy)))
  (board-setup (White (Cell a1) (Spore off 1)) (Black (Spore c1))))
"#;
    let g = game("copies.zrf", text, 0);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), v(&["S*b1", "a1b1s"]));
    play(&g, &mut pos, "a1b1s");
    assert!(
        g.write_position(&pos).starts_with("CSs"),
        "{}",
        g.write_position(&pos)
    );
}

#[test]
fn negated_attributes_need_no_question_mark() {
    let text = ATTRIBUTES
        .replace("never-moved?", "fresh")
        .replace("(verify fresh) e", "(verify (not not-fresh)) e");
    let g = game("attributes.zrf", &text, 0);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), v(&["a1b1", "a1c1"]));
    // Asked of the start square after the cursor has left it.
    let text = text.replace("(verify (not not-fresh)) e", "e (verify (fresh from))");
    let g = game("attributes.zrf", &text, 0);
    let mut pos = g.initial_position();
    assert_eq!(moves_in(&g, &mut pos), v(&["a1b1", "a1c1"]));
}

#[test]
fn a_player_stalemated_on_its_second_turn_loses() {
    // White moves twice, then Black twice: White's first step leaves its
    // Man against Black's, and White has no second move.
    let text = r#"
(game
  (title "Twice")
  (players White Black)
  (turn-order White White Black Black)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves (e (verify empty?) add)))
  (board-setup (White (Man a1)) (Black (Man c1)))
  (loss-condition (White Black) stalemated))
"#;
    let g = game("twice.zrf", text, 0);
    let mut pos = g.initial_position();
    play(&g, &mut pos, "a1b1");
    let result = Generator::new().result(&g, &mut pos).unwrap();
    assert!(
        matches!(result, Some(dagaz::game::GameResult::Win { winner: 1, .. })),
        "{result:?}"
    );
}
