"""The rules engine of the Pente family (pure Python, no Django).

Import from here: ``from games.engine import Game, IllegalMove, get_variant, parse_point``.
"""

from .errors import BadOptions, BadRecord, EngineError, IllegalMove, UnknownGame
from .game import DECISIONS, Game, MoveResult
from .notation import COLUMNS, parse_point, point_name
from .variants import VARIANTS, Variant, get_variant

__all__ = [
    "COLUMNS",
    "DECISIONS",
    "VARIANTS",
    "BadOptions",
    "BadRecord",
    "EngineError",
    "Game",
    "IllegalMove",
    "MoveResult",
    "UnknownGame",
    "Variant",
    "get_variant",
    "parse_point",
    "point_name",
]
