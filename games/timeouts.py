"""Clock services for games (skeleton; full implementation in progress)."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def clock_start(*, game: Any, now: datetime) -> None:
    """Fill the clock fields and the deadline for the first player to move (no save)."""


def clock_on_move(*, game: Any, seat: int, now: datetime) -> bool:
    """Charge the elapsed time to ``seat``, add the increment, set the next deadline (no save).

    Returns False (changing nothing) when the mover's time had already run out."""
    return True


def timeout_schedule(*, game: Any) -> None:
    """Enqueue the timeout task for the game's deadline on commit."""
