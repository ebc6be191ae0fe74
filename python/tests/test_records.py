"""Game records against other people's readers and writers (test oracles
only): dagaz's SAN and PGN against python-chess, its KIF against
cshogi's. Random games, so every kind of move turns up: captures,
promotions, castling, en passant, drops, checks and mates."""

import io
import random
import re

import pytest

import dagaz

chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")


def uci_of(text):
    """The UCI form of a dagaz chess move text (`e5d6xd5` is `e5d6`)."""
    m = re.match(r"([a-h][1-8])([a-h][1-8])([qrbn])?", text)
    return m.group(1) + m.group(2) + (m.group(3) or "")


def random_chess_game(seed, plies=160):
    rng = random.Random(seed)
    session = dagaz.Game("chess").new_session()
    for _ in range(plies):
        moves = session.legal_moves()
        if not moves:
            break
        session.push(rng.choice(moves))
    return session


@pytest.mark.parametrize("seed", range(6))
def test_san_of_every_legal_move_is_python_chess_san(seed):
    rng = random.Random(seed)
    session = dagaz.Game("chess").new_session()
    board = chess.Board()
    compared = 0
    for _ in range(150):
        moves = session.legal_moves()
        if not moves:
            break
        for move, san in zip(moves, session.san_moves()):
            assert san == board.san(chess.Move.from_uci(uci_of(move.text))), board.fen()
            compared += 1
        move = rng.choice(moves)
        session.push(move)
        board.push_uci(uci_of(move.text))
    assert compared > 1000


@pytest.mark.parametrize("seed", range(4))
def test_python_chess_reads_dagaz_pgn(seed):
    session = random_chess_game(seed)
    text = session.record({"Event": "test", "White": "A", "Black": "B"})
    game = chess_pgn.read_game(io.StringIO(text))
    assert not game.errors
    assert [m.uci() for m in game.mainline_moves()] == [uci_of(t) for t in session.moves]
    assert game.headers["White"] == "A"
    result = session.result()
    assert game.headers["Result"] == (result.score if result else "*")


@pytest.mark.parametrize("seed", range(3))
def test_python_chess_reads_dagaz_crazyhouse_pgn(seed):
    """The Variant tag is lichess's name, which python-chess knows: the
    record is read as crazyhouse, drops and all, to the same board."""
    rng = random.Random(200 + seed)
    session = dagaz.Game("chess:crazyhouse").new_session()
    for _ in range(120):
        moves = session.legal_moves()
        if not moves:
            break
        session.push(rng.choice(moves))
    text = session.record({"Event": "test"})
    assert '[Variant "Crazyhouse"]' in text
    game = chess_pgn.read_game(io.StringIO(text))
    assert not game.errors, game.errors
    assert game.board().uci_variant == "crazyhouse"
    board = game.end().board()
    assert len(board.move_stack) == len(session.moves)
    placement = lambda fen: fen.split("[")[0].split(" ")[0].replace("~", "")
    assert placement(board.fen()) == placement(session.fen())


@pytest.mark.parametrize("seed", range(4))
def test_dagaz_reads_python_chess_pgn(seed):
    rng = random.Random(100 + seed)
    board = chess.Board()
    for _ in range(120):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    game = chess_pgn.Game.from_board(board)
    game.headers["Event"] = "python-chess"
    # A comment and a side line, which readers skip.
    node = game.next()
    if node is not None:
        node.comment = "a comment"
        alternatives = [m for m in chess.Board().legal_moves if m != node.move]
        game.add_variation(alternatives[0]).comment = "a side line"
    text = str(game)
    session = dagaz.load_record(text)
    assert [uci_of(t) for t in session.moves] == [m.uci() for m in board.move_stack]


def test_pgn_from_a_position_and_a_declared_result():
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    session = dagaz.Game("chess").new_session(fen)
    session.push("f1b5")
    text = session.record()
    assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
    assert "3. Bb5 *" in text
    game = chess_pgn.read_game(io.StringIO(text))
    assert game.board().fen() == fen
    resigned = text.replace("3. Bb5 *", "3. Bb5 1-0").replace('[Result "*"]', '[Result "1-0"]')
    loaded = dagaz.load_record(resigned)
    assert loaded.moves == ["f1b5"]
    assert loaded.result().winner == 0


def test_a_wrong_move_is_named():
    with pytest.raises(dagaz.DagazError, match=r"move 2 \('Nf6'\)"):
        dagaz.load_record("1. e4 e5 2. Nf6 Nc6 *")


cshogi = pytest.importorskip("cshogi")
kif = pytest.importorskip("cshogi.KIF")


def random_shogi_board(seed, plies=120):
    rng = random.Random(seed)
    board = cshogi.Board()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


@pytest.mark.parametrize("seed", range(4))
def test_dagaz_reads_cshogi_kif(seed, tmp_path):
    moves = random_shogi_board(seed)
    path = tmp_path / "game.kif"
    exporter = kif.Exporter(str(path))
    exporter.header(["Sente", "Gote"])
    board = cshogi.Board()
    for move in moves:
        exporter.move(move)
        board.push(move)
    exporter.end("resign")
    exporter.close()
    # cshogi writes KIF in Shift_JIS, as Kakinoki's programs do.
    session = dagaz.load_record(path.read_bytes().decode("cp932"))
    assert session.moves == [cshogi.move_to_usi(m) for m in moves]
    assert session.result().winner == 1 - len(moves) % 2


@pytest.mark.parametrize("seed", range(4))
def test_cshogi_reads_dagaz_kif(seed):
    rng = random.Random(seed)
    session = dagaz.Game("shogi").new_session()
    for _ in range(150):
        moves = session.legal_moves()
        if not moves:
            break
        session.push(rng.choice(moves))
    text = session.record({"White": "Sente", "Black": "Gote"})
    parsed = kif.Parser.parse_str(text)
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == session.moves
    assert parsed.names == ["Sente", "Gote"]
