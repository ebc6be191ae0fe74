//! `dagaz import`: Fairy-Stockfish `variants.ini` sections converted into
//! game files. The built-in parents the importer knows as keys are checked
//! against published counts (chessprogramming.org's for chess,
//! Fairy-Stockfish's own for the others); the test file's sections load,
//! and the ones it cannot convert are reported with their lines. That the
//! converted games play as Fairy-Stockfish does is the differential test's
//! job (`scripts/fsf-diff.py --ini`).

use dagaz::game::Game;
use dagaz::import::fsf::{ImportError, convert};
use dagaz::load::load_str;
use dagaz::movegen::perft;

const TEST_INI: &str = include_str!("../data/fsf-custom-variants.ini");

/// The game a one-section ini converts to.
fn imported(section: &str) -> Game {
    let conversions = convert(section, None).unwrap();
    let c = &conversions[0];
    let text = c
        .game
        .as_ref()
        .unwrap_or_else(|| panic!("{:?}", c.problems));
    load_str(text, "imported.toml", &c.name).unwrap()
}

/// (position, depth, nodes) rows of a published-count file for one name.
fn published(text: &str, name: &str, max_nodes: u128) -> Vec<(String, u32, u128)> {
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() >= 5 && f[0].starts_with(name) && !f[0].contains('@'))
        .map(|f| {
            (
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .filter(|r| r.2 <= max_nodes)
        .collect()
}

fn check_counts(game: &Game, rows: &[(String, u32, u128)]) {
    assert!(!rows.is_empty());
    for (fen, depth, nodes) in rows {
        let mut pos = if fen == "startpos" {
            game.initial_position()
        } else {
            game.parse_position(fen).unwrap()
        };
        let got = perft(game, &mut pos, *depth).unwrap();
        assert_eq!(got as u128, *nodes, "{} {fen} depth {depth}", game.name);
    }
}

#[test]
fn a_section_with_chess_as_parent_is_chess() {
    let game = imported("[plain:chess]\n");
    let rows: Vec<_> = published(include_str!("../data/chess-perft.tsv"), "", 250_000);
    check_counts(&game, &rows);
}

#[test]
fn the_known_builtin_parents_give_their_published_counts() {
    let fsf = include_str!("../data/fairy-stockfish-perft.tsv");
    for parent in ["crazyhouse", "losalamos", "kingofthehill"] {
        let game = imported(&format!("[plain:{parent}]\n"));
        check_counts(&game, &published(fsf, parent, 300_000));
    }
}

#[test]
fn the_test_file_converts_all_but_the_rule_it_cannot_express() {
    let conversions = convert(TEST_INI, None).unwrap();
    assert_eq!(conversions.len(), 27);
    for c in &conversions {
        match c.name.as_str() {
            "duckish" => {
                assert!(c.game.is_none());
                let p = &c.problems[0];
                assert!(p.fatal && p.key == "wallingRule" && p.line == 202, "{p}");
            }
            name => {
                let text = c
                    .game
                    .as_ref()
                    .unwrap_or_else(|| panic!("{name}: {:?}", c.problems));
                load_str(text, "imported.toml", name).unwrap();
            }
        }
    }
    let typo = conversions.iter().find(|c| c.name == "typo").unwrap();
    assert_eq!(typo.problems.len(), 1);
    assert!(!typo.problems[0].fatal && typo.problems[0].line == 205);
}

#[test]
fn a_custom_royal_piece_moves_as_written() {
    let game = imported("[kn:chess]\nking = k:KN\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
    let mut pos = game.initial_position();
    // From e1: five King steps and four Knight leaps (c2, d3, f3, g2).
    assert_eq!(perft(&game, &mut pos, 1).unwrap(), 9);
}

#[test]
fn unusable_files_and_sections_are_refused_with_the_reason() {
    assert_eq!(
        convert("no sections here", None).unwrap_err(),
        ImportError::NoSections
    );
    let err = convert("[a:chess]\n", Some("b")).unwrap_err();
    assert!(err.to_string().contains("no section 'b'"), "{err}");
    let c = &convert("[misere:chess]\n[x:xiangqi]\n[y:nosuch]\n", None).unwrap();
    assert!(c.iter().all(|c| c.game.is_none()));
    assert!(c[0].problems[0].message.contains("built-in variant"));
    assert!(c[1].problems[0].message.contains("does not know"));
    assert!(c[2].problems[0].message.contains("neither"));
}
