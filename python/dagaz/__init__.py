"""Every dagaz board game in Python.

>>> import dagaz
>>> game = dagaz.Game("chess")
>>> s = game.new_session()
>>> len(s.legal_moves())
20
>>> s.push("e2e4").text
'e2e4'
>>> s.perft(3)
13160

Games come from dagaz's library (``dagaz.games()``) or from game files
(``dagaz.Game.from_file(path)``). A ``Session`` is a game in progress:
legal moves, ``push``/``pop``, the position string (``fen()``), the result,
perft, a text or SVG picture, and for learning a fixed numbering of moves
(``legal_action_mask``, ``push_action``) and ``observation`` planes.
``dagaz.search(session, "ab:0.2s")`` asks the computer for a move.
``session.record()`` writes the game as PGN (SAN moves), PDN or KIF, and
``dagaz.load_record(text)`` reads one back.
``dagaz.pettingzoo.env("xiangqi")`` is a PettingZoo AEC environment.
"""

from ._dagaz import (
    DagazError,
    EngineError,
    Game,
    GameError,
    Move,
    MoveError,
    PositionError,
    Result,
    SearchResult,
    Session,
    games,
    import_variants,
    load_record,
    search,
)

__all__ = [
    "DagazError",
    "EngineError",
    "Game",
    "GameError",
    "Move",
    "MoveError",
    "PositionError",
    "Result",
    "SearchResult",
    "Session",
    "games",
    "import_variants",
    "load_record",
    "search",
]
