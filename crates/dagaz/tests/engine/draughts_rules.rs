//! Draughts rules on positions: move text with square numbers, crowning
//! during a capture (Russian), men's directions (English), PDN positions,
//! and Stavropol checkers.

use crate::common;

use common::{moves, v};
use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::Generator;

#[test]
fn pdn_positions_round_trip() {
    let game = load_game("russian-draughts").unwrap();
    let pos = game.parse_position("W:W21-32:B1-12").unwrap();
    assert_eq!(
        game.write_position(&pos),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let pos = game.parse_position("B:WK5,22:B18").unwrap();
    assert_eq!(game.write_position(&pos), "B:WK5,22:B18");
    assert!(game.parse_position("W:W33").is_err());
    assert!(game.parse_position("X:W1").is_err());
    assert!(game.parse_position("W:W1:B1").is_err());
}

#[test]
fn english_men_step_and_capture_forward_only() {
    let game = load_game("checkers").unwrap();
    // White man on 18 with black men on 14 (ahead) and 22 (behind).
    assert_eq!(moves(&game, "W:W18:B14,22"), v(&["18x9"]));
    // A king steps one square and captures backward too.
    assert_eq!(moves(&game, "W:WK18:B22"), v(&["18x25"]));
}

#[test]
fn russian_man_crowned_during_a_capture_goes_on_as_a_king() {
    // The man on 9 takes 6, is crowned on 2, and flies over 16 to 20.
    let game = load_game("russian-draughts").unwrap();
    assert_eq!(moves(&game, "W:W9:B6,16"), v(&["9x2x20"]));
    // International draughts: a man passing the far row in a capture stays
    // a man (13 takes 8, touches 2, takes 7 and ends on 11: no crown)...
    let intl = load_game("international-draughts").unwrap();
    assert_eq!(moves(&intl, "W:W13:B7,8"), v(&["13x2x11"]));
    // ...and is crowned when the move ends there.
    assert_eq!(moves(&intl, "W:W12:B7,18"), v(&["12x1k", "12x23"]));
}

#[test]
fn russian_king_must_land_where_it_can_go_on() {
    // The king on 29 takes 25 and may land on 22, 18, 15, 11, 8 or 4; only
    // from 15 can it take 6 next, so it must land there.
    let game = load_game("russian-draughts").unwrap();
    assert_eq!(moves(&game, "W:WK29:B25,6"), v(&["29x15x1"]));
    // With nothing more to take, every landing square is allowed.
    assert_eq!(
        moves(&game, "W:WK29:B25"),
        v(&["29x22", "29x18", "29x15", "29x11", "29x8", "29x4"])
    );
}

#[test]
fn stavropol_moves_either_colour() {
    let game = load_game("stavropol-checkers").unwrap();
    let initial = game.write_position(&game.initial_position());
    assert_eq!(moves(&game, &initial).len(), 14);
    // The only capture is Black's man taking White's: White must make it.
    assert_eq!(moves(&game, "W:W22:B15,18"), v(&["18x25"]));
}

#[test]
fn stavropol_is_lost_when_your_colour_cannot_move() {
    let game = load_game("stavropol-checkers").unwrap();
    let mut pos = game.parse_position("W:W:B12").unwrap();
    let result = Generator::new().result(&game, &mut pos).unwrap();
    assert!(
        matches!(result, Some(GameResult::Win { winner: 1, .. })),
        "{result:?}"
    );
    let mut pos = game.parse_position("W:W30:B12").unwrap();
    assert_eq!(Generator::new().result(&game, &mut pos).unwrap(), None);
}

#[test]
fn czech_a_kings_capture_comes_before_a_mans() {
    let game = load_game("czech-draughts").unwrap();
    // The man on 22 could take 18, the king on 31 takes 27: only the
    // king's captures are legal (Russian draughts would allow both).
    assert_eq!(moves(&game, "W:W22,K31:B18,27"), v(&["31x20", "31x24"]));
    // Without a king's capture, the man must capture (forward only).
    assert_eq!(moves(&game, "W:W22,K29:B18"), v(&["22x15"]));
    assert_eq!(moves(&game, "W:W22:B26"), v(&["22-17", "22-18"]));
}

#[test]
fn spanish_quantity_then_quality() {
    let game = load_game("spanish-draughts").unwrap();
    let source = include_str!("../../../../games/spanish-draughts.toml");
    let quantity_only = source.replace("[\"pieces\", \"most:King\"]", "\"pieces\"");
    let quantity_only = dagaz::load::load_str(&quantity_only, "spanish.toml", "spanish").unwrap();
    // Two captures take two pieces each; one of them takes the king on 11.
    let fen = "W:W6:B10,K11,18,19";
    assert_eq!(moves(&quantity_only, fen), v(&["6x13x22", "6x15x22"]));
    assert_eq!(moves(&game, fen), v(&["6x15x22"]));
}

#[test]
fn italian_men_cannot_take_kings_and_kings_step_one_square() {
    let game = load_game("italian-draughts").unwrap();
    // The white man on 22 (d3) faces a black king on 18 (c4), b5 behind it
    // empty: no capture; a black man there is taken.
    assert_eq!(moves(&game, "W:W22:BK18"), v(&["22-19"]));
    assert_eq!(moves(&game, "W:W22:B18"), v(&["22x13"]));
    // A king steps one square (from 30, d1: c2 and e2).
    assert_eq!(moves(&game, "W:WK30:B1"), v(&["30-26", "30-27"]));
}

#[test]
fn italian_capture_precedences_in_order() {
    let game = load_game("italian-draughts").unwrap();
    // One piece either way: the king's capture (30x23) before the man's.
    assert_eq!(moves(&game, "W:W22,K30:B18,27"), v(&["30x23"]));
    // One piece either way, by the king: the black king (26) before the man.
    assert_eq!(moves(&game, "W:WK30:BK26,27"), v(&["30x21"]));
    // Two pieces either way, one of them a king: the king taken first
    // (26 then 18) before the king taken second (27 then 20).
    assert_eq!(moves(&game, "W:WK30:BK26,18,27,K20"), v(&["30x21x14"]));
    // More pieces before everything else: the man's double capture.
    assert_eq!(moves(&game, "W:W22,K30:B18,10,27"), v(&["22x13x6"]));
}

#[test]
fn thai_kings_land_just_behind_and_any_capture_may_be_chosen() {
    let game = load_game("thai-draughts").unwrap();
    // A king (a1) takes the man on d4 from afar and lands on e5 only.
    assert_eq!(moves(&game, "W:WK29:B18"), v(&["29x15"]));
    // One piece or two: both captures are legal.
    assert_eq!(moves(&game, "W:W22:B17,18,11"), v(&["22x13", "22x15x8"]));
    // Taken pieces go at once: the king turns back over the square of
    // the piece it took (e5, then b2; or b2, then e5).
    assert_eq!(moves(&game, "W:WK22:B15,25"), v(&["22x11x29", "22x29x11"]));
    // Men capture forward only.
    assert_eq!(moves(&game, "W:W18:B22"), v(&["18-14", "18-15"]));
    // The traditional setup: eight men a side.
    let start = game.initial_position();
    assert_eq!(
        game.write_position(&start),
        "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8"
    );
}

#[test]
fn killer_kings_stop_behind_a_king_taken_last() {
    let international = load_game("international-draughts").unwrap();
    let killer = load_game("international-draughts:killer").unwrap();
    let anywhere = v(&["46x10", "46x14", "46x19", "46x23", "46x28", "46x5"]);
    // A king on a1 (46) takes the king on d4 (32): in Killer draughts it
    // stops on e5 (28); a man taken is passed as in international draughts.
    assert_eq!(moves(&international, "W:WK46:BK32"), anywhere);
    assert_eq!(moves(&killer, "W:WK46:BK32"), v(&["46x28"]));
    assert_eq!(moves(&killer, "W:WK46:B32"), anywhere);
    // Only the last piece counts: a king taken first leaves the landing
    // after the man taken next free.
    assert_eq!(
        moves(&killer, "W:WK46:BK32,17"),
        v(&["46x28x11", "46x28x6"])
    );
    assert_eq!(moves(&killer, "W:WK46:B32,K19"), v(&["46x23x14"]));
}

#[test]
fn frisian_orthogonal_captures_and_the_most_valuable_capture() {
    let game = load_game("frisian-draughts").unwrap();
    // A man on 33 (f4) captures along its column (f6, landing on f8) and
    // its row (h4, landing on j4).
    assert_eq!(moves(&game, "W:W33:B23"), v(&["33x13"]));
    assert_eq!(moves(&game, "W:W33:B34"), v(&["33x35"]));
    // Two men (worth 200) before a king (199); a king before one man.
    assert_eq!(moves(&game, "W:W33:B28,17,K34"), v(&["33x22x11"]));
    assert_eq!(moves(&game, "W:W33:B28,K34"), v(&["33x35"]));
    // A flying king's chain turns from a diagonal to a column.
    assert_eq!(
        moves(&game, "W:W33,K46:B34,41"),
        v(&["46x14x44", "46x23x40", "46x23x45"])
    );
    // The same value: the king captures (along the a-file), not the man.
    assert_eq!(
        moves(&game, "W:W33,K46:B36,34"),
        v(&["46x16", "46x26", "46x6"])
    );
}

#[test]
fn frisian_kings_make_three_quiet_moves_in_a_row_while_men_are_left() {
    let game = std::sync::Arc::new(load_game("frisian-draughts").unwrap());
    let play = |fen: &str, moves: &[&str]| {
        let start = game.parse_position(fen).unwrap();
        let mut session = dagaz::session::Session::from_position(game.clone(), start).unwrap();
        for text in moves {
            session.play_text(text).unwrap();
        }
        let mut legal = session.legal_texts().to_vec();
        legal.sort();
        legal
    };
    let king_thrice = ["46-41", "3-8", "41-46", "8-12", "46-41", "12-17"];
    // The king on 41 has moved three times: only the man on 31 moves.
    assert_eq!(play("W:WK46,31:B3", &king_thrice), v(&["31-26", "31-27"]));
    // Another piece's move in between starts the count again.
    let broken = ["46-41", "3-8", "31-26", "8-12", "41-46", "12-17"];
    assert!(play("W:WK46,31:B3", &broken).contains(&"46-41".to_string()));
    // With kings only, there is no limit.
    assert!(play("W:WK46,K49:B3", &king_thrice).contains(&"41-46".to_string()));
}

#[test]
fn dameo_lines_of_men_move_and_captures_go_along_lines() {
    let game = load_game("dameo").unwrap();
    // 52 first moves (PlayStrategy's Dameo tests): nine men can reach d4,
    // the whole line a1-b2-c3 among them.
    let start = moves(&game, &game.write_position(&game.initial_position()));
    assert_eq!(start.len(), 52);
    assert!(start.contains(&"a1d4".to_string()));
    // A line stops at an own king: the man on b1 cannot move.
    let blocked = moves(&game, "8/8/8/8/8/1M1K4/KKM5/1M6 w");
    assert!(!blocked.iter().any(|m| m.starts_with("b1")), "{blocked:?}");
    // A king and a man: 23 king moves, 3 man moves (PlayStrategy).
    assert_eq!(moves(&game, "8/5k2/8/6m1/3M4/8/2K5/8 w").len(), 26);
    // A man captures backwards too, passes the far row and stays a man.
    assert_eq!(
        moves(&game, "2m5/1m1m4/3M4/8/8/8/8/8 w"),
        v(&["d6xd8xb8xb6"])
    );
    let mut pos = game.parse_position("2m5/1m1m4/3M4/8/8/8/8/8 w").unwrap();
    let mut list = dagaz::position::MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    game.make(&mut pos, list.get(0));
    assert!(game.write_position(&pos).starts_with("8/8/1M6/8/8/8/8/8 b"));
    // Jumped pieces block until the move ends (three pieces, not four),
    // and a king lands anywhere beyond the last one.
    assert_eq!(
        moves(&game, "8/8/2m5/8/1m6/4mm2/8/4K3 w"),
        v(&["e1xe6xb6xb1", "e1xe6xb6xb2", "e1xe6xb6xb3"])
    );
    // ... but must stop where it can go on capturing.
    assert_eq!(
        moves(&game, "8/8/8/2m5/2Km4/4m3/8/8 w"),
        v(&["c4xe4xe1", "c4xe4xe2"])
    );
}

#[test]
fn italian_earliest_king_between_paths_of_the_same_pieces() {
    // Found by review: two kings can each take a loop of four pieces; the
    // king on 18 can meet the black king first, whichever way round the
    // loop it is met first (the path is the move's text).
    let game = load_game("italian-draughts").unwrap();
    assert_eq!(
        moves(&game, "W:WK18,K22:BK14,6,5,13,27,28,K20,19"),
        v(&["18x11x2x9x18"])
    );
    assert_eq!(
        moves(&game, "W:WK18,K22:BK13,6,5,14,27,28,K20,19"),
        v(&["18x9x2x11x18"])
    );
}

#[test]
fn capture_precedence_files_are_checked() {
    let source = include_str!("../../../../games/italian-draughts.toml");
    let two = source.replace("\"earliest:King\"]", "\"earliest:King\", \"earliest:Man\"]");
    let err = dagaz::load::load_str(&two, "it.toml", "it")
        .unwrap_err()
        .to_string();
    assert!(err.contains("at most one \"earliest:Piece\""), "{err}");
}
