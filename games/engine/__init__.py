"""The rules engine of the Pente family (pure Python, no Django).

Import from here: ``from games.engine import Game, IllegalMove, get_variant, parse_point``.
"""

from . import records
from .errors import BadOptions, BadRecord, EngineError, IllegalMove, UnknownGame
from .game import DECISIONS, Game, MoveResult
from .go import GoGame, GoMove, GoPhase, GoScore
from .notation import COLUMNS, parse_point, point_name, point_names
from .openings import Takeback
from .outcome import Outcome, Termination
from .position import Position
from .records import *  # noqa: F403 (records.__all__: read, write and replay records)
from .start import new_game, replay_game
from .variants import GAMES, GO_VARIANTS, VARIANTS, Variant, get_variant

__all__ = [
    "COLUMNS",
    "DECISIONS",
    "GAMES",
    "GO_VARIANTS",
    "Position",
    "VARIANTS",
    "BadOptions",
    "BadRecord",
    "EngineError",
    "Game",
    "GoGame",
    "GoMove",
    "GoPhase",
    "GoScore",
    "IllegalMove",
    "MoveResult",
    "Outcome",
    "Takeback",
    "Termination",
    "UnknownGame",
    "Variant",
    "get_variant",
    "new_game",
    "parse_point",
    "point_name",
    "point_names",
    "replay_game",
    *records.__all__,
]
