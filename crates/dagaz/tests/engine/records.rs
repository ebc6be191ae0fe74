//! Game records: a published game read from PGN, KIF with its special
//! moves, PDN with short captures, and round trips — 20 games each of
//! chess, xiangqi (PGN), shogi (KIF), international and Russian draughts
//! and checkers (PDN), written, read back and replayed exactly. (SAN is
//! checked move by move against python-chess and Fairy-Stockfish in the
//! Python tests and `scripts/fsf-diff.py`.)

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::record::{self, Format, RecordError};
use dagaz::session::Session;

fn game(name: &str) -> Arc<Game> {
    Arc::new(load_game(name).unwrap())
}

fn load_first(game: &Arc<Game>, text: &str) -> Result<Session, RecordError> {
    let records = record::read(text)?;
    record::load(game.clone(), &records[0])
}

/// A session of `name` from the position string `fen`, with the SAN of
/// its legal moves.
fn sans_at(name: &str, fen: &str) -> (Session, Vec<String>) {
    let game = game(name);
    let session = Session::from_position(game.clone(), game.parse_position(fen).unwrap()).unwrap();
    let mut pos = session.position_copy();
    let sans = dagaz::text::san::texts(&game, &mut pos, session.legal()).unwrap();
    (session, sans)
}

/// The "Opera game", Paris 1858: Morphy against the Duke of Brunswick and
/// Count Isouard, as every chess book gives it.
const OPERA: &str = r#"[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

#[test]
fn the_opera_game_ends_in_mate_and_is_written_back_the_same() {
    let chess = game("chess");
    let records = record::read(OPERA).unwrap();
    // A PGN without a Variant names no game (chess, by the standard).
    assert_eq!(record::game_name(&records[0]), None);
    let session = record::load(chess.clone(), &records[0]).unwrap();
    assert_eq!(session.ply(), 33);
    assert!(matches!(
        session.result(),
        Some(GameResult::Win { winner: 0, reason }) if reason.contains("checkmate")
    ));
    assert!(!session.result_declared());
    let tags: Vec<(String, String)> = records[0].tags.clone();
    let written = record::write(&session, &tags).unwrap();
    let again = record::read(&written).unwrap();
    assert_eq!(again[0].moves, records[0].moves);
    assert!(written.contains("12. O-O-O Rd8"), "{written}");
    assert!(written.contains("17. Rd8# 1-0"), "{written}");
    assert!(written.contains("[Termination \"checkmate\"]"), "{written}");
}

#[test]
fn loose_san_is_read_as_pgn_readers_read_it() {
    let chess = game("chess");
    // Castling with zeros, a missing check mark, a needless file, `e.p.`.
    let text = "1. e4 Nf6 2. e5 d5 3. exd6 e.p. Nc6 4. Ngf3 Bg4 5. Bb5 e5 6. 0-0 Qd7 7. Bxc6 *";
    let session = load_first(&chess, text).unwrap();
    assert_eq!(session.texts()[4], "e5d6xd5");
    assert_eq!(session.texts()[10], "e1g1");
    assert!(session.result().is_none());
}

#[test]
fn a_record_names_the_move_that_does_not_apply() {
    let chess = game("chess");
    let err = load_first(&chess, "1. e4 e5 2. Ke3 *").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("move 2 ('Ke3'): 'Ke3' is not a legal move here"),
        "{err}"
    );
    let err = load_first(&chess, "1. f3 e5 2. g4 Qh4# 3. a3 0-1").unwrap_err();
    assert!(
        err.to_string()
            .contains("move 3 ('a3'): the game is already over"),
        "{err}"
    );
    let err = load_first(&chess, "1. f3 e5 2. g4 Qh4# 1-0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the record says the game ended 1-0, but after its moves Black wins (checkmate)"
    );
    // Too little material to mate ends the game by itself: nothing to
    // claim, so a record that plays on is refused.
    let err = load_first(
        &chess,
        "[FEN \"8/8/8/8/8/8/3k4/K7 w - - 0 1\"]\n1. Kb1 Kd1 *",
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("move 1 ('Kb1'): the game is already over"),
        "{err}"
    );
    let err = load_first(&chess, "[FEN \"8/8/8 w - - 0 1\"]\n1. e4 *").unwrap_err();
    assert!(
        err.to_string().starts_with("the record's start position"),
        "{err}"
    );
}

/// The bishop exchange opening of shogi, with a promotion, a capture on
/// the same square (`同`) and a drop.
const KIF: &str = "#KIF version=2.0 encoding=UTF-8
開始日時：2026/11/26
手合割：平手
先手：Sente
後手：Gote
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:01/00:00:01)
   3 ２二角成(88)   ( 0:01/00:00:02)
   4 同　銀(31)   ( 0:01/00:00:02)
   5 ４五角打   ( 0:01/00:00:03)
   6 投了
まで5手で先手の勝ち
";

#[test]
fn kif_with_promotion_same_square_and_drop() {
    let shogi = game("shogi");
    let records = record::read(KIF).unwrap();
    assert_eq!(record::game_name(&records[0]).as_deref(), Some("shogi"));
    assert_eq!(records[0].tag("White"), Some("Sente"));
    let session = record::load(shogi.clone(), &records[0]).unwrap();
    assert_eq!(session.texts(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert!(matches!(
        session.result(),
        Some(GameResult::Win { winner: 0, .. })
    ));
    assert!(session.result_declared());
    let tags = vec![
        ("White".to_string(), "Sente".to_string()),
        ("Black".to_string(), "Gote".to_string()),
    ];
    let written = record::write(&session, &tags).unwrap();
    for line in [
        "   3 ２二角成(88)",
        "   4 同　銀(31)",
        "   5 ４五角打",
        "   6 投了",
    ] {
        assert!(written.contains(line), "{line} in\n{written}");
    }
    assert!(written.contains("まで5手で先手の勝ち"), "{written}");
}

#[test]
fn kif_from_a_position_carries_its_board_diagram() {
    let shogi = game("shogi");
    let sfen = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/2P6/PP1P1PPPP/1B5R1/LNSGKGSNL w Pp 2";
    let start = shogi.parse_position(sfen).unwrap();
    let mut session = Session::from_position(shogi.clone(), start).unwrap();
    session.play_text("P*5e").unwrap();
    let written = record::write(&session, &[]).unwrap();
    assert!(written.contains("後手番"), "{written}");
    assert!(written.contains("先手の持駒：歩"), "{written}");
    let loaded = load_first(&shogi, &written).unwrap();
    // The diagram carries the board, the side to move and the hands; KIF
    // numbers the moves after it from 1, so the start is read as move 1.
    assert_eq!(
        shogi.write_position(loaded.start()),
        "lnsgkgsnl/1r5b1/pppp1pppp/9/9/2P6/PP1P1PPPP/1B5R1/LNSGKGSNL w Pp 1"
    );
    assert_eq!(loaded.texts(), ["P*5e"]);
}

#[test]
fn kif_errors_name_the_line() {
    let err =
        record::read("手数----指手---------\n   1 ７六歩(77)\n   3 ３四歩(33)\n").unwrap_err();
    assert_eq!(err.to_string(), "line 3: move 3 where move 2 was expected");
    let err = record::read("手数----指手---------\n   1 ７六犬(77)\n").unwrap_err();
    assert_eq!(err.to_string(), "line 2: '７六犬(77)' is not a KIF move");
}

#[test]
fn shift_jis_kif_files_are_decoded() {
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(KIF);
    assert!(std::str::from_utf8(&bytes).is_err());
    let text = record::decode(&bytes);
    assert_eq!(record::read(&text).unwrap()[0].moves.len(), 5);
}

#[test]
fn pdn_captures_may_be_written_with_start_and_end_only() {
    let draughts = game("international-draughts");
    // White's man on 33 takes 28 and 18: 33x22x13, written 33x13.
    let text = "[GameType \"20\"]\n[FEN \"W:W33:B28,18,1\"]\n1. 33x13 *";
    let records = record::read(text).unwrap();
    assert_eq!(
        record::game_name(&records[0]).as_deref(),
        Some("international-draughts")
    );
    let session = record::load(draughts.clone(), &records[0]).unwrap();
    assert_eq!(session.texts(), ["33x22x13"]);
}

/// Plays `count` random games (every third ended by a resignation at a
/// random ply), writes each as its record, reads the whole file back and
/// checks that every game is replayed exactly, with its result.
fn round_trip(name: &str, format: Format, count: u64) {
    let g = game(name);
    assert_eq!(Format::of(&g), format, "{name}");
    let mut file = String::new();
    let mut games = Vec::new();
    for seed in 0..count {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut session = Session::new(g.clone()).unwrap();
        let resign_at = if seed % 3 == 0 {
            rng.random_range(1..60)
        } else {
            usize::MAX
        };
        while !session.is_over() && session.ply() < 300 {
            if session.ply() == resign_at {
                let winner = 1 - session.side();
                session.declare(GameResult::Win {
                    winner,
                    reason: "resignation".into(),
                });
                break;
            }
            let i = rng.random_range(0..session.legal().len());
            session.play(i).unwrap();
        }
        let tags = vec![
            ("Event".to_string(), format!("round trip {seed}")),
            ("White".to_string(), "first".to_string()),
            ("Black".to_string(), "second".to_string()),
        ];
        let text = record::write(&session, &tags).unwrap();
        if format == Format::Kif {
            // One game per KIF file.
            let loaded =
                load_first(&g, &text).unwrap_or_else(|e| panic!("{name} {seed}: {e}\n{text}"));
            same_game(&g, &session, &loaded, seed);
        } else {
            file += &text;
            file.push('\n');
            games.push(session);
        }
    }
    if format == Format::Kif {
        return;
    }
    let records = record::read(&file).unwrap();
    assert_eq!(records.len(), games.len(), "{name}");
    for (seed, (record, session)) in records.iter().zip(&games).enumerate() {
        let named = record::game_name(record).unwrap_or_else(|| "chess".into());
        assert_eq!(named, name);
        assert_eq!(
            record.tag("Event"),
            Some(format!("round trip {seed}").as_str())
        );
        let loaded =
            record::load(g.clone(), record).unwrap_or_else(|e| panic!("{name} {seed}: {e}"));
        same_game(&g, session, &loaded, seed as u64);
    }
}

fn same_game(g: &Game, played: &Session, loaded: &Session, seed: u64) {
    assert_eq!(loaded.texts(), played.texts(), "{} game {seed}", g.name);
    let outcome = |s: &Session| match s.result() {
        Some(GameResult::Win { winner, .. }) => Some(Some(*winner)),
        Some(GameResult::Draw { .. }) => Some(None),
        None => None,
    };
    // A game cut at 300 plies has no result ("*").
    assert_eq!(outcome(loaded), outcome(played), "{} game {seed}", g.name);
}

#[test]
fn twenty_chess_games_round_trip_through_pgn() {
    round_trip("chess", Format::Pgn, 20);
}

#[test]
fn twenty_xiangqi_games_round_trip_through_pgn() {
    round_trip("xiangqi", Format::Pgn, 20);
}

#[test]
fn twenty_shogi_games_round_trip_through_kif() {
    round_trip("shogi", Format::Kif, 20);
}

#[test]
fn twenty_draughts_games_of_each_kind_round_trip_through_pdn() {
    round_trip("international-draughts", Format::Pdn, 20);
    round_trip("russian-draughts", Format::Pdn, 20);
    round_trip("checkers", Format::Pdn, 20);
    round_trip("turkish-draughts", Format::Pdn, 20);
    for game in [
        "italian-draughts",
        "thai-draughts",
        "frisian-draughts",
        "international-draughts:killer",
        "spanish-draughts",
        "spanish-draughts:portuguese",
    ] {
        round_trip(game, Format::Pdn, 10);
    }
}

#[test]
fn variant_names_of_lichess_and_fairy_stockfish_name_dagaz_games() {
    for (variant, game) in [
        ("Standard", "chess"),
        ("From Position", "chess"),
        ("King of the Hill", "chess:king-of-the-hill"),
        ("Crazyhouse", "chess:crazyhouse"),
        ("Three-check", "chess:three-check"),
        ("3check", "chess:three-check"),
        ("Chess960", "chess:chess960"),
        ("chess:atomic", "chess:atomic"),
        ("xiangqi", "xiangqi"),
    ] {
        let text = format!("[Variant \"{variant}\"]\n\n*");
        let records = record::read(&text).unwrap();
        assert_eq!(
            record::game_name(&records[0]).as_deref(),
            Some(game),
            "{variant}"
        );
    }
}

#[test]
fn the_variant_tag_written_reads_back_as_the_same_game() {
    let games = dagaz::load::library::fairy_stockfish_names()
        .into_iter()
        .map(|(_, game)| game)
        .chain(["chess:giveaway", "horde", "checkers", "ultima"]);
    for game in games {
        let tag = record::variant_tag(game);
        let text = format!("[Variant \"{tag}\"]\n\n*");
        let records = record::read(&text).unwrap();
        assert_eq!(
            record::game_name(&records[0]).as_deref(),
            Some(game),
            "{tag}"
        );
    }
}

#[test]
fn unclaimed_draws_are_played_past_and_a_recorded_win_stands() {
    let chess = game("chess");
    // The setup stands a third time after 4... Ng8; the players go on.
    let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 1-0";
    let session = load_first(&chess, text).unwrap();
    assert_eq!(session.ply(), 10);
    assert!(matches!(
        session.result(),
        Some(GameResult::Win { winner: 0, .. })
    ));
    // Written again, past the same draw.
    let written = record::write(&session, &[]).unwrap();
    assert!(written.contains("4. Ng1 Ng8 5. e4 e5 1-0"), "{written}");
}

#[test]
fn chess960_castling_whose_rook_stays_is_o_o() {
    let chess960 = game("chess:chess960");
    let text = "[Variant \"Chess960\"]\n[FEN \"rnbqkr2/pppppppp/8/8/8/8/PPPPPPPP/RNBQKR2 w FAfa - 0 1\"]\n\n1. O-O *";
    let session = load_first(&chess960, text).unwrap();
    assert_eq!(session.ply(), 1);
    let written = record::write(&session, &[]).unwrap();
    assert!(written.contains("1. O-O *"), "{written}");
}

#[test]
fn a_winner_among_four_players_is_a_tag() {
    let four = game("four-player-chess");
    let mut session = Session::new(four.clone()).unwrap();
    session.play(0).unwrap();
    session.declare(GameResult::Win {
        winner: 2,
        reason: "the others resigned".into(),
    });
    let written = record::write(&session, &[]).unwrap();
    let winner = &four.players[2].name;
    assert!(
        written.contains(&format!("[Winner \"{winner}\"]")),
        "{written}"
    );
    let loaded = load_first(&four, &written).unwrap();
    assert!(matches!(
        loaded.result(),
        Some(GameResult::Win { winner: 2, .. })
    ));
    // A Winner tag naming no player leaves the score token to decide.
    let loaded = load_first(&four, "[Winner \"Nobody\"]\n\n1-0").unwrap();
    assert!(matches!(
        loaded.result(),
        Some(GameResult::Win { winner: 0, .. })
    ));
}

#[test]
fn kif_endings_follow_the_side_to_move() {
    let shogi = game("shogi");
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    // Gote moves first from the diagram; sente, to move, resigns.
    let start = shogi.parse_position(sfen).unwrap();
    let mut session = Session::from_position(shogi.clone(), start.clone()).unwrap();
    session.play_text("3c3d").unwrap();
    session.declare(GameResult::Win {
        winner: 1,
        reason: "resignation".into(),
    });
    let written = record::write(&session, &[]).unwrap();
    assert!(written.contains("   2 投了"), "{written}");
    let loaded = load_first(&shogi, &written).unwrap();
    assert!(matches!(
        loaded.result(),
        Some(GameResult::Win { winner: 1, .. })
    ));
    // A forfeit for an illegal move (a match's engine) is 反則負け.
    let mut forfeited = Session::from_position(shogi.clone(), start.clone()).unwrap();
    forfeited.play_text("3c3d").unwrap();
    forfeited.declare(GameResult::Win {
        winner: 1,
        reason: "usi:engine played the illegal move 1a1a".into(),
    });
    let written = record::write(&forfeited, &[]).unwrap();
    assert!(written.contains("   2 反則負け"), "{written}");
    let loaded = load_first(&shogi, &written).unwrap();
    assert!(matches!(
        loaded.result(),
        Some(GameResult::Win { winner: 1, .. })
    ));
    // Gote resigns while sente is to move: no ending line, the summary says it.
    let mut session = Session::from_position(shogi.clone(), start).unwrap();
    session.play_text("3c3d").unwrap();
    session.declare(GameResult::Win {
        winner: 0,
        reason: "resignation".into(),
    });
    let written = record::write(&session, &[]).unwrap();
    assert!(
        !written.contains("投了") && written.contains("まで1手で先手の勝ち"),
        "{written}"
    );
    let loaded = load_first(&shogi, &written).unwrap();
    assert!(matches!(
        loaded.result(),
        Some(GameResult::Win { winner: 0, .. })
    ));
}

#[test]
fn kif_side_lines_handicaps_and_hand_counts() {
    let shogi = game("shogi");
    let with_side_line = format!("{KIF}\n変化：3手\n   3 ２二角不成(88)\n");
    assert_eq!(load_first(&shogi, &with_side_line).unwrap().ply(), 5);
    let handicap = "手合割：香落ち\n手数----指手---------\n   1 ３四歩(33)\n";
    let err = load_first(&shogi, handicap).unwrap_err();
    assert!(
        err.to_string()
            .contains("the handicap '香落ち' is not known"),
        "{err}"
    );
}

#[test]
fn marks_and_encodings_of_other_programs() {
    let chess = game("chess");
    // A byte-order mark, and a comment in Windows-1252 ("gagné").
    let mut bytes = b"\xEF\xBB\xBF[Event \"x\"]\n\n1. e4 *".to_vec();
    assert_eq!(
        load_first(&chess, &record::decode(&bytes)).unwrap().ply(),
        1
    );
    assert_eq!(load_first(&chess, "\u{FEFF}1. e4 *").unwrap().ply(), 1);
    bytes = b"[Event \"x\"]\n\n1. e4 {gagn\xE9} e5 *".to_vec();
    let text = record::decode(&bytes);
    assert!(text.contains("gagné"), "{text}");
    assert_eq!(load_first(&chess, &text).unwrap().ply(), 2);
    let draughts = game("international-draughts");
    let pdn = "[GameType \"20\"]\n1. 32-28! 19-23?! *";
    assert_eq!(load_first(&draughts, pdn).unwrap().ply(), 2);
}

#[test]
fn an_atomic_king_capture_that_blows_up_its_own_pieces_is_no_castling() {
    // Found by the SAN comparison with Fairy-Stockfish (seed 42): the
    // explosion takes the King's own neighbours off the board.
    let fen = "4kbn1/r6r/bn1pBp1p/pp2pPp1/1P2NKPQ/P1P1P2P/8/RN6 w - - 3 28";
    let (mut session, sans) = sans_at("chess:nocheckatomic", fen);
    assert!(
        sans.contains(&"Kxe5".to_string()) && sans.contains(&"Kxg5".to_string()),
        "{sans:?}"
    );
    assert!(!sans.iter().any(|s| s.starts_with("O-O")), "{sans:?}");
    session.play_text("Kxe5").unwrap();
}

#[test]
fn a_sittuyin_promotion_is_written_with_its_squares() {
    // Found by the SAN comparison with Fairy-Stockfish (CI, stop 26): the
    // General set down in place of the Pawn is `e5=F`, or `e5f6=F` when it
    // steps diagonally, as Fairy-Stockfish writes them.
    let fen = "8/2k5/P5rr/2f1P3/3PsRp1/2pR4/p6N/S3N2K[] w - - 0 59";
    let (mut session, sans) = sans_at("sittuyin", fen);
    for written in ["e5=F", "e5f6=F", "e6"] {
        assert!(sans.contains(&written.to_string()), "{written}: {sans:?}");
    }
    session.play_text("e5f6=F").unwrap();
    let after = session.game().write_position_fsf(session.position());
    assert!(after.starts_with("8/2k5/P4Frr/2f5/"), "{after}");
}

#[test]
fn a_capture_that_turns_to_stone_is_written_as_a_capture() {
    // Found by the SAN comparison with Fairy-Stockfish (CI, 2026-11-28):
    // petrified chess's capture is two parts, the second turning the
    // piece to stone where it landed; SAN writes it as the capture it is,
    // `Qxf2`, as Fairy-Stockfish does, not in dagaz's move text.
    let fen = "rnb2bn1/*pp1k2p/3p1p2/1N1Q1p1r/1P3q1p/4P2P/1PP1PPP1/2B1KBNR b K - 2 14";
    let (mut session, sans) = sans_at("petrified", fen);
    let index = session.find("f4xf2xf2").unwrap();
    assert_eq!(sans[index], "Qxf2", "{sans:?}");
    session.play_text("Qxf2").unwrap();
    assert_eq!(session.texts().last().unwrap(), "f4xf2xf2");
}
