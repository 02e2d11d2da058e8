"""The rules engine of the Pente family (pure Python, no Django).

Import from here: ``from games.engine import Game, IllegalMove, get_variant, parse_point``.
"""

from .errors import BadOptions, BadRecord, EngineError, IllegalMove, UnknownGame
from .game import DECISIONS, Game, MoveResult
from .notation import COLUMNS, parse_point, point_name
from .openings import Takeback
from .outcome import Outcome, Termination
from .records import (
    Record,
    RecordMoveError,
    Replay,
    game_from_record,
    parse_record,
    parse_records,
    record_from_game,
    replay_record,
    replay_summary,
    standard_headers,
    write_record,
    write_records,
)
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
    "Outcome",
    "Record",
    "RecordMoveError",
    "Replay",
    "Takeback",
    "Termination",
    "UnknownGame",
    "Variant",
    "game_from_record",
    "get_variant",
    "parse_point",
    "parse_record",
    "parse_records",
    "point_name",
    "record_from_game",
    "replay_record",
    "replay_summary",
    "standard_headers",
    "write_record",
    "write_records",
]
