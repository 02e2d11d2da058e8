"""How a game ended, as a value shared by every rule family of the engine.

``Termination`` says how (its values are the words the server stores); ``Outcome`` adds who won,
as seats. A game still being played has no outcome (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Termination(StrEnum):
    """How a game ended."""

    FIVE = "five"  # a line of five (every Pente-family game but Connect6)
    SIX = "six"  # Connect6's line of six
    CAPTURES = "captures"  # the capture target reached
    DRAW = "draw"  # the board is full
    SCORE = "score"  # Go: counted after the dead stones are agreed
    RESIGN = "resign"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    #: An imported record's result that its moves do not reach and its record does not say how
    #: it came about (Pente.org's ``1-0`` after the last stone: a resignation, a loss on time...).
    RECORDED = "recorded"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: how it ended and the winning seats (sorted; ``()`` for a draw)."""

    termination: Termination
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "termination", Termination(self.termination))
        object.__setattr__(self, "winners", tuple(sorted(self.winners)))

    @property
    def is_draw(self) -> bool:
        """Whether nobody won."""
        return not self.winners
