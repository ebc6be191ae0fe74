//! The Betza converter against hand-written expressions: the built-in
//! games with their pieces rewritten as `betza = "…"` must generate the
//! same moves (and the published perft counts), and single pieces in the
//! laboratory game must match hand-written expressions square for square.

use crate::common;

use common::{lab_with, moves, v};
use dagaz::game::Game;
use dagaz::load::{builtin_games, load_str};
use dagaz::movegen::perft;
use dagaz::notation::betza::to_dagaz;

/// The built-in game `name` with each listed piece's `moves` replaced by
/// a `betza` key.
fn rewritten(name: &str, pieces: &[(&str, &str)]) -> Game {
    let source = builtin_games()
        .iter()
        .find(|g| g.name == name)
        .unwrap()
        .source;
    let mut file: toml::Table = toml::from_str(source).unwrap();
    let table = file["pieces"].as_table_mut().unwrap();
    for (piece, betza) in pieces {
        let p = table[*piece].as_table_mut().unwrap();
        assert!(p.remove("moves").is_some(), "{piece} had moves");
        p.insert("betza".into(), toml::Value::String(betza.to_string()));
    }
    let text = toml::to_string(&file).unwrap();
    load_str(&text, "rewritten.toml", name).unwrap_or_else(|e| panic!("{e}"))
}

fn count(game: &Game, fen: &str, depth: u32) -> u64 {
    let mut pos = game.parse_position(fen).unwrap();
    perft(game, &mut pos, depth).unwrap()
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Chess with every piece in Betza (no castling or en passant: Betza's
/// plain atoms have neither) reaches the published counts of the start
/// position (tests/data/chess-perft.tsv), which need neither before depth 5.
#[test]
fn chess_in_betza_matches_published_perft() {
    let game = rewritten(
        "chess",
        &[
            ("Pawn", "fmWfcFifmnD"),
            ("Knight", "N"),
            ("Bishop", "B"),
            ("Rook", "R"),
            ("Queen", "Q"),
            ("King", "K"),
        ],
    );
    for (depth, nodes) in [(1, 20), (2, 400), (3, 8902), (4, 197_281)] {
        assert_eq!(count(&game, CHESS_START, depth), nodes, "depth {depth}");
    }
    // Position 3 of the same page, depth 2 (no en passant is possible yet).
    let p3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    assert_eq!(count(&game, p3, 1), 14);
    assert_eq!(count(&game, p3, 2), 191);
}

/// Xiangqi's horse, cannon and chariot written in Betza give the same
/// perft as the hand-written file on the published positions.
#[test]
fn xiangqi_pieces_in_betza() {
    let original = dagaz::load::load_game("xiangqi").unwrap();
    let game = rewritten(
        "xiangqi",
        &[("Horse", "nN"), ("Cannon", "mRcpR"), ("Chariot", "R")],
    );
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let middle = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    for fen in [start, middle] {
        for depth in 1..=3 {
            assert_eq!(
                count(&game, fen, depth),
                count(&original, fen, depth),
                "{fen} depth {depth}"
            );
        }
    }
    assert_eq!(count(&game, start, 3), 79_666);
}

/// Shogi's pieces in Betza (drops and promotion stay in the file) give
/// the published perft (tests/data/shogi-perft.tsv).
#[test]
fn shogi_pieces_in_betza() {
    let gold = "WfF";
    let game = rewritten(
        "shogi",
        &[
            ("King", "K"),
            ("Rook", "R"),
            ("Bishop", "B"),
            ("Gold", gold),
            ("Silver", "FfW"),
            ("Knight", "ffN"),
            ("Lance", "fR"),
            ("Pawn", "fW"),
            ("Dragon", "RF"),
            ("Horse", "BW"),
            ("PromotedSilver", gold),
            ("PromotedKnight", gold),
            ("PromotedLance", gold),
            ("Tokin", gold),
        ],
    );
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    for (depth, nodes) in [(1, 30), (2, 900), (3, 25_470)] {
        assert_eq!(count(&game, start, depth), nodes, "depth {depth}");
    }
}

/// Positions for single pieces: the tester on d4 among own stones (S),
/// enemy stones (s) and an enemy rook.
const LAB_POSITIONS: &[&str] = &[
    "8/8/8/8/3T4/8/8/8 w - - 0 1",
    "8/8/3s4/2S1s3/3T4/2sS4/8/8 w - - 0 1",
    "8/3r4/8/3s1S2/1S1T1s2/8/3S4/8 w - - 0 1",
    "T7/1s6/8/3S4/8/8/8/7s w - - 0 1",
    "8/8/1s3S2/2sSs3/2STs3/2sSS3/1S3s2/8 w - - 0 1",
];

/// The Betza piece and the hand-written expression generate the same moves
/// in every lab position.
fn same_moves(betza: &str, handwritten: &str) {
    let a = lab_with(&format!("betza = '''{betza}'''"), "");
    let b = lab_with(&format!("moves = '''{handwritten}'''"), "");
    for fen in LAB_POSITIONS {
        assert_eq!(
            moves(&a, fen),
            moves(&b, fen),
            "{betza} ({}) vs {handwritten} in {fen}",
            to_dagaz(betza).unwrap()
        );
    }
}

#[test]
fn leapers_and_riders_match_hand_written_moves() {
    same_moves("N", "N,OM; E,OT; S,TR; W,RM");
    same_moves("D", "(+)\\1");
    same_moves("A", "O,O; M,M; T,T; R,R");
    same_moves("C", "N,N,OM; E,E,OT; S,S,TR; W,W,RM");
    same_moves(
        "Z",
        "N,O,O; N,M,M; E,O,O; E,T,T; S,T,T; S,R,R; W,R,R; W,M,M",
    );
    same_moves(
        "NN",
        "(N)(OM)([p]\\1\\2)*; (E)(OT)([p]\\1\\2)*; (S)(TR)([p]\\1\\2)*; (W)(RM)([p]\\1\\2)*",
    );
    same_moves("R3", "(+); (+)[p]\\1; (+)[p]\\1[p]\\1");
    same_moves("Q", "(*)([p]\\1)*");
    same_moves("K", "*");
}

#[test]
fn modifiers_match_hand_written_moves() {
    // Lame knight (the xiangqi horse) and lame alfil (the elephant).
    same_moves("nN", "N[p]OM; E[p]OT; S[p]TR; W[p]RM");
    same_moves("nA", "(X)[p]\\1");
    // Cannon, grasshopper.
    same_moves("mRcpR", "(+)[p](\\1[p])*; (+)([p]\\1)*[P]\\1([p]\\1)*[e]");
    same_moves("gQ", "(*)([p]\\1)*[P]\\1");
    // Directions: shogi silver, gold, lance, knight; a forward-only king.
    same_moves("FfW", "NOMRT");
    same_moves("WfF", "NOMEWS");
    same_moves("fR", "(N)([p]\\1)*");
    same_moves("ffN", "N,OM");
    same_moves("fK", "NOM");
    same_moves("bsN", "W,R; E,T");
    same_moves("vR", "(NS)([p]\\1)*");
    same_moves("sW", "EW");
    same_moves("bF", "RT");
    same_moves("frF", "O");
    // Two diagonal steps, the second straight on or turning 90 degrees.
    same_moves("afsF", "O[p],OTM; T[p],TOR; R[p],RTM; M[p],MOR");
    same_moves("cafW", "(+)[ex]\\1");
    // Move-only, capture-only.
    same_moves("mK", "*[p]");
    same_moves("cK", "*[e]");
}

#[test]
fn initial_moves_need_an_unmoved_piece() {
    // The chess pawn's double step, on a game whose setup puts the tester
    // on d4: there it counts as unmoved; anywhere else as moved.
    let game = lab_with("betza = 'fmWifmnD'", "");
    assert_eq!(
        moves(&game, "8/8/8/8/3T4/8/8/8 w - - 0 1"),
        v(&["d4d5", "d4d6"])
    );
    assert_eq!(
        moves(&game, "8/8/8/3s4/3T4/8/8/8 w - - 0 1"),
        Vec::<String>::new()
    );
    assert_eq!(moves(&game, "8/8/8/8/2T5/8/8/8 w - - 0 1"), v(&["c4c5"]));
}

/// The chu shogi Lion in XBetza against a hand-written Lion: single steps,
/// jumps to distance two over anything, a capture and a second step,
/// igui (capture and come back) and a pass through an empty neighbour.
#[test]
fn lion_matches_a_hand_written_lion() {
    same_moves("KNADcaKmcabK", "*; *,*[R]; *[ex],*; *[p],*");
}

#[test]
fn lion_igui_and_pass_are_generated() {
    let game = lab_with("betza = 'KNADcaKmcabK'", "");
    // Tester on d4 boxed in by own stones except an enemy on d5: it can
    // capture on d5 and stay (igui), but cannot pass (no empty neighbour).
    let boxed = "8/8/8/2SsS3/2STS3/2SSS3/8/8 w - - 0 1";
    // The 16 squares at distance two, the capture on d5, igui (d4d4xd5),
    // and capturing on d5 then stepping on to c6, d6 or e6. The capture
    // then d6 shares its squares with the jump to d6, so it writes its
    // capture out: `d4d6xd5`.
    let expected = v(&[
        "d4b2", "d4b3", "d4b4", "d4b5", "d4b6", "d4c2", "d4c6", "d4d2", "d4d6", "d4e2", "d4e6",
        "d4f2", "d4f3", "d4f4", "d4f5", "d4f6", "d4d5", "d4d4xd5", "d4c6xd5", "d4d6xd5", "d4e6xd5",
    ]);
    assert_eq!(moves(&game, boxed), expected);
    // With an empty neighbour (c3) it may also pass.
    let open = "8/8/8/2SsS3/2STS3/3SS3/8/8 w - - 0 1";
    let list = moves(&game, open);
    assert!(list.contains(&"d4d4".to_string()), "{list:?}");
    assert!(list.contains(&"d4d4xd5".to_string()), "{list:?}");
}

#[test]
fn a_bad_betza_key_names_the_piece_and_the_part() {
    let source = common::lab_source("betza = 'fNy'", "");
    let err = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    assert!(err.contains("pieces.Tester.betza"), "{err}");
    assert!(err.contains("modifiers with no atom"), "{err}");
    let source = common::lab_source("betza = 'qN'", "");
    let err = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unsupported modifier 'q'"), "{err}");
}
