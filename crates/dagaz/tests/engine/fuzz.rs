//! No panic on any input: random and mutated expressions and game files go
//! through the loader and, when they load, through move generation. The
//! answer must be `Ok` or an error, never a panic.

use dagaz::load::{builtin_games, load_str};
use dagaz::movegen::{Generator, perft};
use dagaz::position::MoveList;
use proptest::prelude::*;

/// A 4x4 game whose first piece has the moves `expr`.
fn tiny(expr: &str) -> String {
    format!(
        r#"
[game]
players = ["White", "Black"]
[board]
grid = "a-d x 4-1"
[players.Black]
map = "N=S S=N O=T T=O M=R R=M"
[zones.far]
White = "a4-d4"
Black = "a1-d1"
[handlers]
1 = "explode"
[pieces.Tester]
letter = "T"
moves = '''{expr}'''
[pieces.Stone]
letter = "S"
[setup]
fen = "s2t/1S2/2T1/S2s w"
[rules]
royal_safety = true
"#
    )
}

/// Loads `source`; if it loads, generates moves and a small perft.
fn exercise(source: &str) {
    if let Ok(game) = load_str(source, "fuzz.toml", "fuzz") {
        let mut pos = game.initial_position();
        let mut list = MoveList::new();
        if Generator::new().legal(&game, &mut pos, &mut list).is_ok() {
            let _ = perft(&game, &mut pos, 2);
        }
    }
}

const ALPHABET: &[&str] = &[
    "N", "S", "E", "W", "M", "O", "R", "T", "X", "U", "Q", "+", "*", "(", ")", "[", "]", "{", "}",
    ",", ";", "|", "^", "\\", "~", "!", "?", "0", "1", "2", "3", "9", "p", "P", "e", "E", "f", "F",
    "a", "A", "s", "S", "o", "m", "M", "r", "R", "l", "t", "x", "=", "=Stone", "=Tester", "@far",
    "@near", ">", "#", "\n", " ", "{1,2}", "*!", "+!", "(+)", "\\1", "~1", "[p]", "[e]", "[x>N]",
];

fn expression() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 1..24).prop_map(|parts| parts.concat())
}

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), 1usize..20).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), prop::sample::select(ALPHABET))
            .prop_map(|(a, s)| Edit::Insert(a, s.to_string())),
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Edit::Duplicate(a, n)),
    ];
    prop::collection::vec(edit, 1..6)
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for e in edits {
        let len = s.len().max(1);
        match e {
            Edit::Delete(a, n) => {
                let a = a % len;
                let b = (a + n).min(s.len());
                s.drain(a.min(s.len())..b);
            }
            Edit::Insert(a, t) => {
                let a = a % (s.len() + 1);
                for (i, c) in t.chars().enumerate() {
                    s.insert(a + i, c);
                }
            }
            Edit::Duplicate(a, n) => {
                let a = a % len;
                let b = (a + n).min(s.len());
                let copy: Vec<char> = s[a.min(s.len())..b].to_vec();
                for (i, c) in copy.into_iter().enumerate() {
                    s.insert(b + i, c);
                }
            }
        }
    }
    s.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_expressions_never_panic(expr in expression()) {
        exercise(&tiny(&expr));
    }

    #[test]
    fn mutated_expressions_never_panic(edits in edits()) {
        let base = r"(+)[p](\1[p])*; (+)([p]\1)*[P]\1([p]\1)*[e]; (*)[p]|((\1[ex])+!; ~1(~1[ex])+!); N|^[t]N[1]";
        exercise(&tiny(&apply(base, &edits)));
    }

    #[test]
    fn mutated_game_files_never_panic(edits in edits(), which in 0usize..64) {
        let games = builtin_games();
        let source = games[which % games.len()].source;
        exercise(&apply(source, &edits));
    }

    #[test]
    fn random_position_strings_never_panic(text in "[rnbqkpRNBQKP1-9/ wb-]{0,80}") {
        let game = dagaz::load::load_game("chess").unwrap();
        let _ = dagaz::text::fen::parse(&game, &text, None);
    }
}
