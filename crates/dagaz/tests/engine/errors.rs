//! Bad game files are refused with a message that names the file, the
//! piece, the line and column, underlines the offending text and says
//! what was expected (`notation.md` §10).

use crate::common;

use dagaz::load::{GameError, load_game, load_str};

/// Loads the lab game with `expr` as the tester's moves; returns the
/// rendered report and the 1-based line and column where `expr` starts.
fn refused(expr: &str) -> (String, usize, usize) {
    let source = common::lab_source(&format!("moves = '''{expr}'''"), "");
    let err = load_str(&source, "lab.toml", "lab").expect_err(expr);
    let at = source.find("moves = '''").unwrap() + "moves = '''".len();
    let line = source[..at].matches('\n').count() + 1;
    let col = at - source[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (err.to_string(), line, col)
}

/// The report points at `offset` bytes into the expression and says `what`.
fn assert_reports(expr: &str, offset: usize, what: &str) {
    let (report, line, col) = refused(expr);
    let place = format!("lab.toml:{}:{}", line, col + offset);
    assert!(
        report.contains(&place),
        "{expr}: expected {place} in\n{report}"
    );
    assert!(
        report.contains(what),
        "{expr}: expected '{what}' in\n{report}"
    );
    assert!(
        report.contains("piece Tester"),
        "{expr}: no piece name in\n{report}"
    );
    assert!(
        report.contains('^'),
        "{expr}: nothing underlined in\n{report}"
    );
}

#[test]
fn unknown_direction_letter() {
    assert_reports("N; Q", 3, "unknown direction letter 'Q'");
}

#[test]
fn unbalanced_parenthesis_and_bracket() {
    assert_reports("N (E", 2, "unclosed '('");
    assert_reports("N [p", 2, "unclosed '['");
    assert_reports("N)", 1, "unmatched ')'");
}

#[test]
fn quantifier_with_nothing_to_repeat() {
    assert_reports("?N", 0, "nothing to repeat");
    assert_reports("N; {2}", 3, "nothing to repeat");
}

#[test]
fn empty_range() {
    assert_reports("N{3,2}", 1, "minimum is above the maximum");
}

#[test]
fn too_few_capture_groups() {
    assert_reports(r"(N)\4", 3, "only 1 capture group");
}

#[test]
fn unbound_variable() {
    assert_reports(r"\1(N)", 0, "not bound");
}

#[test]
fn unknown_piece_zone_and_handler() {
    assert_reports("N[=Dragon]", 2, "unknown piece 'Dragon'");
    assert_reports("N[@palace]", 2, "unknown zone 'palace'");
    assert_reports("N[5]", 2, "handler 5 is not registered");
}

#[test]
fn repetition_that_cannot_progress() {
    assert_reports("N[p]*", 1, "can never end");
}

#[test]
fn unknown_check_code() {
    assert_reports("N[q]", 2, "unknown check 'q'");
}

#[test]
fn expected_text_is_given() {
    let (report, _, _) = refused("N; Q");
    assert!(
        report.contains("expected a direction of this board: N S W E M O R T"),
        "{report}"
    );
}

#[test]
fn errors_in_multi_line_strings_point_at_the_right_line() {
    let source = common::lab_source("moves = \"\"\"\nN;\n  E[z]\n\"\"\"", "");
    let report = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    let line = source.lines().position(|l| l == "  E[z]").unwrap() + 1;
    assert!(report.contains(&format!("lab.toml:{line}:5")), "{report}");
}

#[test]
fn every_error_of_a_file_is_reported() {
    let source = common::lab_source(
        "moves = 'Q'",
        "[pieces.Other]\nletter = \"O\"\nmoves = '[q]'",
    );
    let err = load_str(&source, "lab.toml", "lab").unwrap_err();
    assert_eq!(err.diagnostics.len(), 2, "{err}");
}

#[test]
fn toml_syntax_errors_have_positions() {
    let err = load_str("[game]\nname = \n", "broken.toml", "broken").unwrap_err();
    let report = err.to_string();
    assert!(report.contains("broken.toml:2:"), "{report}");
}

#[test]
fn unknown_keys_are_refused() {
    let source = common::lab_source("moves = 'N'", "[rules]\nroyal_safty = true");
    let report = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    assert!(report.contains("royal_safty"), "{report}");
}

#[test]
fn bad_board_setup_and_rules() {
    let bad = |extra: &str, from: &str, to: &str, what: &str| {
        let source = common::lab_source("moves = 'N'", extra).replace(from, to);
        let report = load_str(&source, "lab.toml", "lab")
            .unwrap_err()
            .to_string();
        assert!(report.contains(what), "{what}:\n{report}");
    };
    bad("", "a-h x 8-1", "a-h by 8-1", "expected 'x'");
    bad("", "3T4/8/8/8 w", "3T4/8/8 w", "the board has 8 rows");
    bad("", "3T4/8/8/8 w", "3Z4/8/8/8 w", "unknown piece letter 'Z'");
    bad(
        "[rules]\ngoals = [\"checkmate = maybe\"]",
        "",
        "",
        "unknown outcome 'maybe'",
    );
    bad(
        "[rules]\ngoals = [\"config Walker N = win\"]",
        "",
        "",
        "'config' alternates squares and directions",
    );
    bad(
        "[rules]\ngoals = [\"config Walker Q Walker = win\"]",
        "",
        "",
        "'Q' is not a direction of this board",
    );
    bad(
        "[rules]\ngoals = [\"config Walker|Ghost N Walker = win\"]",
        "",
        "",
        "'Ghost' is not a piece of this game",
    );
    bad(
        "[rules]\ngoals = [\"total = 3 = draw\"]",
        "",
        "",
        "'total' needs a comparison",
    );
    bad(
        "[handlers]\n1 = \"nonesuch\"",
        "",
        "",
        "unknown handler 'nonesuch'",
    );
    bad(
        "",
        "White = \"a8-h8\"",
        "White = \"a8-z8\"",
        "unknown square 'z8'",
    );
    bad(
        "",
        "letter = \"S\"",
        "letter = \"T\"",
        "letter 'T' is already used",
    );
}

#[test]
fn unknown_games_and_missing_files() {
    match load_game("nonesuch") {
        Err(e @ GameError::UnknownGame { .. }) => assert!(e.to_string().contains("chess")),
        other => panic!("{other:?}"),
    }
    // A variant's name alone: the games that have it are suggested.
    match load_game("chess960") {
        Err(e @ GameError::UnknownGame { .. }) => {
            let text = e.to_string();
            assert!(text.contains("did you mean chess:chess960"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Fairy-Stockfish's name of a variant loads the game that plays it.
    assert_eq!(load_game("crazyhouse").unwrap().name, "chess:crazyhouse");
    match load_game("/no/such/file.toml") {
        Err(e @ GameError::Io { .. }) => assert!(e.to_string().contains("/no/such/file.toml")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn position_invariants_in_the_file_are_checked() {
    let report = |extra: &str, from: &str, to: &str| {
        let source = common::lab_source("moves = 'N'", extra).replace(from, to);
        match load_str(&source, "lab.toml", "lab") {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    };
    let r = report("[zones.bad-name]\nall = \"a1\"", "", "");
    assert!(r.contains("zone name 'bad-name'"), "{r}");
    let r = report(
        "",
        "letter = \"S\"",
        "letter = \"S\"\nnever_in = [\"nowhere\"]",
    );
    assert!(r.contains("never_in names zone 'nowhere'"), "{r}");
    let r = report("", "letter = \"S\"", "letter = \"S\"\ncount = [3, 1]");
    assert!(
        r.contains("count [3, 1] has its fewest above its most"),
        "{r}"
    );
    // The setup must pass the file's own declarations.
    let r = report("", "letter = \"T\"", "letter = \"T\"\ncount = 2");
    assert!(
        r.contains("setup: White has 1 Tester on the board; lab allows exactly 2"),
        "{r}"
    );
}

#[test]
fn attributes_and_piece_numbers_do_not_mix() {
    let source = common::lab_source("moves = 'N'", "")
        .replace(
            "grid = \"a-h x 8-1\"",
            "grid = \"a-h x 8-1\"\npiece_numbers = 3",
        )
        .replace(
            "letter = \"S\"",
            "letter = \"S\"\nattributes = { \"heavy?\" = true }",
        );
    let report = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    assert!(
        report.contains("piece_numbers cannot go with piece attributes"),
        "{report}"
    );
    assert!(report.contains("lab.toml:"), "{report}");
}
