//! The `dagaz` command line, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn dagaz(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dagaz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The program may end before it reads its input (a game that is
    // already over): a closed pipe is no failure here.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn list_shows_every_game_with_a_description() {
    let o = dagaz(&["list"], "");
    assert!(o.status.success());
    for g in dagaz::load::builtin_games() {
        let line = stdout(&o)
            .lines()
            .find(|l| l.starts_with(g.name))
            .map(str::to_string);
        let line = line.unwrap_or_else(|| panic!("{} missing", g.name));
        assert!(line.len() > g.name.len() + 10, "no description: {line}");
        assert!(!line.contains("does not load"), "{line}");
    }
}

#[test]
fn betza_prints_the_expression_or_names_the_bad_part() {
    let o = dagaz(&["betza", "mRcpR"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "(+)([p]\\1)*[p]; (+)([p]\\1)*[P]\\1([p]\\1)*[e]"
    );
    let o = dagaz(&["betza", "fNxK"], "");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("'xK'") && err.contains("unsupported modifier 'x'"),
        "{err}"
    );
}

#[test]
fn perft_prints_nodes_and_speed() {
    let o = dagaz(&["perft", "chess", "3"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("nodes 8902"), "{out}");
    assert!(out.contains("nps "), "{out}");
}

#[test]
fn perft_divide_from_a_position() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = dagaz(&["perft", "chess", "2", "--fen", fen, "--divide"], "");
    let out = stdout(&o);
    assert!(out.contains("nodes 2039"), "{out}");
    assert!(out.contains("e1g1: 43"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains(": ")).count(), 48);
}

#[test]
fn moves_lists_the_legal_moves() {
    let o = dagaz(&["moves", "chess"], "");
    let out = stdout(&o);
    let moves: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(moves.len(), 20, "{out}");
    assert!(moves.contains(&"e2e4") && moves.contains(&"g1f3"));
}

#[test]
fn check_accepts_good_files_and_refuses_bad_ones() {
    // Removed when the test ends.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let good = dir.join("good.toml");
    std::fs::write(&good, dagaz::load::builtin_games()[0].source).unwrap();
    let o = dagaz(&["check", good.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ok"));

    let bad = dir.join("bad.toml");
    let text = dagaz::load::builtin_games()[0]
        .source
        .replace("N,OM; E,OT", "N,OM; E,Q");
    std::fs::write(&bad, text).unwrap();
    let o = dagaz(&["check", bad.to_str().unwrap()], "");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("unknown direction letter 'Q'"), "{err}");
    assert!(err.contains("piece Knight"), "{err}");
    assert!(err.contains("bad.toml:"), "{err}");

    // A broken variant fails the check too, named.
    let chess = dagaz::load::builtin_games()
        .iter()
        .find(|g| g.name == "chess")
        .unwrap();
    let broken = dir.join("variant.toml");
    let text = format!(
        "{}\n[variants.broken]\ndescription = \"x\"\n[variants.broken.pieces.Knight]\nmoves = [\"N[p\"]\n",
        chess.source
    );
    std::fs::write(&broken, text).unwrap();
    let o = dagaz(&["check", broken.to_str().unwrap()], "");
    assert!(!o.status.success(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("variant broken"), "{err}");
    assert!(err.contains("unclosed '['"), "{err}");
}

#[test]
fn unknown_game_is_a_clear_error() {
    let o = dagaz(&["moves", "chesss"], "");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown game 'chesss'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_position_is_a_clear_error() {
    let o = dagaz(&["moves", "chess", "--fen", "rnbqkbnr/ppp w"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("rows"), "{}", stderr(&o));
}

#[test]
fn play_rejects_illegal_moves_and_plays_legal_ones() {
    let o = dagaz(&["play", "chess"], "e2e5\ne2e4\nfen\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("'e2e5' is not a legal move"), "{out}");
    assert!(
        out.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        "{out}"
    );
}

#[test]
fn play_detects_the_end_of_the_game() {
    // Fool's mate.
    let o = dagaz(&["play", "chess"], "f2f3\ne7e5\ng2g4\nd8h4\n");
    let out = stdout(&o);
    assert!(out.contains("Black wins (checkmate)"), "{out}");
}

#[test]
fn play_takes_san_pawn_moves_and_saves_a_finished_game() {
    let tmp = tempfile::tempdir().unwrap();
    let saved = tmp.path().join("fool.pgn");
    // `f3` and `e5` are single square names that start no move: SAN.
    let o = dagaz(
        &["play", "chess"],
        &format!(
            "f3\ne5\ng4\nQh4#\nsave {}\nundo\nfen\nquit\n",
            saved.display()
        ),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Black wins (checkmate)"), "{out}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
    // Taking the mate back goes on with the game.
    assert!(
        out.contains("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2"),
        "{out}"
    );
    // A move after the end is refused, and the game stays open.
    let o = dagaz(&["play", "chess"], "f3\ne5\ng4\nQh4#\na2a3\nrecord\n");
    let out = stdout(&o);
    assert!(out.contains("the game is over"), "{out}");
    assert!(out.contains("2. g4 Qh4# 0-1"), "{out}");
}

/// Plays one short game of `game` between `a` (first) and `b`, saved to
/// `path`; the saved text.
fn saved_game(game: &str, (a, b): (&str, &str), plies: &str, path: &std::path::Path) -> String {
    let o = dagaz(
        &[
            "match",
            game,
            "--a",
            a,
            "--b",
            b,
            "--games",
            "1",
            "--max-plies",
            plies,
            "--save",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn records_name_variants_and_colours_as_other_programs_do() {
    let tmp = tempfile::tempdir().unwrap();
    let zh = tmp.path().join("zh.pgn");
    let text = saved_game("chess:crazyhouse", ("random", "random"), "6", &zh);
    assert!(text.contains("[Variant \"Crazyhouse\"]"), "{text}");
    // It reads back as crazyhouse: its position string shows the hands.
    let o = dagaz(&["play", "--load", zh.to_str().unwrap()], "fen\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("] w ") || stdout(&o).contains("] b "),
        "{}",
        stdout(&o)
    );
    // Loaded as another game, the error says which game the record is of.
    let o = dagaz(
        &["play", "xiangqi", "--load", zh.to_str().unwrap()],
        "quit\n",
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the record is of chess:crazyhouse, not xiangqi"),
        "{}",
        stderr(&o)
    );
    // In checkers Black moves first: the first player's name is Black's.
    let ck = tmp.path().join("ck.pdn");
    let text = saved_game("checkers", ("random", "ab:d1"), "4", &ck);
    assert!(
        text.contains("[White \"ab:d1\"]") && text.contains("[Black \"random\"]"),
        "{text}"
    );
    // A file that cannot be written is found out before the games.
    let o = dagaz(
        &[
            "match",
            "chess",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "1",
            "--save",
            "/no/such/dir/x.pgn",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(!stdout(&o).contains("after game 1"), "{}", stdout(&o));
}

#[test]
fn play_against_the_random_mover_is_repeatable() {
    let run = || {
        stdout(&dagaz(
            &["play", "chess", "--random", "black", "--seed", "7"],
            "e2e4\nd2d4\nquit\n",
        ))
    };
    let a = run();
    assert!(a.contains("Black plays"), "{a}");
    assert_eq!(a, run());
}

#[test]
fn random_movers_play_a_whole_game() {
    let o = dagaz(
        &[
            "play", "chess", "--random", "white", "--random", "black", "--seed", "1",
        ],
        "",
    );
    let out = stdout(&o);
    assert!(
        out.contains("wins (") || out.contains("Draw ("),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}

#[test]
fn play_accepts_moves_square_by_square() {
    let o = dagaz(&["play", "fanorona"], "d3\nd3 e3\ne2 e3\nfen\nquit\n");
    let out = stdout(&o);
    assert!(out.contains("next square: e3"), "{out}");
    assert!(
        out.contains("several moves; type one of: d3e3xf3 d3e3xc3")
            || out.contains("several moves; type one of: d3e3xc3 d3e3xf3"),
        "{out}"
    );
    assert!(
        out.contains("ssss1ssss/ssss1ssss/sSsSSsSsS/SSSS1SSSS/SSSSSSSSS b"),
        "{out}"
    );
}

#[test]
fn analyse_prints_move_score_depth_and_line() {
    let o = dagaz(
        &[
            "analyse",
            "chess",
            "--fen",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "--ai",
            "ab:d3",
        ],
        "",
    );
    let out = stdout(&o);
    assert!(out.contains("best a1a8"), "{out}");
    assert!(out.contains("score win in 1 ply"), "{out}");
    // The depth asked for is searched, a mate found earlier or not.
    assert!(out.contains("depth 3") && out.contains("pv a1a8"), "{out}");
}

#[test]
fn a_pondering_search_answers_at_the_ponderhit() {
    // `isready` is answered while a search runs: the move comes first
    // only if the hit ended the search.
    let o = dagaz(
        &["uci"],
        "position startpos\ngo ponder\nponderhit\nisready\nquit\n",
    );
    let out = stdout(&o);
    let best = out.find("bestmove").expect("a move");
    let ready = out.find("readyok").expect("ready");
    assert!(best < ready, "{out}");
    // With a move time, the search goes on after the hit (`isready` is
    // answered while it runs) until its time is up or, here, `stop`.
    let o = dagaz(
        &["uci"],
        "position startpos\ngo ponder movetime 600000\nponderhit\nisready\nstop\nquit\n",
    );
    let out = stdout(&o);
    let best = out.find("bestmove").expect("a move");
    let ready = out.find("readyok").expect("ready");
    assert!(ready < best, "{out}");
}

/// An external engine over UCI: dagaz's own `uci` front end, started by
/// the match as any other program would be.
#[test]
fn match_against_an_external_uci_engine() {
    let engine = format!("uci:{} uci@d1", env!("CARGO_BIN_EXE_dagaz"));
    let o = dagaz(
        &[
            "match", "chess", "--a", "random", "--b", &engine, "--games", "2",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("B = {engine}")), "{out}");
    assert!(out.contains("result: A "), "{out}");
    // The same over XBoard's protocol, a game with drops.
    let engine = format!("xboard:{} xboard@d1", env!("CARGO_BIN_EXE_dagaz"));
    let o = dagaz(
        &[
            "match",
            "chess:crazyhouse",
            "--a",
            "random",
            "--b",
            &engine,
            "--games",
            "2",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("result: A "), "{}", stdout(&o));
    // A program that never answers the handshake is reported, bounded.
    let o = dagaz(
        &[
            "match",
            "chess",
            "--a",
            "random",
            "--b",
            "uci:/nonexistent/engine",
            "--games",
            "1",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot start /nonexistent/engine"),
        "{}",
        stderr(&o)
    );
}

/// Chess960 against an external UCI engine: each pair of games starts
/// from a new draw, sent as `position fen`, and the records say so.
#[test]
fn a_chess960_match_draws_a_start_for_each_pair_of_games() {
    let tmp = tempfile::tempdir().unwrap();
    let saved = tmp.path().join("games.pgn");
    let engine = format!("uci:{} uci@d1", env!("CARGO_BIN_EXE_dagaz"));
    let o = dagaz(
        &[
            "match",
            "chess:chess960",
            "--a",
            "random",
            "--b",
            &engine,
            "--games",
            "4",
            "--seed",
            "3",
            "--save",
            saved.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("forfeited"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&saved).unwrap();
    let fens: Vec<&str> = text.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(fens.len(), 4, "{text}");
    assert_eq!(fens[0], fens[1]);
    assert_eq!(fens[2], fens[3]);
    assert_ne!(fens[0], fens[2]);
    // The same with an XBoard engine: told the start by `setboard`.
    let engine = format!("xboard:{} xboard@d1", env!("CARGO_BIN_EXE_dagaz"));
    let o = dagaz(
        &[
            "match",
            "chess:chess960",
            "--a",
            "random",
            "--b",
            &engine,
            "--games",
            "2",
            "--seed",
            "3",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("forfeited"), "{}", stdout(&o));
}

/// An engine that answers every `go` with an illegal move loses each game
/// by forfeit, and the match says so instead of reporting only a score.
#[test]
fn a_match_reports_games_lost_by_illegal_moves() {
    // Removed when the test ends.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        "while read line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; \
         go*) echo 'bestmove a1a1';; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let engine = format!("uci:/bin/sh {}@d1", script.display());
    let o = dagaz(
        &[
            "match", "chess", "--a", "random", "--b", &engine, "--games", "2",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("game 1 forfeited: "), "{out}");
    assert!(out.contains("played the illegal move a1a1"), "{out}");
    assert!(
        out.contains("2 of the 2 games were forfeited by an illegal move"),
        "{out}"
    );
    assert!(out.contains("result: A 2 wins, B 0 wins"), "{out}");
}

#[test]
fn match_prints_running_results_and_elo() {
    // Removed when the test ends.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let save = dir.join("games.txt");
    let o = dagaz(
        &[
            "match",
            "checkers",
            "--a",
            "ab:d2",
            "--b",
            "random",
            "--games",
            "4",
            "--threads",
            "2",
            "--seed",
            "3",
            "--save",
            save.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("after game 4 of 4: A "), "{out}");
    assert!(out.contains("Elo difference of A over B"), "{out}");
    // The games are saved as PDN, checkers' record format; the saved file
    // plays on from its first game.
    let games = std::fs::read_to_string(&save).unwrap();
    assert_eq!(games.matches("[GameType \"21\"]").count(), 4);
    assert!(games.contains("[Round \"4\"]"));
    let o = dagaz(&["play", "--load", save.to_str().unwrap()], "moves\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("holds 4 games; playing on from the first"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn play_goes_on_from_a_record_and_writes_one() {
    // Removed when the test ends.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let pgn = dir.join("opening.pgn");
    std::fs::write(&pgn, "[Event \"test\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap();
    let saved = dir.join("saved.pgn");
    let o = dagaz(
        &["play", "--load", pgn.to_str().unwrap()],
        &format!("Nc6\nrecord\nsave {}\nquit\n", saved.display()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1. e4 e5 2. Nf3 Nc6 *"), "{out}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("[Date \"") && text.contains("2. Nf3 Nc6 *"),
        "{text}"
    );

    // A record that does not play names the move; an unreadable file, itself.
    std::fs::write(&pgn, "1. e4 e5 2. Ke3 *").unwrap();
    let o = dagaz(&["play", "--load", pgn.to_str().unwrap()], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("move 2 ('Ke3')"), "{}", stderr(&o));
    // The second player's moves are numbered as the record numbers them.
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 Ke7 3. Bc4 Ke8 4. O-O O-O-O *").unwrap();
    let o = dagaz(&["play", "--load", pgn.to_str().unwrap()], "");
    assert!(stderr(&o).contains("move 4... ('O-O-O')"), "{}", stderr(&o));
    let o = dagaz(&["play", "chess", "--load", "/no/such/file.pgn"], "");
    assert!(
        stderr(&o).contains("cannot read /no/such/file.pgn"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn play_against_the_computer() {
    let o = dagaz(
        &["play", "chess", "--ai", "ab:d1", "--seed", "1"],
        "e2e4\nquit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("Black plays"), "{out}");
    let o = dagaz(&["play", "chess", "--ai", "chess-master"], "");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("bad engine 'chess-master'"),
        "{}",
        stderr(&o)
    );
}

/// Every built-in game counts perft, lists moves and takes a move in play.
#[test]
fn every_game_works_in_perft_moves_and_play() {
    for g in dagaz::load::builtin_games() {
        let o = dagaz(&["perft", g.name, "2"], "");
        assert!(o.status.success(), "{}: {}", g.name, stderr(&o));
        let nodes: u64 = stdout(&o)
            .lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{}: {}", g.name, stdout(&o)));
        assert!(nodes > 0, "{}", g.name);
        let o = dagaz(&["moves", g.name], "");
        assert!(o.status.success(), "{}: {}", g.name, stderr(&o));
        let first = stdout(&o)
            .split_whitespace()
            .next()
            .unwrap_or_else(|| panic!("{}: no moves", g.name))
            .to_string();
        let o = dagaz(&["play", g.name], &format!("{first}\nquit\n"));
        assert!(o.status.success(), "{}: {}", g.name, stderr(&o));
        let out = stdout(&o);
        assert!(!out.contains("not a legal move"), "{}: {out}", g.name);
        assert!(out.matches("to move").count() >= 2, "{}: {out}", g.name);
    }
}

/// Fool's mate: White to move is checkmated.
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";

#[test]
fn play_takes_a_move_square_by_square_over_several_lines() {
    let o = dagaz(&["play", "chess"], "e2\ne4\nfen\nquit\n");
    let out = stdout(&o);
    assert!(out.contains("next square: e4 e3"), "{out}");
    assert!(out.contains("White to move e2> "), "{out}");
    assert!(
        out.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        "{out}"
    );
}

#[test]
fn moves_on_a_finished_position_says_why_there_are_none() {
    let o = dagaz(&["moves", "chess", "--fen", MATED], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "no legal moves: Black wins (checkmate)");
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let o = dagaz(&["moves", "chess", "--fen", stalemate], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "no legal moves: Draw (stalemate)");
}

#[test]
fn perft_notes_a_side_without_moves() {
    let o = dagaz(&["perft", "chess", "3", "--fen", MATED], "");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("note: White, to move, has no legal moves: Black wins (checkmate)"),
        "{out}"
    );
    assert!(out.contains("nodes 0"), "{out}");
    let o = dagaz(&["perft", "chess", "1"], "");
    assert!(!stdout(&o).contains("note:"));
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_dagaz"))
        .args(["perft", "chess", "3", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone (as `| head -1` does) before most lines are written.
    let o = child.wait_with_output().unwrap();
    assert!(first.contains(": "), "{first}");
    assert!(o.status.success(), "{:?}", o.status);
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn impossible_positions_are_refused_with_the_reason() {
    for args in [
        ["moves", "chess", "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"],
        ["perft", "chess", "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"],
    ] {
        let mut args = args.to_vec();
        if args[0] == "perft" {
            args.insert(2, "1");
        }
        let o = dagaz(&args, "");
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("Black has 0 King on the board; Chess allows exactly 1"),
            "{}",
            stderr(&o)
        );
    }
}

/// The ZRF fixtures of the engine's tests.
fn zrf_fixture(name: &str) -> String {
    format!(
        "{}/../dagaz/tests/data/zrf/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn zrf_files_are_imported_and_played_directly() {
    let chess = zrf_fixture("chess.zrf");
    let o = dagaz(&["import", &chess], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("game 2: Pawns and kings"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("[pieces.Knight]"), "{}", stdout(&o));
    let o = dagaz(&["perft", &chess, "3"], "");
    assert!(stdout(&o).contains("nodes 8902"), "{}", stdout(&o));
    let o = dagaz(&["perft", &format!("{chess}:2"), "1"], "");
    assert!(stdout(&o).contains("nodes 11"), "{}", stdout(&o));
    let o = dagaz(&["check", &zrf_fixture("checkers.zrf")], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dagaz(&["moves", &zrf_fixture("constructs.zrf")], "");
    assert!(stdout(&o).contains("a2b3"), "{}", stdout(&o));
    // Written out, the converted file loads as any game file.
    // Removed when the test ends.
    let tmp = tempfile::tempdir().unwrap();
    // A folder that is not there yet is made.
    let dir = &tmp.path().join("games");
    let o = dagaz(
        &[
            "import",
            &chess,
            "--variant",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let written = dir.join("chess-2.toml");
    let o = dagaz(&["perft", written.to_str().unwrap(), "2"], "");
    assert!(stdout(&o).contains("nodes 110"), "{}", stdout(&o));
}

#[test]
fn absurd_counts_and_misnamed_engines_are_refused_clearly() {
    let o = dagaz(&["perft", "chess", "1000"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("0..=64"), "{}", stderr(&o));
    let o = dagaz(
        &[
            "match", "chess", "--a", "random", "--b", "random", "--games", "0",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--games"), "{}", stderr(&o));
    let o = dagaz(
        &["analyse", "chess", "--ai", "uci:/usr/games/stockfish@1s"],
        "",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("only in matches"), "{}", stderr(&o));
    // Fairy-Stockfish's names of variants are games too; a near miss is
    // answered with what it may mean.
    let o = dagaz(&["perft", "crazyhouse", "1"], "");
    assert!(stdout(&o).contains("nodes 20"), "{}", stderr(&o));
    let o = dagaz(&["perft", "chess960", "1"], "");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("did you mean") && stderr(&o).contains("chess:chess960"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn zrf_errors_are_clear() {
    let o = dagaz(&["perft", &zrf_fixture("broken.zrf"), "1"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("'teleport'"), "{}", stderr(&o));
    let o = dagaz(
        &["perft", &format!("{}:7", zrf_fixture("chess.zrf")), "1"],
        "",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no variant 7"), "{}", stderr(&o));
    let o = dagaz(&["perft", "nowhere.zrf", "1"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("nowhere.zrf"), "{}", stderr(&o));
}
