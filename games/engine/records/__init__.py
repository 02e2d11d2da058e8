"""Pente.org's PGN-like game records: read, write, and replay them through the engine. The
format, and the decisions taken where Pente.org's records are silent: ``model.Record``.
"""

from .model import Record
from .parse import parse_record, parse_records
from .replay import RecordMoveError, Replay, game_from_record, replay_record, replay_summary
from .result import StatedResult, record_outcome, record_stating, stated_result
from .write import record_from_game, standard_headers, write_record, write_records

# ``games.engine`` exports these too (``from .records import *``). The header names and
# move-text tokens are in ``model``, ``result_token`` in ``write``.
__all__ = [
    "Record",
    "RecordMoveError",
    "Replay",
    "StatedResult",
    "game_from_record",
    "parse_record",
    "parse_records",
    "record_from_game",
    "record_outcome",
    "record_stating",
    "replay_record",
    "replay_summary",
    "standard_headers",
    "stated_result",
    "write_record",
    "write_records",
]
