"""Types of the native module (see ``python/src/lib.rs``)."""

import os
from typing import Optional, Union

import numpy as np

class DagazError(Exception):
    """Any error of dagaz."""

class GameError(DagazError):
    """A game that cannot be loaded (unknown name, bad game file)."""

class PositionError(DagazError):
    """A position string the game does not allow."""

class MoveError(DagazError):
    """A move that is not legal here, or no move to take back."""

class EngineError(DagazError):
    """An engine spec that names no engine."""

def games() -> list[str]:
    """The names of the built-in games."""

def import_variants(
    text: str, section: str | None = None
) -> list[tuple[str, str | None, list[str]]]:
    """Fairy-Stockfish custom variants (a variants.ini text) as dagaz game
    files: per section its name, the game file (None if it could not be
    converted) and the problems found, each with its line."""

class Game:
    """A loaded game."""

    def __init__(self, name: str) -> None:
        """A built-in game (``"chess"``, ``"turkish-draughts:end"``) or a game file's path."""
    @staticmethod
    def from_file(path: Union[str, os.PathLike[str]]) -> Game: ...
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def players(self) -> list[str]:
        """The players' names, in turn order."""
    @property
    def pieces(self) -> list[str]:
        """The piece types' names."""
    @property
    def symbols(self) -> list[str]:
        """How each piece type is written in position strings (`P`, `+P`)."""
    def fsf_letter(self, piece: str) -> str:
        """The letter Fairy-Stockfish gives the piece type ``piece``, upper case."""
    @property
    def squares(self) -> list[str]:
        """The squares' names, in board order."""
    @property
    def num_actions(self) -> int:
        """How many action numbers the game's moves can have."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """(planes, height, width) of ``Session.observation()``."""
    def new_session(
        self, fen: Optional[str] = None, *, shuffled: bool = False, seed: Optional[int] = None
    ) -> Session:
        """A session from the setup or from a position string; with
        ``shuffled``, from a new draw of the setup in a game that shuffles
        it (Chess960), reproducible with ``seed``."""

class Move:
    """A legal move of a position."""

    @property
    def text(self) -> str:
        """The move text (``e2e4``, ``P*e5``, ``a3xc5xe7``)."""
    @property
    def from_(self) -> Optional[str]:
        """The start square; ``None`` for a drop."""
    @property
    def to(self) -> Optional[str]: ...
    @property
    def parts(self) -> list[str]:
        """Start, the landing square of each part, end."""
    @property
    def captures(self) -> list[str]:
        """The squares whose enemy pieces the move takes."""
    @property
    def piece(self) -> Optional[str]:
        """The moving piece's type; ``None`` in mancala."""
    @property
    def promotion(self) -> Optional[str]: ...
    @property
    def castling_rook(self) -> Optional[str]:
        """Where the Rook stood, if the move is a castling."""
    @property
    def drop(self) -> bool: ...

class Result:
    """How a finished game ended."""

    @property
    def winner(self) -> Optional[int]: ...
    @property
    def winner_name(self) -> Optional[str]: ...
    @property
    def draw(self) -> bool: ...
    @property
    def reason(self) -> str: ...
    @property
    def score(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2``."""

class Session:
    """A game in progress."""

    @property
    def game_name(self) -> str: ...
    @property
    def moves(self) -> list[str]:
        """The moves played, as text."""
    @property
    def ply(self) -> int: ...
    @property
    def side(self) -> int:
        """The index of the player to move."""
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[Move]: ...
    def push(self, move: Union[Move, str]) -> Move: ...
    def pop(self) -> Move: ...
    def fen(self) -> str: ...
    def san_moves(self) -> list[str]:
        """The legal moves in SAN, in the order of legal_moves()."""
    def record(self, tags: Optional[dict[str, str]] = None) -> str:
        """The game as its standard record: PGN, PDN or KIF."""
    def result(self) -> Optional[Result]: ...
    def perft(self, depth: int) -> int:
        """Leaves of the legal move tree (releases the GIL)."""
    def clone(self) -> Session: ...
    def render(self) -> str:
        """The board as text."""
    def svg(self) -> str:
        """The board as an SVG picture."""
    def observation(self) -> np.ndarray:
        """float32 planes of shape ``Game.observation_shape``."""
    def legal_action_mask(self) -> np.ndarray:
        """bool array of ``Game.num_actions``."""
    def legal_actions(self) -> list[Optional[int]]:
        """The action numbers of ``legal_moves()``, in order."""
    def push_action(self, action: int) -> Move: ...

class SearchResult:
    @property
    def move(self) -> Move: ...
    @property
    def score(self) -> Optional[int]: ...
    @property
    def pv(self) -> list[str]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...

def search(session: Session, engine: str = "ab:1s", seed: Optional[int] = None) -> Optional[SearchResult]:
    """The engine's move (releases the GIL while it thinks)."""

def load_record(text: str, game: Optional[Game] = None) -> Session:
    """Plays the first game of a PGN, PDN or KIF record into a session."""
