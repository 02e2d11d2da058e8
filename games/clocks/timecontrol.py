"""The time control of a game, challenge, set or tournament as one immutable, validated value
(pure): untimed, live (Fischer) or turn-based, its rating category, and its conversion to and
from the four model columns that games, sets, challenges and tournaments store. The limits and
categories are in ``docs/timeouts.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from pente_site.errors import Invalid

MAX_INITIAL_MINUTES = 999
MAX_INCREMENT_SECONDS = 59
MIN_DAYS_PER_MOVE = 1
MAX_DAYS_PER_MOVE = 30
SPEED_LIMIT = 330  # initial*60 + increment*15 <= 330 -> speed
SPEED_INCREMENT_ONLY_BELOW = 24  # no initial time: increment < 24 s -> speed


#: The names of the four values (request fields and model columns).
FIELDS = ("time_control", "initial_minutes", "increment_seconds", "days_per_move")


class Kind(StrEnum):
    """How a game is timed (the ``time_control`` column)."""

    NONE = "none"
    LIVE = "live"
    TURN = "turn"


class Category(StrEnum):
    """The rating category of a time control (the ``category`` column)."""

    SPEED = "speed"
    NORMAL = "normal"
    TURN = "turn"
    UNTIMED = "untimed"


class ClockError(Invalid):
    """A time control that the rules do not allow (code ``bad_time_control``)."""

    def __init__(self, detail: str) -> None:
        super().__init__("bad_time_control", detail)


class HasTimeControl(Protocol):
    """A model row with the four time-control columns."""

    time_control: str
    initial_minutes: int
    increment_seconds: int
    days_per_move: int


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A validated time control: untimed (no numbers), live (``initial_minutes`` 0..999 and
    ``increment_seconds`` 0..59, not both zero) or turn-based (``days_per_move`` 1..30)."""

    kind: Kind = Kind.NONE
    initial_minutes: int = 0
    increment_seconds: int = 0
    days_per_move: int = 0

    def __post_init__(self) -> None:
        try:
            kind = Kind(self.kind)
        except ValueError:
            raise ClockError(f"Unknown time control {self.kind!r}.") from None
        object.__setattr__(self, "kind", kind)
        numbers = (self.initial_minutes, self.increment_seconds, self.days_per_move)
        if not all(_whole(n) for n in numbers):
            raise ClockError("Time control values must be whole numbers.")
        if kind is Kind.LIVE:
            self._check_live()
        elif kind is Kind.TURN:
            if not MIN_DAYS_PER_MOVE <= self.days_per_move <= MAX_DAYS_PER_MOVE:
                raise ClockError(f"Days per move must be {MIN_DAYS_PER_MOVE}..{MAX_DAYS_PER_MOVE}.")
            if self.initial_minutes or self.increment_seconds:
                raise ClockError("A turn-based game has no initial time or increment.")
        elif any(numbers):
            raise ClockError("An untimed game has no initial time, increment or days per move.")

    def _check_live(self) -> None:
        if not 0 <= self.initial_minutes <= MAX_INITIAL_MINUTES:
            raise ClockError(f"Initial time must be 0..{MAX_INITIAL_MINUTES} minutes.")
        if not 0 <= self.increment_seconds <= MAX_INCREMENT_SECONDS:
            raise ClockError(f"The increment must be 0..{MAX_INCREMENT_SECONDS} seconds.")
        if self.initial_minutes == 0 and self.increment_seconds == 0:
            raise ClockError("Initial time and increment cannot both be zero.")
        if self.days_per_move:
            raise ClockError("A live game has no days per move.")

    # --- making one ---------------------------------------------------------------------

    @classmethod
    def untimed(cls) -> TimeControl:
        return UNTIMED

    @classmethod
    def live(cls, initial_minutes: int, increment_seconds: int = 0) -> TimeControl:
        return cls(Kind.LIVE, initial_minutes, increment_seconds)

    @classmethod
    def turn(cls, days_per_move: int) -> TimeControl:
        return cls(Kind.TURN, days_per_move=days_per_move)

    @classmethod
    def from_fields(
        cls,
        *,
        time_control: str = Kind.NONE,
        initial_minutes: int = 0,
        increment_seconds: int = 0,
        days_per_move: int = 0,
    ) -> TimeControl:
        """From the four values as a request or a caller names them (validated)."""
        return cls(time_control, initial_minutes, increment_seconds, days_per_move)  # type: ignore[arg-type]

    @classmethod
    def pop_from(cls, values: dict[str, Any]) -> TimeControl:
        """The time control named by the four keys of ``values`` (a request's validated data),
        which are removed from it; a missing key is untimed / 0."""
        return cls.from_fields(**{name: values.pop(name) for name in FIELDS if name in values})

    @classmethod
    def of(cls, row: HasTimeControl) -> TimeControl:
        """The time control a stored row holds: only the numbers its kind uses are read."""
        kind = Kind(row.time_control)
        if kind is Kind.LIVE:
            return cls(kind, row.initial_minutes, row.increment_seconds)
        if kind is Kind.TURN:
            return cls(kind, days_per_move=row.days_per_move)
        return UNTIMED

    # --- reading it ---------------------------------------------------------------------

    @property
    def is_timed(self) -> bool:
        return self.kind is not Kind.NONE

    @property
    def category(self) -> Category:
        if self.kind is Kind.TURN:
            return Category.TURN
        if self.kind is not Kind.LIVE:
            return Category.UNTIMED
        if self.initial_minutes == 0:
            fast = self.increment_seconds < SPEED_INCREMENT_ONLY_BELOW
        else:
            fast = self.initial_minutes * 60 + self.increment_seconds * 15 <= SPEED_LIMIT
        return Category.SPEED if fast else Category.NORMAL

    @property
    def initial_clock_ms(self) -> int:
        """Each seat's live clock at the start (one increment when there is no initial time)."""
        if self.initial_minutes == 0:
            return self.increment_seconds * 1000
        return self.initial_minutes * 60_000

    @property
    def header_text(self) -> str | None:
        """The value of a Pente.org record's ``TimeControl`` header: ``initial`` or
        ``initial+increment`` for live games, the days per move for turn-based ones."""
        if self.kind is Kind.LIVE:
            if self.increment_seconds:
                return f"{self.initial_minutes}+{self.increment_seconds}"
            return str(self.initial_minutes)
        if self.kind is Kind.TURN:
            return str(self.days_per_move)
        return None

    def fields(self) -> dict[str, Any]:
        """The four model columns (pass to ``Model.objects.create(**tc.fields())``)."""
        return {
            "time_control": self.kind.value,
            "initial_minutes": self.initial_minutes,
            "increment_seconds": self.increment_seconds,
            "days_per_move": self.days_per_move,
        }

    def __str__(self) -> str:
        if self.kind is Kind.LIVE:
            return f"live {self.initial_minutes}+{self.increment_seconds}"
        if self.kind is Kind.TURN:
            return f"turn-based, {self.days_per_move} days per move"
        return "untimed"


UNTIMED = TimeControl()
