"""The FIDE (Dutch) Swiss system, Handbook C.04.3, 2026 edition (the "2025 rules"): one round of
a Swiss paired from the players' cards, exactly or not at all (``PairingTooHard`` when the node
budget is crossed; ``SwissRound.approximate`` is always False, kept for compatibility).

docs/swiss-pairing.md describes the rules as implemented (definitions, criteria C1..C21, the
candidate search, colours) and maps this package's modules. Scores are kept in half points
(``points2``: a win is 2, a draw 1) so that they stay exact.
"""

from .. import PairingError
from .cards import (
    BLACK,
    WHITE,
    PairingTooHard,
    PlayedPair,
    RoundRecord,
    SwissPlayer,
    SwissRound,
    colour_preference,
    default_rounds,
    max_rounds,
    players_from_history,
)
from .engine import idle_tpns_of, pair_round

__all__ = [
    "BLACK",
    "WHITE",
    "PairingError",
    "PairingTooHard",
    "PlayedPair",
    "RoundRecord",
    "SwissPlayer",
    "SwissRound",
    "colour_preference",
    "default_rounds",
    "idle_tpns_of",
    "max_rounds",
    "pair_round",
    "players_from_history",
]
