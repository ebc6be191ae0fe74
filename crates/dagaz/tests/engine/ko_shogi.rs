//! Ko shogi (`games/ko-shogi.toml`): the setup, the first moves worked out
//! by hand, and one position per special rule (shooting, immunities,
//! double moves, Thunderclap and Roaming assault, burning, promotion by
//! capture and with the Clerk, demotion, pawns without their Drum, the
//! win). Positions are built from a list of pieces on an empty 19x19
//! board; both Generals stand on their home points (10s, 10a) unless a
//! test needs them elsewhere.

use crate::common::{self, moves, moves_from, play, v};
use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft_with};

fn ko() -> Game {
    load_game("ko-shogi").unwrap()
}

/// An SFEN of the pieces given as (square, symbol), upper case for Black,
/// with `side` to move.
fn fen(pieces: &[(&str, &str)], side: &str) -> String {
    common::placed(&ko(), pieces, side)
}

/// The same with both Generals at home.
fn with_generals(pieces: &[(&str, &str)], side: &str) -> String {
    let mut all = vec![("10s", "K"), ("10a", "k")];
    all.extend_from_slice(pieces);
    fen(&all, side)
}

/// The moves of the piece on `from` in a position of Black to move.
fn of(pieces: &[(&str, &str)], from: &str) -> Vec<String> {
    moves_from(&ko(), &with_generals(pieces, "b"), from)
}

/// The name of the piece on `sq` and its owner (0 Black, 1 White).
fn piece_on(game: &Game, pos: &dagaz::position::Position, sq: &str) -> Option<(String, usize)> {
    let cell = pos.cell(game.topology.square(sq).unwrap());
    if cell.is_empty() {
        return None;
    }
    let info = game.cells.info(cell);
    Some((
        game.pieces[info.piece as usize].name.clone(),
        info.owner as usize,
    ))
}

#[test]
fn the_setup_is_point_symmetric_with_wks_counts() {
    let game = ko();
    let pos = game.initial_position();
    let mut counts = [
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::new(),
    ];
    for file in 1..=19 {
        for rank in b'a'..=b's' {
            let sq = format!("{file}{}", rank as char);
            let turned = format!("{}{}", 20 - file, (b's' - (rank - b'a')) as char);
            let here = piece_on(&game, &pos, &sq);
            let there = piece_on(&game, &pos, &turned);
            assert_eq!(
                here.clone().map(|(n, o)| (n, 1 - o)),
                there,
                "{sq} and {turned}"
            );
            if let Some((name, owner)) = here {
                *counts[owner].entry(name).or_insert(0) += 1;
            }
        }
    }
    for side in &counts {
        assert_eq!(side.values().sum::<i32>(), 90);
        assert_eq!(side.len(), 34);
        assert_eq!(side["Pawn"], 6);
        assert_eq!(side["PatrolUnit"], 3);
        assert_eq!(side["Elephant"], 6);
        assert_eq!(side["Cavalryman"], 8);
        assert_eq!(side["Chariot"], 8);
    }
    // K3's orientation: the monk second from Black's left, the priest
    // second from its right; Clerk left of the General; Drum left of the
    // Middle troop.
    assert_eq!(piece_on(&game, &pos, "18s").unwrap().0, "SpiritualMonk");
    assert_eq!(piece_on(&game, &pos, "2s").unwrap().0, "TaoistPriest");
    assert_eq!(piece_on(&game, &pos, "11s").unwrap().0, "Clerk");
    assert_eq!(piece_on(&game, &pos, "9s").unwrap().0, "StaffOfficer");
    assert_eq!(piece_on(&game, &pos, "11r").unwrap().0, "Drum");
    assert_eq!(piece_on(&game, &pos, "9r").unwrap().0, "Banner");
}

#[test]
fn two_hundred_twenty_three_first_moves() {
    // Black's pieces, rank by rank (files 19 to 1 from Black's left;
    // rank 7 = row m, rank 1 = row s). Rows m to g are empty but for the
    // two Vanguards on file 10.
    //
    // Vanguard 10m: up to 5 forward, 10l-10h (White's Vanguard on 10g is
    // 6 away): 5.
    // Rank 6 (row n): the Chariot units on 19n and 1n slide forward over
    // 7 empty points and take White's Chariot unit on 19f/1f, entering
    // the zone (promote or not: 2), and step back to the empty 19o/1o:
    // 7 + 2 + 1 = 10 each, 20. Shield units 18n, 10n, 2n: no sideways
    // room; the four diagonal points are empty: 4 each, 12. Chariots
    // (17n ... 3n, 8 of them): 5 forward, 1 back (the Cavalrymen stand
    // two back), none sideways: 6 each, 48. Shields (16n ... 4n, 6): the
    // four diagonal points: 4 each, 24. Rank 6: 104.
    // Rank 5 (row o): Patrol units 18o, 10o, 2o: forward blocked, one back
    // (rank 3 behind it), the two sideways points: 3 each, 9. Pawns (6):
    // forward blocked, back and the two sides: 3 each, 18. Rank 5: 27.
    // Rank 4 (row p): Cavalrymen 17p ... 3p (8): of the 8 knight points
    // only the two one rank up and two files aside are empty: 16. Cavalry
    // 19p and 1p: one knight point (17o, 3o); the second jump may only
    // come back (the points beyond are Black's own): a pass, one move
    // for both and for the Sumo wrestlers too: 1 + 1 + 1. Rank 4: 19.
    // Rank 3 (row q): Elephants 19q, 1q: 2 each (two points up the open
    // diagonal); 15q, 11q, 9q, 5q: 4 each (two up each forward
    // diagonal; behind them stand their own pieces): 20. Cannons 18q, 2q:
    // one empty back diagonal point; 14q, 6q: two: 6 (no enemy within
    // shot). Crossbows 17q, 13q, 7q, 3q: the two forward diagonal
    // points: 8. Longbows 16q, 4q: the two back diagonal points; 12q, 8q:
    // one: 6. European cannon 10q: boxed in: 0. Rank 3: 40.
    // Rank 2 (row r): Rear guards: 0. Centurias 18r, 2r: one step aside:
    // 2. Quartermasters 16r, 4r and Millenaries 14r, 6r: one point each
    // way along the rank: 2 each, 8. Sentries 12r, 8r: one sideways: 2.
    // Drum, Middle troop, Banner: 0. Rank 2: 12.
    // Rank 1 (row s): Engineers 17s, 3s: 1 each; Chiefs of staff 16s, 4s:
    // 2 each; Staffs 15s, 5s: 1 each; Aides 14s, 6s: 2 each; Sumo
    // wrestlers 13s, 7s: one step each (the pass is counted above); Aides
    // de camp 12s, 8s: one each; Advance guards, priest, monk, Clerk,
    // General, Staff officer: 0. Rank 1: 2 + 4 + 2 + 4 + 2 + 2 = 16.
    // In all: 5 + 104 + 27 + 19 + 40 + 12 + 16 = 223.
    let game = ko();
    let start = game.write_position(&game.initial_position());
    let list = moves(&game, &start);
    assert_eq!(list.len(), 223);
    for m in [
        "19n19f",
        "19n19f+",
        "1n1f+",
        "10m10h",
        "19p-17o-19p",
        "13s13r",
        "18q17r",
    ] {
        assert!(list.contains(&m.to_string()), "{m}");
    }
    assert!(
        !list.iter().any(|m| m.starts_with("10q")),
        "the European cannon is boxed in"
    );
}

#[test]
fn perft_two_and_three_regression() {
    // Our counts (dagaz; no published ones): perft 1 is the 223 above.
    let game = ko();
    let mut pos = game.initial_position();
    assert_eq!(
        perft_with(&game, &mut pos, 2, &mut Generator::new()).unwrap(),
        49_593
    );
}

#[test]
fn longbow_shoots_three_points_over_empty_points() {
    // The Longbow steps to 9i, 11i, 9k or 11k, then may shoot. From 9i:
    // 9f, 3 points up. 7i is 2 points to the right, but Black's Pawn on
    // 8i is in the way; from 9k the diagonal 8j-7i is open. From 11i and
    // from 11k: 13i (through 12i, through 12j). 11e is 4 points from
    // 11i: out of range.
    let pieces = [
        ("10j", "L'"),
        ("9f", "p"),
        ("11e", "p"),
        ("7i", "p"),
        ("8i", "P"),
        ("13i", "p"),
    ];
    assert_eq!(
        of(&pieces, "10j"),
        v(&[
            "10j11i",
            "10j11ix13i",
            "10j11k",
            "10j11kx13i",
            "10j9i",
            "10j9ix9f",
            "10j9k",
            "10j9kx7i"
        ])
    );
}

#[test]
fn what_the_bows_may_not_shoot() {
    // In range of some landing point: a Shield (9h), an Imperial base
    // (11h), a Gun carriage (8k), a Five-li fog (12k), a Chariot (11l):
    // all immune to bows. The Sentry on 9l is not: shot from 9k (1 point)
    // and from 9i (3 points).
    let pieces = [
        ("10j", "L'"),
        ("9h", "i"),
        ("11h", "+i'"),
        ("8k", "+c"),
        ("12k", "+t"),
        ("11l", "x"),
        ("9l", "y"),
        ("10c", "t"),
    ];
    assert_eq!(
        of(&pieces, "10j"),
        v(&["10j11i", "10j11k", "10j9i", "10j9ix9l", "10j9k", "10j9kx9l"])
    );
}

#[test]
fn cannon_shoots_over_pieces_but_not_a_shield_unit() {
    // From 9i up file 9: Black's Pawn on 9h is jumped, the Shield on 9g
    // (2 points) is shot, the Shield unit on 9f is immune, the Pawn on 9d
    // (5 points) is shot, 9c (6 points) is out of range. From 9k the
    // Shield is 4 points up; from 11i the diagonal 10h-9g reaches it.
    let pieces = [
        ("10j", "C"),
        ("9h", "P"),
        ("9g", "i"),
        ("9f", "i'"),
        ("9d", "p"),
        ("9c", "p"),
        ("19s", "D"),
    ];
    assert_eq!(
        of(&pieces, "10j"),
        v(&[
            "10j11i",
            "10j11ix9g",
            "10j11k",
            "10j9i",
            "10j9ix9d",
            "10j9ix9g",
            "10j9k",
            "10j9kx9g"
        ])
    );
}

#[test]
fn european_cannon_shoots_twice_and_the_fog_only_from_six_points() {
    // Fogs on 9c (6 points above 9i) and 11d (5 above 11i, 7 above 11k);
    // a Pawn on 8i (next to 9i, 3 points right of 11i); a Shield unit on
    // 12i (next to 11i), immune.
    let pieces = [
        ("10j", "F'"),
        ("9c", "+t"),
        ("11d", "+t"),
        ("8i", "p"),
        ("12i", "i'"),
        ("10b", "t"),
    ];
    let list = of(&pieces, "10j");
    let has = |m: &str| list.contains(&m.to_string());
    assert!(has("10j9ix9c"), "{list:?}");
    assert!(has("10j9ix8i"), "{list:?}");
    assert!(has("10j11ix8i"), "{list:?}");
    assert!(has("10j11kx11d"), "{list:?}");
    assert!(
        !list
            .iter()
            .any(|m| m.starts_with("10j11i") && m.contains("x11d")),
        "{list:?}"
    );
    assert!(!list.iter().any(|m| m.contains("x12i")), "{list:?}");
    // Both shots in one move, either order being the same move.
    let both: Vec<&String> = list
        .iter()
        .filter(|m| m.starts_with("10j9i") && m.contains("x9c") && m.contains("x8i"))
        .collect();
    assert_eq!(both.len(), 1, "{list:?}");
}

#[test]
fn priest_jumps_then_shoots_next_to_it() {
    // Jumps two points in the 8 directions: 10h holds a Pawn, which it
    // may not take by landing; 8j holds the enemy Spiritual monk, which it
    // may. From 12h it may shoot the Pawn on 12g, not the Five-li fog on
    // 13h.
    let pieces = [
        ("10j", "T"),
        ("10h", "p"),
        ("8j", "t'"),
        ("12g", "p"),
        ("13h", "+t"),
    ];
    assert_eq!(
        of(&pieces, "10j"),
        v(&[
            "10j10l",
            "10j12h",
            "10j12hx12g",
            "10j12j",
            "10j12l",
            "10j8h",
            "10j8j",
            "10j8l"
        ])
    );
}

#[test]
fn chariot_cannot_take_the_imperial_base() {
    // Up to 5 points each way: up 10i, 10h, not the Imperial base on 10g;
    // left 11j, 12j and the Shield unit on 13j; right 9j-5j; down 10k-10o.
    let list = of(&[("10j", "X"), ("10g", "+i'"), ("13j", "i'")], "10j");
    assert_eq!(list.len(), 15, "{list:?}");
    assert!(list.contains(&"10j13j".to_string()));
    assert!(!list.contains(&"10j10g".to_string()));
}

#[test]
fn cavalry_leaps_once_or_twice_toward_one_side() {
    // Alone on 10k (out of reach of the zone): 8 leaps; two leaps toward
    // one side reach 3 points ((±2, 4) and (0, 4) turned to each side):
    // 12; and one pass: 21.
    assert_eq!(of(&[("10k", "N'")], "10k").len(), 21);
    // Two captures in one move, and igui (take on 9h, come back).
    let list = of(
        &[("10j", "N'"), ("9h", "p"), ("8f", "p"), ("11i", "p")],
        "10j",
    );
    for m in ["10jx9hx8f", "10jx9hx10f", "10jx9hx10j"] {
        assert!(list.contains(&m.to_string()), "{m}: {list:?}");
    }
    // 11i is a knight leap from 9h, but back toward the Cavalry's own side.
    assert!(!list.contains(&"10jx9hx11i".to_string()), "{list:?}");
    // The Winged horse's second leap goes anywhere.
    let list = of(&[("10j", "+N'"), ("9h", "p"), ("11i", "p")], "10j");
    assert!(list.contains(&"10jx9hx11i".to_string()), "{list:?}");
}

#[test]
fn sumo_wrestler_steps_twice() {
    // Two steps up the file, taking on both; igui; and a Dragon ascending
    // (promoted Millenary) has the same double step besides its slides.
    let list = of(&[("10j", "W"), ("10i", "p"), ("10h", "p")], "10j");
    for m in ["10jx10ix10h", "10jx10ix10j", "10j10i"] {
        assert!(list.contains(&m.to_string()), "{m}: {list:?}");
    }
    let list = of(&[("10j", "+Q"), ("10i", "p"), ("9i", "p")], "10j");
    assert!(list.contains(&"10jx10ix9i".to_string()), "{list:?}");
    // The Millenary itself cannot.
    let list = of(&[("10j", "Q"), ("10i", "p"), ("9i", "p")], "10j");
    assert!(!list.iter().any(|m| m.starts_with("10jx")), "{list:?}");
}

#[test]
fn thunderclap_turns_freely_and_takes_on_the_way() {
    // Alone: every point within five orthogonal steps: 60.
    assert_eq!(of(&[("10j", "+D"), ("2s", "T")], "10j").len(), 60);
    // Both enemies (10i above, 11j to the left) taken in one move:
    // 10j-11j-11i-10i-9i, and others.
    let list = of(
        &[("10j", "+D"), ("10i", "p"), ("11j", "p"), ("2s", "T")],
        "10j",
    );
    for m in ["10j9ix10ix11j", "10j10kx10ix11j", "10j12ix10ix11j"] {
        assert!(list.contains(&m.to_string()), "{m}: {list:?}");
    }
    // It never ends where it started.
    assert!(!list.iter().any(|m| m.ends_with("10j")), "{list:?}");
}

#[test]
fn roaming_assault_takes_everything_on_its_line() {
    // Up to five steps each way: 20; up the file it takes 10i and 10g.
    // (Black's priest on 2s keeps it a Roaming assault.)
    let pieces = [("10j", "+B"), ("10i", "p"), ("10g", "p"), ("2s", "T")];
    let list = of(&pieces, "10j");
    assert_eq!(list.len(), 20, "{list:?}");
    let game = ko();
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10j10e");
    assert_eq!(piece_on(&game, &pos, "10i"), None);
    assert_eq!(piece_on(&game, &pos, "10g"), None);
    // A friendly piece stops it.
    let list = of(
        &[("10j", "+B"), ("10i", "p"), ("10h", "P"), ("2s", "T")],
        "10j",
    );
    assert!(list.contains(&"10j10i".to_string()), "{list:?}");
    assert!(!list.contains(&"10j10h".to_string()), "{list:?}");
    assert!(!list.contains(&"10j10g".to_string()), "{list:?}");
    assert_eq!(list.len(), 16, "{list:?}");
}

#[test]
fn poison_flame_burns() {
    let game = ko();
    // It steps to 10i: the Pawns on 9h and 11h, next to it, burn; the
    // Sentry on 8i does not (two points away).
    let pieces = [("10j", "+E"), ("9h", "p"), ("11h", "p"), ("8i", "y")];
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10j10i");
    assert_eq!(piece_on(&game, &pos, "10i").unwrap().0, "PoisonFlame");
    assert_eq!(piece_on(&game, &pos, "9h"), None);
    assert_eq!(piece_on(&game, &pos, "11h"), None);
    assert_eq!(piece_on(&game, &pos, "8i").unwrap().0, "Sentry");
    // A piece that stops next to an enemy flame is burned.
    let pieces = [("10j", "+e"), ("10l", "G")];
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10l10k");
    assert_eq!(piece_on(&game, &pos, "10k"), None);
    // Taking the flame is safe.
    let pieces = [("10j", "+e"), ("10k", "G")];
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10k10j");
    assert_eq!(piece_on(&game, &pos, "10j"), Some(("Aide".into(), 0)));
}

#[test]
fn promotion_zone_entering_leaving_within() {
    // A Staff on 10f (in the zone, the six far ranks a-f) may promote on
    // every move, in or out: 5 moves, each both ways.
    let list = of(&[("10f", "S")], "10f");
    assert_eq!(list.len(), 10, "{list:?}");
    assert!(list.contains(&"10f9g+".to_string()), "leaving: {list:?}");
    assert!(list.contains(&"10f10e+".to_string()), "within: {list:?}");
    // On 10h it never reaches the zone.
    let list = of(&[("10h", "S")], "10h");
    assert_eq!(list, v(&["10h10g", "10h11g", "10h11i", "10h9g", "10h9i"]));
    // Entering from 10g.
    let list = of(&[("10g", "S")], "10g");
    assert!(list.contains(&"10g10f".to_string()) && list.contains(&"10g10f+".to_string()));
}

#[test]
fn promotion_by_capture() {
    // A step mover (Pawn) that takes a Middle troop promotes, and must.
    let list = of(&[("10j", "P"), ("11j", "m")], "10j");
    assert!(list.contains(&"10j11j+".to_string()), "{list:?}");
    assert!(!list.contains(&"10j11j".to_string()), "{list:?}");
    // A step mover (Aide) that takes a Sumo wrestler promotes.
    assert_eq!(
        of(&[("10j", "G"), ("10i", "w")], "10j")
            .into_iter()
            .filter(|m| m.starts_with("10j10i"))
            .collect::<Vec<_>>(),
        vec!["10j10i+"]
    );
    // A Millenary is no step mover: taking the Sumo wrestler does nothing.
    assert!(of(&[("10j", "Q"), ("10i", "w")], "10j").contains(&"10j10i".to_string()));
    assert!(!of(&[("10j", "Q"), ("10i", "w")], "10j").contains(&"10j10i+".to_string()));
    // But it promotes on taking the Banner.
    let list = of(&[("10j", "Q"), ("10i", "b")], "10j");
    assert!(list.contains(&"10j10i+".to_string()) && !list.contains(&"10j10i".to_string()));
    // A Cavalryman promotes on taking the European cannon, not a Pawn.
    let list = of(&[("10j", "N"), ("9h", "f'"), ("11h", "p")], "10j");
    assert!(list.contains(&"10j9h+".to_string()) && !list.contains(&"10j9h".to_string()));
    assert!(list.contains(&"10j11h".to_string()) && !list.contains(&"10j11h+".to_string()));
    // A shot never promotes: the Cannon shooting the Middle troop.
    let list = of(&[("10j", "C"), ("9f", "m")], "10j");
    assert!(list.contains(&"10j9ix9f".to_string()), "{list:?}");
    assert!(!list.iter().any(|m| m.contains('+')), "{list:?}");
}

#[test]
fn clerks_promotion_promotes_the_guards() {
    let game = ko();
    // The Clerk jumps into the zone (10h to 10f) and promotes: Black's
    // Advance guard and Rear guard promote with it; White's do not.
    let pieces = [("10h", "L"), ("19s", "V"), ("1r", "V'"), ("19a", "v")];
    let list = of(&pieces, "10h");
    assert!(list.contains(&"10h10f".to_string()) && list.contains(&"10h10f+".to_string()));
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10h10f+");
    assert_eq!(piece_on(&game, &pos, "10f").unwrap().0, "MasterAtArms");
    assert_eq!(piece_on(&game, &pos, "19s").unwrap().0, "HeavensVengeance");
    assert_eq!(piece_on(&game, &pos, "1r").unwrap().0, "EarthsVengeance");
    assert_eq!(piece_on(&game, &pos, "19a").unwrap().0, "AdvanceGuard");
    // Without promoting, nothing happens.
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10h10f");
    assert_eq!(piece_on(&game, &pos, "19s").unwrap().0, "AdvanceGuard");
}

#[test]
fn losing_the_priest_demotes_thunderclap_and_stops_the_drum() {
    let game = ko();
    // Black takes White's only Taoist priest: White's Thunderclap turns
    // back into a Drum, and its Roaming assault into a Banner.
    let pieces = [("10d", "G"), ("10c", "t"), ("5c", "+d"), ("15c", "+b")];
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10d10c");
    assert_eq!(piece_on(&game, &pos, "5c"), Some(("Drum".into(), 1)));
    assert_eq!(piece_on(&game, &pos, "15c"), Some(("Banner".into(), 1)));
    // A Drum whose side has no priest cannot promote: 6 steps, none
    // promoting, though two enter the zone.
    assert_eq!(
        of(&[("10g", "D")], "10g"),
        v(&["10g11f", "10g11g", "10g11h", "10g9f", "10g9g", "10g9h"])
    );
    // With the priest (on 2s) it may.
    let list = of(&[("10g", "D"), ("2s", "T")], "10g");
    assert_eq!(list.len(), 8, "{list:?}");
    assert!(list.contains(&"10g11f+".to_string()));
}

#[test]
fn the_fog_turns_back_near_the_light() {
    let game = ko();
    // Black's fog jumps from 10l to 10j, five points below White's
    // Immaculate light on 10e with nothing between: it lands a priest.
    let pieces = [("10l", "+T"), ("10e", "+t'")];
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10l10j");
    assert_eq!(
        piece_on(&game, &pos, "10j"),
        Some(("TaoistPriest".into(), 0))
    );
    // Nine points away (10n) it stays a fog; so it does behind a piece.
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10l10n");
    assert_eq!(piece_on(&game, &pos, "10n").unwrap().0, "FiveLiFog");
    let pieces = [("10l", "+T"), ("10e", "+t'"), ("10g", "p")];
    let mut pos = common::position(&game, &with_generals(&pieces, "b"));
    play(&game, &mut pos, "10l10j");
    assert_eq!(piece_on(&game, &pos, "10j").unwrap().0, "FiveLiFog");
}

#[test]
fn pawns_step_forward_only_with_their_drum() {
    assert_eq!(
        of(&[("10j", "P")], "10j"),
        v(&["10j10k", "10j11j", "10j9j"])
    );
    assert_eq!(
        of(&[("10j", "P"), ("19s", "D")], "10j"),
        v(&["10j10i", "10j10k", "10j11j", "10j9j"])
    );
    // The Thunderclap is the Drum promoted (with the priest that keeps it).
    assert_eq!(
        of(&[("10j", "P"), ("19s", "+D"), ("2s", "T")], "10j"),
        v(&["10j10i", "10j10k", "10j11j", "10j9j"])
    );
}

#[test]
fn the_general_then_the_middle_troop_and_banner() {
    let game = ko();
    let result = |pieces: &[(&str, &str)], mv: &str| {
        let mut all = vec![("10s", "K")];
        all.extend_from_slice(pieces);
        let mut pos = common::position(&game, &fen(&all, "b"));
        play(&game, &mut pos, mv);
        Generator::new().result(&game, &mut pos).unwrap()
    };
    // White keeps its Middle troop and Banner: taking the General does not
    // end the game.
    assert_eq!(
        result(
            &[("10a", "k"), ("10b", "G"), ("15a", "m"), ("5a", "b")],
            "10b10a+"
        ),
        None
    );
    // Without the Banner it does.
    match result(&[("10a", "k"), ("10b", "G"), ("15a", "m")], "10b10a+") {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
    // Nor does it with a Governor (promoted Middle troop) left.
    assert_eq!(
        result(&[("10a", "k"), ("10b", "G"), ("15a", "+m")], "10b10a+"),
        None
    );
    // Then taking the Middle troop (with the Banner still there) wins.
    match result(&[("15a", "m"), ("15b", "G"), ("5a", "b")], "15b15a+") {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn misspelt_pieces_in_the_new_forms_are_refused() {
    let source = include_str!("../../../../games/ko-shogi.toml");
    for (from, to, expect) in [
        (
            "6 = \"some_of:Drum,Thunderclap\"",
            "6 = \"some_of:Drum,Thunderclp\"",
            "unknown piece 'Thunderclp'",
        ),
        (
            "4 = \"not_of:FiveLiFog\"",
            "4 = \"not_of:FiveLiFg\"",
            "unknown piece 'FiveLiFg'",
        ),
        (
            "capturing = [\"General\", \"Governor\", \"MiddleTroop\", \"Banner\", \"EuropeanCannon\"]",
            "capturing = [\"General\", \"Governor\", \"MiddleTroop\", \"Banner\", \"EuropeanCanon\"]",
            "unknown piece 'EuropeanCanon'",
        ),
    ] {
        assert!(source.contains(from), "{from}");
        let text = source.replace(from, to);
        let Err(err) = dagaz::load::load_str(&text, "ko.toml", "ko") else {
            panic!("{to} was accepted");
        };
        assert!(err.to_string().contains(expect), "{err}");
    }
}

#[test]
fn shots_over_a_jump_are_written_out() {
    // A Five-li fog on 10i jumps to 10k, shoots nothing or the pawn on 10j,
    // jumps on to 10m and shoots nothing or the pawn on 10l: the four moves
    // through 10k to 10m share their landings, so those that shoot write
    // every square they shoot.
    let game = load_game("ko-shogi").unwrap();
    let fen = "9K9/19/19/19/19/19/19/19/9+T9/9p9/19/9p9/19/19/19/19/19/19/9k9 b - 1";
    let through: Vec<String> = crate::common::moves(&game, fen)
        .into_iter()
        .filter(|t| {
            let points: Vec<&str> = t.split(['-', 'x']).collect();
            points.len() >= 3 && points[..3] == ["10i", "10k", "10m"]
        })
        .collect();
    assert_eq!(
        through,
        crate::common::v(&[
            "10i-10k-10m",
            "10ix10kx10mx10j",
            "10ix10kx10mx10jx10l",
            "10ix10kx10mx10l"
        ])
    );
}
