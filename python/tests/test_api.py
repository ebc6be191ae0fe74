"""Every call of the dagaz package, on chess, shogi, checkers, Kalah and
Rithmomachia."""

import threading
import time

import numpy as np
import pytest

import dagaz

GAMES = ["chess", "shogi", "checkers", "kalah", "rithmomachia"]

# The legal first moves and perft(2) of each game's setup, as `dagaz perft`
# counts them (chess, shogi and checkers are published counts).
FIRST = {
    "chess": (20, 400),
    "shogi": (30, 900),
    "checkers": (7, 49),
}


def test_games_lists_the_library():
    names = dagaz.games()
    for g in GAMES:
        assert g in names


@pytest.mark.parametrize("name", GAMES)
def test_a_game_describes_itself(name):
    game = dagaz.Game(name)
    assert game.name == name
    assert game.title and game.description
    assert len(game.players) >= 2
    assert game.pieces and game.squares
    assert game.num_actions > 0
    planes, height, width = game.observation_shape
    assert planes > len(game.players) and height > 0 and width > 0
    assert name in repr(game)


@pytest.mark.parametrize("name", GAMES)
def test_a_session_plays_moves_and_takes_them_back(name):
    game = dagaz.Game(name)
    s = game.new_session()
    start = s.fen()
    moves = s.legal_moves()
    assert moves and all(isinstance(m, dagaz.Move) for m in moves)
    texts = [m.text for m in moves]
    assert len(set(texts)) == len(texts), "every legal move has its own text"
    first = moves[0]
    assert first.parts and (first.piece in game.pieces or name == "kalah")
    assert str(first) == first.text and first.text in repr(first)
    played = s.push(first)
    assert played == first
    assert s.moves == [first.text] and s.ply == 1
    assert s.fen() != start
    # Push by text as well; then pop both.
    second = s.legal_moves()[-1]
    s.push(second.text)
    assert s.ply == 2
    assert s.pop().text == second.text
    assert s.pop().text == first.text
    assert s.fen() == start and s.moves == []
    with pytest.raises(dagaz.MoveError, match="no move to take back"):
        s.pop()


@pytest.mark.parametrize("name", FIRST)
def test_perft_matches_the_published_counts(name):
    s = dagaz.Game(name).new_session()
    one, two = FIRST[name]
    assert len(s.legal_moves()) == one
    assert s.perft(1) == one
    assert s.perft(2) == two


def test_perft_releases_the_gil():
    s = dagaz.Game("chess").new_session()
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    assert s.perft(4) == 197281
    stop.set()
    t.join()
    assert len(ticks) > 5, "another Python thread ran during perft"


@pytest.mark.parametrize("name", GAMES)
def test_positions_round_trip(name):
    game = dagaz.Game(name)
    s = game.new_session()
    s.push(s.legal_moves()[0])
    again = game.new_session(s.fen())
    assert again.fen() == s.fen()
    assert [m.text for m in again.legal_moves()] == [m.text for m in s.legal_moves()]


def test_chess_moves_know_their_squares_promotions_and_captures():
    s = dagaz.Game("chess").new_session("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    queen = next(m for m in s.legal_moves() if m.text == "b7b8q")
    assert (queen.from_, queen.to, queen.promotion, queen.drop) == ("b7", "b8", "Queen", False)
    s = dagaz.Game("chess").new_session("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    take = next(m for m in s.legal_moves() if m.text == "e4d5")
    assert take.captures == ["d5"]


def test_shogi_drops_and_hands():
    s = dagaz.Game("shogi").new_session(
        "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1"
    )
    drops = [m for m in s.legal_moves() if m.drop]
    assert drops and all(m.from_ is None and m.piece == "Gold" for m in drops)
    s.push(drops[0])
    obs = s.observation()
    assert obs.shape == dagaz.Game("shogi").observation_shape


def test_checkers_capture_chains_are_one_move():
    s = dagaz.Game("checkers").new_session("W:W18:B14,6 ")
    # A double jump 18x9x2 is one move with its landing squares as parts.
    chains = [m for m in s.legal_moves() if len(m.captures) == 2]
    assert chains, [m.text for m in s.legal_moves()]
    assert len(chains[0].parts) == 3


def test_results_of_finished_games():
    s = dagaz.Game("chess").new_session()
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        s.push(m)
    r = s.result()
    assert isinstance(r, dagaz.Result)
    assert (r.winner, r.winner_name, r.draw, r.reason, r.score) == (1, "Black", False, "checkmate", "0-1")
    assert s.is_over and s.legal_moves() == []
    with pytest.raises(dagaz.MoveError, match="the game is over"):
        s.push("a2a3")
    stalemate = dagaz.Game("chess").new_session("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").result()
    assert stalemate.draw and stalemate.reason == "stalemate" and stalemate.winner is None


def test_kalah_is_played_to_its_end():
    s = dagaz.Game("kalah").new_session()
    while s.result() is None:
        s.push(s.legal_moves()[0])
    r = s.result()
    assert r.reason and r.score in ("1-0", "0-1", "1/2-1/2")


def test_rithmomachia_numbered_pieces():
    game = dagaz.Game("rithmomachia")
    s = game.new_session()
    obs = s.observation()
    assert obs.shape == game.observation_shape
    assert obs[-2].max() > 0, "a plane of piece numbers"


def test_clone_is_independent():
    s = dagaz.Game("chess").new_session()
    c = s.clone()
    c.push("e2e4")
    assert s.ply == 0 and c.ply == 1


@pytest.mark.parametrize("name", GAMES)
def test_pictures(name):
    s = dagaz.Game(name).new_session()
    text = s.render()
    assert len(text.splitlines()) >= 3
    svg = s.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert s._repr_svg_() == svg


@pytest.mark.parametrize("name", GAMES)
def test_actions_number_every_legal_move(name):
    game = dagaz.Game(name)
    s = game.new_session()
    for _ in range(6):
        if s.result() is not None:
            break
        mask = s.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
        actions = s.legal_actions()
        assert len(actions) == len(s.legal_moves())
        assert int(mask.sum()) == len({a for a in actions if a is not None})
        assert all(mask[a] for a in actions if a is not None)
        action = next(a for a in actions if a is not None)
        index = actions.index(action)
        expected = s.legal_moves()[index].text
        assert s.push_action(action).text == expected
    with pytest.raises(dagaz.MoveError):
        s.push_action(game.num_actions + 1)


@pytest.mark.parametrize("name", GAMES)
def test_observations(name):
    game = dagaz.Game(name)
    s = game.new_session()
    obs = s.observation()
    assert obs.dtype == np.float32 and obs.shape == game.observation_shape
    assert np.all(obs[-1] == 0), "the first player to move"
    obs[0, 0, 0] = 123.0  # a copy: writing to it changes nothing
    assert s.observation()[0, 0, 0] != 123.0 or name == "kalah"
    s.push(s.legal_moves()[0])
    if s.side == 1:
        assert np.all(s.observation()[-1] == 1)


def test_search_returns_a_move_score_and_line():
    s = dagaz.Game("chess").new_session("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    r = dagaz.search(s, "ab:d3", seed=1)
    assert isinstance(r, dagaz.SearchResult)
    assert r.move.text == "a1a8"
    assert r.pv[0] == "a1a8" and r.depth >= 1 and r.nodes > 0
    assert r.score is not None and r.score > 10000
    assert dagaz.search(s, "random", seed=3).move.text in {m.text for m in s.legal_moves()}
    for m in ["a1a8"]:
        s.push(m)
    assert dagaz.search(s, "random") is None, "no move after mate"


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: dagaz.Game("nonesuch"), dagaz.GameError, "unknown game 'nonesuch'"),
        (
            lambda: dagaz.Game("chess").new_session("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            dagaz.PositionError,
            "Black has 0 King on the board; Chess allows exactly 1",
        ),
        (lambda: dagaz.Game("chess").new_session().push("e2e5"), dagaz.MoveError, "'e2e5' is not a legal move"),
        (lambda: dagaz.search(dagaz.Game("chess").new_session(), "fast"), dagaz.EngineError, "bad engine 'fast'"),
        (lambda: dagaz.Game("chess").new_session().push(42), TypeError, "a move is a dagaz.Move or its text"),
    ],
)
def test_errors_are_exceptions_with_the_command_lines_messages(call, error, message):
    with pytest.raises(error, match=message):
        call()
    assert issubclass(error, dagaz.DagazError) or error is TypeError


def test_a_game_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(
        """
[game]
name = "tiny"
players = ["White", "Black"]

[board]
grid = "a-c x 3-1"

[players.Black]
map = "N=S S=N"

[pieces.Rook]
letter = "R"
moves = "(+)([p]\\\\1)*"

[setup]
fen = "r2/3/2R w"
"""
    )
    game = dagaz.Game.from_file(path)
    assert game.name == "tiny"
    assert len(game.new_session().legal_moves()) == 4


def test_a_zillions_rules_file(tmp_path):
    path = tmp_path / "duel.zrf"
    path.write_text(
        """
(define step ($1 (verify empty?) add))
(game
  (title "Duel")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
               (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
         (symmetry Black (n s) (s n)))
  (piece (name Man) (moves (step n) (step e) (step w)))
  (board-setup (White (Man a1)) (Black (Man c3)))
  (loss-condition (White Black) stalemated))
"""
    )
    game = dagaz.Game(str(path))
    assert sorted(m.text for m in game.new_session().legal_moves()) == ["a1a2", "a1b1"]
    with pytest.raises(dagaz.DagazError, match="no variant 3"):
        dagaz.Game(f"{path}:3")


def test_import_variants_converts_sections_and_reports_problems(tmp_path):
    text = "[knightking:chess]\nking = k:KN\n[ducks:chess]\nwallingRule = duck\n"
    (name, game, problems), (name2, game2, problems2) = dagaz.import_variants(text)
    assert (name, problems) == ("knightking", [])
    path = tmp_path / "knightking.toml"
    path.write_text(game)
    session = dagaz.Game.from_file(path).new_session()
    # chess's 20 first moves, and the King's Knight leaps to d3 and f3.
    assert len(session.legal_moves()) == 22
    assert name2 == "ducks" and game2 is None
    assert problems2 == ["line 4: cannot convert: wallingRule: 'duck': this rule cannot be converted yet"]
    with pytest.raises(dagaz.GameError):
        dagaz.import_variants("no section")


def test_a_shuffled_session_draws_a_chess960_start():
    game = dagaz.Game("chess:chess960")
    assert game.new_session().fen() == game.new_session(fen=None).fen()
    first = game.new_session(shuffled=True, seed=3).fen()
    assert first == game.new_session(shuffled=True, seed=3).fen()
    starts = {game.new_session(shuffled=True, seed=s).fen() for s in range(20)}
    assert len(starts) > 10
    for fen in starts:
        white = fen.split(" ")[0].split("/")[-1]
        assert fen.split("/")[0] == white.lower()
    # A game that does not shuffle starts from its setup.
    chess = dagaz.Game("chess")
    assert chess.new_session(shuffled=True).fen() == chess.new_session().fen()
