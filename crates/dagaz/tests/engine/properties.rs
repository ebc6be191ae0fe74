//! Invariants on random games: make/undo restores the position and its
//! hash exactly, the incremental hash equals the recomputed one, and
//! position strings round-trip.

use crate::common;

use dagaz::game::Game;
use dagaz::load::load_game;
use dagaz::movegen::Generator;
use dagaz::position::Position;
use dagaz::position::{Move, MoveList};
use dagaz::text::fen;
use proptest::prelude::*;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn chess() -> &'static Game {
    static GAME: std::sync::OnceLock<Game> = std::sync::OnceLock::new();
    GAME.get_or_init(|| load_game("chess").unwrap())
}

/// Plays the moves chosen by `picks` (indices modulo the number of legal
/// moves), checking the hash after each; returns the moves played.
fn random_walk(game: &Game, pos: &mut Position, picks: &[usize]) -> Vec<Move> {
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    let mut played = Vec::new();
    for &p in picks {
        generator.legal(game, pos, &mut list).unwrap();
        if list.is_empty() {
            break;
        }
        let mv = list.get(p % list.len()).to_owned();
        game.make(pos, mv.as_ref());
        assert_eq!(pos.hash(), pos.recompute_hash(), "after {:?}", mv.header);
        played.push(mv);
    }
    played
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn make_undo_restores_everything(picks in prop::collection::vec(0usize..1000, 1..60), start in 0usize..2) {
        let game = chess();
        let mut pos = if start == 0 {
            game.initial_position()
        } else {
            fen::parse(game, KIWIPETE, Some(&game.initial_position())).unwrap()
        };
        let before = pos.clone();
        let played = random_walk(game, &mut pos, &picks);
        for mv in played.iter().rev() {
            game.undo(&mut pos, mv.as_ref());
            prop_assert_eq!(pos.hash(), pos.recompute_hash());
        }
        prop_assert_eq!(&pos, &before);
    }

    #[test]
    fn position_strings_round_trip(picks in prop::collection::vec(0usize..1000, 0..80)) {
        let game = chess();
        let mut pos = game.initial_position();
        random_walk(game, &mut pos, &picks);
        let text = fen::write(game, &pos);
        let again = fen::parse(game, &text, Some(&game.initial_position())).unwrap();
        prop_assert_eq!(fen::write(game, &again), text.clone());
        // The same position gives the same legal moves.
        let mut a = pos.clone();
        let mut b = again.clone();
        prop_assert_eq!(common::moves_in(game, &mut a), common::moves_in(game, &mut b));
    }

    #[test]
    fn generation_leaves_the_position_untouched(picks in prop::collection::vec(0usize..1000, 0..40)) {
        let game = chess();
        let mut pos = game.initial_position();
        random_walk(game, &mut pos, &picks);
        let before = pos.clone();
        let mut list = MoveList::new();
        Generator::new().legal(game, &mut pos, &mut list).unwrap();
        prop_assert_eq!(pos, before);
    }
}

#[test]
fn fen_import_sets_castling_and_en_passant() {
    let game = chess();
    let text = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq f6 0 3";
    let mut pos = fen::parse(game, text, Some(&game.initial_position())).unwrap();
    assert_eq!(fen::write(game, &pos), text);
    let moves = common::moves_in(game, &mut pos);
    assert!(moves.contains(&"e5f6xf5".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("e5d6")), "{moves:?}");
}

#[test]
fn castling_rights_follow_the_pieces() {
    let game = chess();
    let mut pos = fen::parse(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", None).unwrap();
    let moves = common::moves_in(game, &mut pos);
    assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    common::play(game, &mut pos, "h1h2");
    common::play(game, &mut pos, "a8a7");
    assert!(
        fen::write(game, &pos).contains(" Qk "),
        "{}",
        fen::write(game, &pos)
    );
    let moves = common::moves_in(game, &mut pos);
    assert!(!moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
}

/// `Generator::random_legal` picks a legal move whenever there is one,
/// none when there is none, and in time every legal move: in random
/// games of chess, shogi, xiangqi and janggi (which it serves from the
/// pseudo-legal moves).
#[test]
fn random_legal_picks_legal_moves() {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    let mut rng = StdRng::seed_from_u64(5);
    for name in ["chess", "shogi", "xiangqi", "janggi"] {
        let game = load_game(name).unwrap();
        let mut generator = Generator::new();
        let (mut legal, mut tried) = (MoveList::new(), MoveList::new());
        for _ in 0..20 {
            let mut pos = game.initial_position();
            for _ in 0..200 {
                generator.legal(&game, &mut pos, &mut legal).unwrap();
                let chosen = generator
                    .random_legal(&game, &mut pos, &mut rng, &mut tried)
                    .unwrap();
                let Some(i) = chosen else {
                    assert!(legal.is_empty(), "{name}: a legal move was missed");
                    break;
                };
                let mv = tried.get(i).to_owned();
                assert!(
                    legal.index_of(mv.as_ref()).is_some(),
                    "{name}: {mv:?} is not legal"
                );
                game.make(&mut pos, mv.as_ref());
            }
        }
    }
    // Every one of the 20 first moves of chess comes up.
    let game = chess();
    let mut pos = game.initial_position();
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..1000 {
        let i = generator
            .random_legal(game, &mut pos, &mut rng, &mut list)
            .unwrap()
            .unwrap();
        seen.insert(format!("{:?}", list.get(i).changes));
    }
    assert_eq!(seen.len(), 20);
}

/// A checkmated side has no random move.
#[test]
fn random_legal_finds_none_when_mated() {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    let game = chess();
    let setup = game.initial_position();
    // Fool's mate.
    let text = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let mut pos = fen::parse(game, text, Some(&setup)).unwrap();
    let mut list = MoveList::new();
    let mut rng = StdRng::seed_from_u64(1);
    let chosen = Generator::new()
        .random_legal(game, &mut pos, &mut rng, &mut list)
        .unwrap();
    assert_eq!(chosen, None);
}

/// The moves of `list` that capture, by what they change.
fn capturing_moves(list: &MoveList) -> Vec<(Vec<dagaz::position::Change>, u64)> {
    list.iter()
        .filter(|m| m.header.captures > 0)
        .map(|m| (m.changes.to_vec(), m.header.hash_delta))
        .collect()
}

/// `Generator::captures_to_try` (the quiescence search's generation)
/// lists exactly the capturing moves `moves_to_try` lists, and counts as
/// many moves in all: in random games of chess, shogi, xiangqi, janggi
/// (streamed where its generals are apart) and checkers (served in
/// full, not streaming).
#[test]
fn captures_to_try_lists_the_captures_and_counts_every_move() {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    let mut rng = StdRng::seed_from_u64(9);
    for name in ["chess", "shogi", "xiangqi", "janggi", "checkers"] {
        let game = load_game(name).unwrap();
        let mut generator = Generator::new();
        let (mut all, mut captures, mut tried) =
            (MoveList::new(), MoveList::new(), MoveList::new());
        let mut positions_with_captures = 0;
        for _ in 0..10 {
            let mut pos = game.initial_position();
            for _ in 0..150 {
                generator.moves_to_try(&game, &mut pos, &mut all).unwrap();
                let (_, count) = generator
                    .captures_to_try(&game, &mut pos, &mut captures)
                    .unwrap();
                assert_eq!(count, all.len(), "{name}: moves counted");
                let taking = capturing_moves(&all);
                let listed = capturing_moves(&captures);
                assert_eq!(listed, taking, "{name}: the captures");
                positions_with_captures += usize::from(!taking.is_empty());
                let Some(i) = generator
                    .random_legal(&game, &mut pos, &mut rng, &mut tried)
                    .unwrap()
                else {
                    break;
                };
                let mv = tried.get(i).to_owned();
                game.make(&mut pos, mv.as_ref());
            }
        }
        assert!(
            positions_with_captures > 10,
            "{name}: {positions_with_captures} positions with captures"
        );
    }
}
