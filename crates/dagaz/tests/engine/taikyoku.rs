//! Taikyoku shogi (36x36): the start position is the Taikyoku shogi site's
//! (its TSFEN, in tests/data/taikyoku); the counts from it and the rule
//! positions were worked out with a separate generator written for this
//! work from the rules in the game file's header (not from dagaz), and the
//! rule positions by hand. No published counts exist.

use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft_with};

use crate::common::{moves, placed, play, position, v};

fn taikyoku() -> Game {
    load_game("taikyoku-shogi").unwrap()
}

/// The ranks from the top: a to z, then aa, bb, ... jj.
fn rank_index(rank: &str) -> usize {
    let c = rank.as_bytes()[0] - b'a';
    if rank.len() == 1 {
        c as usize
    } else {
        26 + c as usize
    }
}

/// The moves of the piece on `from` (texts starting with it, but not with
/// a longer square's name: 1a is not 1aa).
fn moves_of(game: &Game, fen: &str, from: &str) -> Vec<String> {
    let last = from.chars().last().unwrap();
    let longer = format!("{from}{last}");
    moves(game, fen)
        .into_iter()
        .filter(|m| m.starts_with(from) && !(last <= 'j' && m.starts_with(&longer)))
        .collect()
}

/// The pieces, with each side's King far away (1a, 36jj), so the pieces
/// tested are alone.
fn alone(game: &Game, pieces: &[(&str, &str)], side: &str) -> String {
    let mut all = pieces.to_vec();
    all.extend([("1a", "k"), ("36jj", "K")]);
    placed(game, &all, side)
}

#[test]
fn the_setup_is_the_sites_start_position() {
    // The site writes Black in lower case and ends with a move counter; the
    // rows, runs (`P36`) and codes are the same.
    let site = include_str!("../data/taikyoku/initial.tsfen");
    let board = site.split_whitespace().next().unwrap();
    let game = taikyoku();
    let ours = game.write_position(&game.initial_position());
    let swapped: String = board
        .chars()
        .map(|c| match c {
            'a'..='z' => c.to_ascii_uppercase(),
            _ => c.to_ascii_lowercase(),
        })
        .collect();
    assert_eq!(ours, format!("{swapped} b - 1"));
    let pos = position(&game, &ours);
    assert_eq!(pos.cells(), game.initial_position().cells());
    // 402 pieces a side; 209 types each.
    for owner in 0..2 {
        let cells = game.initial_position();
        let mine: Vec<_> = cells
            .cells()
            .iter()
            .map(|c| game.cells.info(*c))
            .filter(|i| i.piece != dagaz::position::NO_PIECE && i.owner == owner)
            .collect();
        assert_eq!(mine.len(), 402);
        let mut types: Vec<u16> = mine.iter().map(|i| i.piece).collect();
        types.sort();
        types.dedup();
        assert_eq!(types.len(), 209);
    }
}

fn perft(game: &Game, depth: u32) -> u64 {
    let mut pos = game.initial_position();
    perft_with(game, &mut pos, depth, &mut Generator::new()).unwrap() as u64
}

#[test]
fn first_moves_by_piece() {
    // The separate generator's first moves, piece by piece: the range
    // capturers pass (and take) their own pieces in front of them, and the
    // pieces that jump over the Pawns' rank reach the open middle.
    let game = taikyoku();
    let pos = game.initial_position();
    let mut by_piece = std::collections::BTreeMap::new();
    for text in moves(&game, &placed_setup(&game)) {
        let from = &text[..text.find(|c: char| c.is_ascii_lowercase()).unwrap()];
        let rank_end = text[from.len()..]
            .find(|c: char| !c.is_ascii_lowercase())
            .map_or(text.len(), |i| from.len() + i);
        let square = game.topology.square(&text[..rank_end]).unwrap();
        let piece = game.cells.info(pos.cell(square)).piece;
        *by_piece
            .entry(game.pieces[piece as usize].symbol.clone())
            .or_insert(0) += 1;
    }
    let expected: std::collections::BTreeMap<String, i32> = [
        ("GG", 45),
        ("AG", 46),
        ("FLG", 44),
        ("FID", 42),
        ("P", 30),
        ("VG", 20),
        ("FE", 14),
        ("D", 12),
        ("LD", 3),
        ("RDG", 3),
        ("GB", 2),
        ("GM", 2),
        ("HHW", 2),
    ]
    .into_iter()
    .map(|(s, n)| (s.to_string(), n))
    .collect();
    assert_eq!(by_piece, expected);
    assert_eq!(perft(&game, 1), 265);
    assert_eq!(perft(&game, 2), 70_242);
}

fn placed_setup(game: &Game) -> String {
    game.write_position(&game.initial_position())
}

#[test]
#[ignore = "seconds: run with --include-ignored"]
fn depth_three_as_the_separate_generator_counts() {
    // 23 528 157 when moves that leave the mover in place (igui) count once
    // per effect, as dagaz counts them: two pieces taking the same piece by
    // igui make one move. Counted by piece (from, to, captures), 23 528 678.
    assert_eq!(perft(&taikyoku(), 3), 23_528_157);
}

#[test]
fn range_capturers_take_every_lower_piece_they_pass() {
    let game = taikyoku();
    // The Great General (rank 3) on 18r: north past its own Pawn and an
    // enemy Pawn, up to White's Great General, which it may take but not
    // pass; south down to its own Crown Prince (rank 4), which stops it.
    let fen = alone(
        &game,
        &[
            ("18r", "GG"),
            ("18p", "P"),
            ("18n", "p"),
            ("18l", "gg"),
            ("18jj", "CP"),
        ],
        "b",
    );
    let north: Vec<String> = moves_of(&game, &fen, "18r")
        .into_iter()
        .filter(|m| m.starts_with("18r18") && rank_index(&m[5..]) < rank_index("r"))
        .collect();
    assert_eq!(
        north,
        v(&["18r18l", "18r18m", "18r18n", "18r18o", "18r18q"])
    );
    let mut pos = position(&game, &fen);
    play(&game, &mut pos, "18r18m");
    let after = game.write_position(&pos);
    let expected = alone(&game, &[("18m", "GG"), ("18l", "gg"), ("18jj", "CP")], "w");
    assert_eq!(after.split(' ').next(), expected.split(' ').next());
    let south = moves_of(&game, &fen, "18r")
        .into_iter()
        .filter(|m| m.starts_with("18r18") && rank_index(&m[5..]) > rank_index("r"))
        .count();
    // 18s to 18ii: 17 squares; 18jj holds the Crown Prince.
    assert_eq!(south, 17);

    // The Vice General (rank 2) passes the Flying General (rank 1) but not
    // the Great General; its own Pawn on 17q is taken on the way.
    let fen = alone(
        &game,
        &[("18r", "VG"), ("17q", "P"), ("16p", "flg"), ("15o", "gg")],
        "b",
    );
    let north_east: Vec<String> = moves_of(&game, &fen, "18r")
        .into_iter()
        .filter(|m| ["17q", "16p", "15o", "14n"].iter().any(|s| m.ends_with(s)))
        .collect();
    assert_eq!(north_east, v(&["18r15o", "18r16p"]));
}

#[test]
fn jumping_sliders_and_pieces_that_pass_pieces() {
    let game = taikyoku();
    // The Treacherous Fox jumps over one or two squares vertically (its own
    // Pawn, an enemy Pawn) and slides on from an empty landing square.
    let fen = alone(
        &game,
        &[("18r", "TF"), ("18q", "P"), ("18p", "p"), ("18n", "P")],
        "b",
    );
    let north: Vec<String> = moves_of(&game, &fen, "18r")
        .into_iter()
        .filter(|m| m.starts_with("18r18") && rank_index(&m[5..]) < rank_index("r"))
        .collect();
    assert_eq!(north, v(&["18r18o", "18r18p"]));
    // The Ancient Dragon passes up to three pieces vertically without
    // taking them: the enemy on 18p (one passed) or 18n (three passed).
    let fen = alone(
        &game,
        &[
            ("18r", "AD"),
            ("18q", "P"),
            ("18p", "p"),
            ("18o", "P"),
            ("18n", "p"),
            ("18m", "P"),
            ("18k", "p"),
        ],
        "b",
    );
    let north: Vec<String> = moves_of(&game, &fen, "18r")
        .into_iter()
        .filter(|m| m.starts_with("18r18") && rank_index(&m[5..]) < rank_index("r"))
        .collect();
    assert_eq!(north, v(&["18r18n", "18r18p"]));
    let mut pos = position(&game, &fen);
    play(&game, &mut pos, "18r18n");
    let board = game.write_position(&pos);
    let pos = position(&game, &board);
    for (square, kept) in [("18q", true), ("18p", true), ("18o", true), ("18r", false)] {
        let sq = game.topology.square(square).unwrap();
        assert_eq!(!pos.cell(sq).is_empty(), kept, "{square}");
    }
}

#[test]
fn hook_movers_and_lions() {
    let game = taikyoku();
    // The Hook Mover on 18r, alone: along its file and rank, then at right
    // angles from any square of them, so every square of the board but its
    // own and its King's (36jj), each once whichever corner it turns at.
    let fen = alone(&game, &[("18r", "HM")], "b");
    assert_eq!(moves_of(&game, &fen, "18r").len(), 36 * 36 - 2);
    // The Lion on 18r with an enemy Pawn on 18q: its 8 steps and 16 jumps
    // (taking the Pawn by the step), the Pawn taken and then a step to one
    // of 18q's other 7 neighbours or back to 18r (igui), and one pass (two
    // steps through an empty square and back; through an empty square to
    // another square is a jump's move).
    let fen = alone(&game, &[("18r", "L"), ("18q", "p")], "b");
    let mut expected: Vec<String> = Vec::new();
    for file in 16..=20 {
        for rank in ["p", "q", "r", "s", "t"] {
            if (file, rank) != (18, "r") {
                expected.push(format!("18r{file}{rank}"));
            }
        }
    }
    for to in ["17p", "17q", "17r", "18p", "18r", "19p", "19q", "19r"] {
        expected.push(format!("18rx18qx{to}"));
    }
    expected.push("18r-18s-18r".into());
    expected.sort();
    assert_eq!(moves_of(&game, &fen, "18r"), expected);
}

#[test]
fn promotion_is_compulsory_and_once() {
    let game = taikyoku();
    // A Pawn entering the far 11 ranks becomes a Gold General that no
    // longer promotes (`+GLG`); the Crown Prince becomes a King.
    let fen = alone(&game, &[("18l", "P"), ("20l", "CP")], "b");
    assert_eq!(moves_of(&game, &fen, "18l"), v(&["18l18k+"]));
    assert_eq!(
        moves_of(&game, &fen, "20l"),
        v(&[
            "20l19k+", "20l19l", "20l19m", "20l20k+", "20l20m", "20l21k+", "20l21l", "20l21m"
        ])
    );
    let fen = alone(&game, &[("18k", "+GLG")], "b");
    assert_eq!(
        moves_of(&game, &fen, "18k"),
        v(&["18k17j", "18k17k", "18k18j", "18k18l", "18k19j", "18k19k"])
    );
}

#[test]
fn the_game_ends_with_the_last_royal() {
    let game = taikyoku();
    // White has a King and a Crown Prince: taking the Crown Prince does not
    // end the game; taking the King then does.
    let fen = placed(
        &game,
        &[("18r", "FCH"), ("18o", "cp"), ("10r", "k"), ("36jj", "K")],
        "b",
    );
    let mut pos = position(&game, &fen);
    play(&game, &mut pos, "18r18o");
    assert_eq!(Generator::new().result(&game, &mut pos).unwrap(), None);
    play(&game, &mut pos, "10r10q");
    play(&game, &mut pos, "18o18r");
    play(&game, &mut pos, "10q10r");
    play(&game, &mut pos, "18r10r");
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_rows_are_refused_with_their_place() {
    let game = taikyoku();
    let good = alone(&game, &[("18r", "GG")], "b");
    let rows: Vec<&str> = good.split(' ').next().unwrap().split('/').collect();
    let with_row = |row: &str| {
        let mut r = rows.clone();
        r[17] = row;
        format!("{} b - 1", r.join("/"))
    };
    for (row, says) in [
        ("P37", "row 18 is too long"),
        ("17,XYZ,18", "unknown piece 'XYZ' in row 18"),
        ("17,,GG,18", "row 18: '' is not a symbol, a count or both"),
        (
            "17,GG0,18",
            "row 18: 'GG0' is not a symbol, a count or both",
        ),
        ("17,GG,17", "row 18 has 35 columns, the board has 36"),
    ] {
        let err = game.parse_position(&with_row(row)).unwrap_err().to_string();
        assert!(err.contains(says), "{row}: {err}");
    }
}

#[test]
fn multi_letter_symbols_cannot_go_in_sfen_hands() {
    // SFEN hands are one letter a piece: a game with hands and a symbol like
    // `GG` is refused when it is loaded, not misread later.
    let source = include_str!("../../../../games/taikyoku-shogi.toml")
        .replace("[rules]\n", "[rules]\ncaptures_to_hand = true\n");
    let Err(err) = dagaz::load::load_str(&source, "taikyoku-hands.toml", "taikyoku-hands") else {
        panic!("a game with hands and multi-letter symbols was loaded");
    };
    let err = err.to_string();
    assert!(err.contains("more than one letter"), "{err}");
}
