//! Xiangqi, shogi and Fairy-Stockfish's variants: perft against the
//! published counts in `tests/data/xiangqi-perft.tsv`,
//! `tests/data/shogi-perft.tsv` (copied from the project's shared test
//! data, with sources) and `tests/data/fairy-stockfish-perft.tsv` (from
//! Fairy-Stockfish's own perft script).
//!
//! `cargo test` runs the rows of at most 1 million nodes; the ignored test
//! runs larger rows up to `DAGAZ_PERFT_MAX` nodes (default 30 million).

use dagaz::load::load_game;
use dagaz::movegen::{Generator, divide, perft, perft_with};
use dagaz::position::MoveList;
use dagaz::text::movetext;

/// (game, position, depth, nodes) of a data file whose columns are
/// name/variant, position, depth, nodes, source.
fn rows(game: &'static str, text: &str) -> Vec<(&'static str, String, u32, u128)> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(
                f.len() >= 5 && !f[4].is_empty(),
                "row without a source: {line}"
            );
            (
                game,
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

fn all_rows() -> Vec<(&'static str, String, u32, u128)> {
    let mut out = rows("xiangqi", include_str!("../data/xiangqi-perft.tsv"));
    out.extend(rows("shogi", include_str!("../data/shogi-perft.tsv")));
    out.extend(fairy_stockfish_rows());
    out
}

/// The rows of `tests/data/fairy-stockfish-perft.tsv`, whose first column
/// is Fairy-Stockfish's variant (the dagaz game playing it is in
/// `games/fairy-stockfish.tsv`); `startpos` is the game's
/// setup.
fn fairy_stockfish_rows() -> Vec<(&'static str, String, u32, u128)> {
    let text = include_str!("../data/fairy-stockfish-perft.tsv");
    let mut out = Vec::new();
    for (i, (_, fen, depth, nodes)) in rows("", text).into_iter().enumerate() {
        let variant = text.lines().nth(i + 1).unwrap().split('\t').next().unwrap();
        let game = dagaz_game(variant);
        let fen = if fen == "startpos" {
            let g = load_game(game).unwrap();
            g.write_position(&g.initial_position())
        } else {
            fen
        };
        out.push((game, fen, depth, nodes));
    }
    out
}

/// The dagaz game that plays a Fairy-Stockfish variant.
pub fn dagaz_game(variant: &str) -> &'static str {
    include_str!("../../../../games/fairy-stockfish.tsv")
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == variant)
        .map(|f| f[1])
        .unwrap_or_else(|| panic!("no dagaz game plays {variant}"))
}

fn check(min: u128, max: u128) -> usize {
    let mut checked = 0;
    for (name, position, depth, nodes) in all_rows().into_iter().filter(|r| r.3 > min && r.3 <= max)
    {
        let game = load_game(name).unwrap();
        let mut pos = game.parse_position(&position).unwrap();
        let got = perft(&game, &mut pos, depth).unwrap();
        eprintln!("{name} {position} depth {depth}: {got}");
        assert_eq!(got as u128, nodes, "{name} depth {depth}");
        checked += 1;
    }
    checked
}

#[test]
fn published_counts_up_to_a_million_nodes() {
    let rows = all_rows().iter().filter(|r| r.3 <= 1_000_000).count();
    assert!(rows >= 70, "the data files lost rows: {rows}");
    assert_eq!(check(0, 1_000_000), rows);
}

#[test]
#[ignore = "long: .ci/run runs it with --include-ignored"]
fn published_counts_larger() {
    let max = std::env::var("DAGAZ_PERFT_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30_000_000u128);
    let checked = check(1_000_000, max);
    eprintln!("checked {checked} larger rows");
}

/// Minishogi perft as published in the test fixtures of lishogi's
/// `shogiops` library (WandererXII/shogiops, `test/fixtures`, minishogi
/// perfts: 14, 181, 2512, 35401, 533203 from the initial position).
#[test]
fn minishogi_published_counts() {
    let game = load_game("minishogi").unwrap();
    for (depth, nodes) in [(1, 14), (2, 181), (3, 2512), (4, 35401), (5, 533203)] {
        let mut pos = game.initial_position();
        assert_eq!(
            perft(&game, &mut pos, depth).unwrap(),
            nodes,
            "depth {depth}"
        );
    }
}

/// Shogi's pawn-drop mate (uchifuzume): dropping the pawn on 5b would mate
/// the king on 5a (its lances block 4a and 6a, the golds hold 4b, 5b and
/// 6b), so the drop is not a move. cshogi 1.1.0 lists the same 86 moves
/// (`Board("3lkl3/9/3GGG3/9/9/9/9/9/4K4 b P 1").legal_moves`), without
/// P*5b. Fairy-Stockfish 0.0.90 (pyffish) lists 87: it plays such a drop
/// as a move that loses (docs/fairy-stockfish.md). Perft, which looks at
/// the drop only when it is made, counts as the full move lists do.
#[test]
fn shogi_pawn_drop_mate_is_not_a_move() {
    let game = load_game("shogi").unwrap();
    let mut pos = game
        .parse_position("3lkl3/9/3GGG3/9/9/9/9/9/4K4 b P 1")
        .unwrap();
    let mut list = MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    let texts: Vec<String> = list.iter().map(|m| movetext::text(&game, m)).collect();
    assert_eq!(texts.len(), 86);
    assert!(!texts.contains(&"P*5b".to_string()));
    assert!(texts.contains(&"P*5d".to_string()));
    let mut generator = Generator::new();
    let two = perft_with(&game, &mut pos, 2, &mut generator).unwrap();
    let by_move: u64 = divide(&game, &mut pos, 2, &mut generator)
        .unwrap()
        .iter()
        .map(|(_, n)| n)
        .sum();
    assert_eq!(two, by_move);
    assert_eq!(perft_with(&game, &mut pos, 1, &mut generator).unwrap(), 86);
}
