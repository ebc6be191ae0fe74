//! The computer players find forced wins at small depths, and matches run.

use dagaz::ai::arena::{GameSetup, play_game, write_record};
use dagaz::ai::search::{Searcher, WIN};
use dagaz::ai::{Control, Engine, Limit, choose};
use dagaz::load::load_game;
use dagaz::text::movetext;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The engine's move in a position, as text, and its score.
fn best(game_name: &str, fen_text: &str, engine: Engine) -> (String, Option<i32>) {
    let game = load_game(game_name).unwrap();
    let mut pos = game.parse_position(fen_text).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let choice = choose(&game, &mut pos, engine, &mut rng)
        .unwrap()
        .expect("a move");
    (movetext::text(&game, choice.mv.as_ref()), choice.score)
}

#[test]
fn alpha_beta_finds_mate_in_one() {
    let (mv, score) = best(
        "chess",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        Engine::AlphaBeta(Limit::Depth(2)),
    );
    assert_eq!(mv, "a1a8");
    assert_eq!(score, Some(WIN - 1));
}

#[test]
fn alpha_beta_finds_mate_in_two() {
    // 1. Nf6+ gxf6 2. Bxf7#
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let (mv, score) = best("chess", fen, Engine::AlphaBeta(Limit::Depth(4)));
    assert_eq!(mv, "d5f6");
    assert_eq!(score, Some(WIN - 3));
}

#[test]
fn two_threads_find_the_mate_in_two() {
    // The same position with a helper thread sharing the table.
    let game = load_game("chess").unwrap();
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let mut pos = game.parse_position(fen).unwrap();
    let control = Control {
        threads: 2,
        ..Control::unbounded()
    };
    let choice = Searcher::new(&game, Limit::Depth(4))
        .with_control(control)
        .best(&mut pos)
        .unwrap()
        .expect("a move");
    assert_eq!(movetext::text(&game, choice.mv.as_ref()), "d5f6");
    assert_eq!(choice.score, Some(WIN - 3));
    // The position is as it was.
    assert_eq!(pos.hash(), game.parse_position(fen).unwrap().hash());
}

#[test]
fn alpha_beta_wins_material_in_checkers() {
    // 25-21 gives a man: 15x22 is forced, then 21x14x7 takes two.
    let (mv, score) = best(
        "checkers",
        "W:W11,18,24,25:B10,15,17,23",
        Engine::AlphaBeta(Limit::Depth(6)),
    );
    assert_eq!(mv, "25-21");
    assert!(score.is_some_and(|s| s >= 90), "{score:?}");
}

#[test]
fn mcts_finds_mate_in_one() {
    let engine = Engine::Mcts {
        limit: Limit::Nodes(3000),
        greedy: false,
    };
    let (mv, _) = best("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", engine);
    assert_eq!(mv, "a1a8");
}

#[test]
fn alpha_beta_beats_the_random_mover() {
    let game = std::sync::Arc::new(load_game("checkers").unwrap());
    for seed in 0..2 {
        let engines = if seed == 0 {
            [Engine::AlphaBeta(Limit::Depth(3)), Engine::Random]
        } else {
            [Engine::Random, Engine::AlphaBeta(Limit::Depth(3))]
        };
        let setup = GameSetup {
            engines,
            opening_plies: 0,
            max_plies: 300,
            seed,
            start_seed: None,
        };
        let record = play_game(&game, &setup).unwrap();
        match record.result {
            dagaz::game::GameResult::Win { winner, .. } => {
                assert_eq!(winner as u64, seed, "{:?}", record.moves)
            }
            other => panic!("{other:?} after {:?}", record.moves),
        }
    }
}

#[test]
fn games_are_repeatable_with_a_seed() {
    let game = std::sync::Arc::new(load_game("fanorona").unwrap());
    let setup = GameSetup {
        engines: [
            Engine::Random,
            Engine::Mcts {
                limit: Limit::Nodes(50),
                greedy: true,
            },
        ],
        opening_plies: 2,
        max_plies: 60,
        seed: 9,
        start_seed: None,
    };
    let a = play_game(&game, &setup).unwrap();
    let b = play_game(&game, &setup).unwrap();
    assert_eq!(a.moves, b.moves);
    assert!(!a.moves.is_empty());
}

#[test]
fn match_games_of_a_shuffled_game_start_from_the_drawn_start() {
    let game = std::sync::Arc::new(dagaz::import::open_game("chess:chess960").unwrap());
    let setup = |seed, start_seed| GameSetup {
        engines: [Engine::Random; 2],
        opening_plies: 0,
        max_plies: 6,
        seed,
        start_seed,
    };
    // Two games of a pair: the same start, other moves.
    let a = play_game(&game, &setup(1, Some(40))).unwrap();
    let b = play_game(&game, &setup(2, Some(40))).unwrap();
    assert_eq!(game.write_position(&a.start), game.write_position(&b.start));
    assert_ne!(a.moves, b.moves);
    // Some of eight seeds draw a start that is not the setup.
    let setup_text = game.write_position(game.setup());
    let starts: Vec<String> = (0..8)
        .map(|s| game.write_position(&play_game(&game, &setup(1, Some(s))).unwrap().start))
        .collect();
    assert!(starts.iter().any(|s| *s != setup_text), "{starts:?}");
    // Without a start seed, the setup.
    let plain = play_game(&game, &setup(1, None)).unwrap();
    assert_eq!(game.write_position(&plain.start), setup_text);
    // The record names its start, and reads back to the same game.
    let text = write_record(&game, &a, true, ["a", "b"], 1).unwrap();
    assert!(
        text.contains(&format!("[FEN \"{}\"]", game.write_position(&a.start))),
        "{text}"
    );
    let read = dagaz::record::read(&text).unwrap();
    assert_eq!(
        dagaz::record::game_name(&read[0]).as_deref(),
        Some("chess:chess960")
    );
    let replayed = dagaz::record::load(game.clone(), &read[0]).unwrap();
    assert_eq!(replayed.texts(), a.moves.as_slice());
    assert_eq!(
        game.write_position(replayed.start()),
        game.write_position(&a.start)
    );
}

#[test]
fn pieces_without_values_are_worth_their_mobility() {
    // Chess with every `value` taken out of the file: the estimate from
    // mobility orders the pieces as the usual values do.
    let source = include_str!("../../../../games/chess.toml");
    let mut table: toml::Table = toml::from_str(source).unwrap();
    for (_, piece) in table["pieces"].as_table_mut().unwrap().iter_mut() {
        piece.as_table_mut().unwrap().remove("value");
    }
    let game = dagaz::load::load_str(&table.to_string(), "chess-unvalued.toml", "chess").unwrap();
    let values = dagaz::ai::eval::learned_values(&game).expect("estimated");
    let value = |name: &str| values[game.piece_by_name(name).unwrap() as usize];
    assert_eq!(value("King"), 0);
    assert!(value("Pawn") < value("Knight"), "{values:?}");
    assert!(value("Knight") < value("Bishop"), "{values:?}");
    assert!(value("Bishop") < value("Rook"), "{values:?}");
    assert!(value("Rook") < value("Queen"), "{values:?}");
    // The search then wins material in it as in chess: the mate in one.
    let mut pos = game
        .parse_position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        .unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let choice = choose(
        &game,
        &mut pos,
        Engine::AlphaBeta(Limit::Depth(2)),
        &mut rng,
    )
    .unwrap()
    .unwrap();
    assert_eq!(movetext::text(&game, choice.mv.as_ref()), "a1a8");
    // A game whose file values its pieces keeps its values.
    assert!(dagaz::ai::eval::learned_values(&load_game("chess").unwrap()).is_none());
}

/// White's evaluation of a chess position given as FEN.
fn chess_score(fen_text: &str) -> i32 {
    use dagaz::ai::eval::{Evaluator, Material};
    let game = load_game("chess").unwrap();
    let pos = game.parse_position(fen_text).unwrap();
    Material::new(&game).evaluate(&game, &pos, 0)
}

#[test]
fn the_king_shelters_in_the_middlegame_and_centralises_in_the_endgame() {
    // The same White King on g1 or on e4, with all the pieces on the
    // board and then with none but the Kings and a pawn each.
    let full_g1 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BKR w - - 0 1";
    let full_e4 = "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQ1B1R w - - 0 1";
    let bare_g1 = "4k3/p7/8/8/8/8/P7/6K1 w - - 0 1";
    let bare_e4 = "4k3/p7/8/8/4K3/8/P7/8 w - - 0 1";
    assert!(chess_score(full_g1) > chess_score(full_e4) + 50);
    assert!(chess_score(bare_e4) > chess_score(bare_g1) + 50);
}

#[test]
fn square_hints_may_be_a_picture_of_the_board() {
    use dagaz::ai::eval::{Evaluator, Material};
    use dagaz::load::load_str;
    let named = common_lab("squares = { d4 = 30, a8 = -5 }");
    let mut picture = String::from("squares = \"\"\"\n-5 0 0 0 0 0 0 0\n");
    picture.push_str(&"0 0 0 0 0 0 0 0\n".repeat(3));
    picture.push_str("0 0 0 30 0 0 0 0\n");
    picture.push_str(&"0 0 0 0 0 0 0 0\n".repeat(3));
    picture.push_str("\"\"\"");
    let by_picture = common_lab(&picture);
    for source in [named, by_picture] {
        let game = load_str(&source, "lab.toml", "lab").unwrap();
        let pos = game.initial_position();
        // The Tester (worth 10) stands on d4.
        assert_eq!(Material::new(&game).evaluate(&game, &pos, 0), 40);
    }
    let short = common_lab("squares = \"1 2 3\"");
    let err = load_str(&short, "lab.toml", "lab").unwrap_err().to_string();
    assert!(
        err.contains("pieces.Tester.squares: 3 numbers for a board of 64 squares"),
        "{err}"
    );
    let word = common_lab("squares = \"1 2 x\"");
    let err = load_str(&word, "lab.toml", "lab").unwrap_err().to_string();
    assert!(
        err.contains("pieces.Tester.squares: 'x' is not a whole number"),
        "{err}"
    );
    let wrong = common_lab("endgame_squares = 5");
    let err = load_str(&wrong, "lab.toml", "lab").unwrap_err().to_string();
    assert!(err.contains("a picture of the board"), "{err}");
}

/// The lab game of the common tests with `line` in its Tester's section.
fn common_lab(line: &str) -> String {
    crate::common::lab_source(&format!("moves = \"N\"\nvalue = 10\n{line}"), "")
}
