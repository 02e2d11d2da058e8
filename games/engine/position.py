"""``Position``: the one interface every game family implements (``game.Game``, ``go.GoGame``).

Callers hold a ``Position`` and never ask which family it is: what differs is a hook here,
answered by each family, or a capability attribute (``marks_dead``). The shared reading of the
board lives here once; a family keeps its state in the slots these read (``_size``, ``_board``,
``_captures``, ``_seat``, ``_outcome``, ``_log``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .errors import IllegalMove
from .notation import COLUMNS, board_rows, point_name

if TYPE_CHECKING:
    from .openings import Takeback
    from .outcome import Outcome
    from .variants import Variant


class Position(ABC):
    """A mutable position of a game, with its rules to move it forward (``play``, ``act``) and
    back (``pop``). Points are ints ``x + size*y``; colours and seats are ints from 1."""

    __slots__ = ()

    _size: int
    _n: int
    _board: list[int]
    _captures: list[int]
    _seat: int | None
    _outcome: Outcome | None
    _log: list[tuple]

    #: Whether the game ends by marking the dead stones after two passes and counting the
    #: board (Go): ``mark_dead``, ``score()``, ``phase`` and the marking's answer apply.
    marks_dead: bool = False
    #: Go's komi (white's points added to its count); None for games without one.
    komi: float | None = None
    #: Go's phase (``GoPhase``: playing, marking, over); None for games without phases.
    phase: Any = None

    # ------------------------------------------------------------------ the game

    @property
    @abstractmethod
    def variant(self) -> Variant: ...

    @property
    @abstractmethod
    def seats(self) -> int: ...

    @property
    @abstractmethod
    def partners(self) -> bool: ...

    @property
    @abstractmethod
    def rated(self) -> bool: ...

    @property
    @abstractmethod
    def tournament_rule(self) -> bool: ...

    @property
    @abstractmethod
    def adjacent_only(self) -> bool: ...

    @property
    def size(self) -> int:
        return self._size

    # ------------------------------------------------------------------ the position

    @property
    def board(self) -> tuple[int, ...]:
        """The board as a flat tuple: ``board[x + size*y]`` is 0 (empty) or a colour."""
        return tuple(self._board)

    @property
    def captures(self) -> tuple[int, ...]:
        """Captured stones by colour (colour 1 first)."""
        return tuple(self._captures[1:])

    @property
    @abstractmethod
    def plies(self) -> int:
        """Moves played so far."""

    @property
    @abstractmethod
    def actions(self) -> list[int | str]:
        """Every action so far, stones as points, in the form ``act`` (and ``replay``) reads."""

    @property
    def last_point(self) -> int | None:
        """The point of the last stone played (other actions skipped), or None."""
        for entry in reversed(self._log):
            if type(entry[0]) is int:
                return entry[0]
        return None

    def rows(self) -> list[str]:
        return board_rows(self._board, self._size)

    def parse_point(self, point: int | str) -> int:
        """A point of this board from an int or a name (``IllegalMove`` if it is not one)."""
        return self._coerce(point)

    def parse_move(self, token: int | str) -> int | None:
        """The point of a move as a client sends it, or None for a pass in a game that has
        passes (``IllegalMove`` if it is neither)."""
        return self._coerce(token)

    def point_name(self, point: int) -> str:
        return point_name(point, self._size)

    @abstractmethod
    def _coerce(self, point: object) -> int: ...

    # ------------------------------------------------------------------ whose turn

    @property
    def to_move_seat(self) -> int | None:
        """The seat expected to act next (play, decide, mark or answer); None when over."""
        return self._seat

    @property
    @abstractmethod
    def to_move_colour(self) -> int | None: ...

    @abstractmethod
    def seat_colour(self, seat: int) -> int: ...

    @abstractmethod
    def stones_this_turn(self) -> int:
        """Stones the side to move places this turn (0 when it must do something else)."""

    @property
    @abstractmethod
    def pending_decision(self) -> str | None:
        """The opening decision due now (D-Pente, Swap2), or None."""

    @abstractmethod
    def decisions_available(self) -> tuple[str, ...]:
        """The choices of ``pending_decision`` (empty when none is due)."""

    @property
    def decision_due(self) -> str | None:
        """What the seat to move must decide instead of moving: the opening's decision, or
        ``"dead_stones"`` when a proposal of dead stones awaits its answer; else None."""
        return self.pending_decision

    def decision_choices(self) -> tuple[str, ...]:
        """The choices of ``decision_due`` (empty when none is due)."""
        return self.decisions_available()

    def can_pass(self) -> bool:
        """Whether the side to move may pass now."""
        return False

    # ------------------------------------------------------------------ moving

    @abstractmethod
    def play(self, point: int | str, *, seat: int | None = None) -> Any:
        """Place the next stone at ``point`` (``IllegalMove`` when the rules refuse it)."""

    @abstractmethod
    def play_turn(self, points: Sequence[int | str | None], *, seat: int | None = None) -> tuple:
        """Play a whole turn (Connect6: two stones; None: a pass), all or nothing."""

    @abstractmethod
    def decide(
        self, choice: str, *, seat: int | None = None, disputed: Iterable[int | str] = ()
    ) -> str:
        """Make the decision due (``decision_choices()``) and return it as the game's record
        of moves keeps it (Go's rejection with the stones it ``disputes``)."""

    @abstractmethod
    def act(self, action: Any, *, seat: int | None = None) -> Any:
        """Take one action in the form ``actions`` lists it (a stone, a decision, ...)."""

    def mark_dead(self, points: Iterable[int | str] | str, *, seat: int | None = None) -> None:
        """Propose the dead stones (only where ``marks_dead``)."""
        raise IllegalMove("not_marking", "This game has no dead stones to mark.")

    def without_automatic(self, actions: Iterable[int | str]) -> list[int | str]:
        """``actions`` to play on this new position, without a leading copy of a stone the
        game placed itself."""
        return list(actions)

    @abstractmethod
    def check(self, point: int | str, *, seat: int | None = None) -> None:
        """Raise ``IllegalMove`` unless ``seat`` (default: whoever is to move) may play
        ``point``."""

    def is_legal(self, point: int | str) -> bool:
        try:
            self.check(point)
        except IllegalMove:
            return False
        return True

    @abstractmethod
    def legal_points(self) -> list[int]:
        """Every point the side to move may place a stone on now."""

    @abstractmethod
    def pop(self) -> int | str:
        """Take back the last action and return it."""

    @abstractmethod
    def takeback(self) -> Takeback | None:
        """What the server's undo request may take back now, or None."""

    @abstractmethod
    def copy(self) -> Position: ...

    # ------------------------------------------------------------------ the result

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it is being played."""
        return self._outcome

    @property
    @abstractmethod
    def winner_colour(self) -> int | None: ...

    def score(self, dead: Iterable[int | str] | None = None) -> Any:
        """Go's area count (``GoScore``); None for games decided on the board alone."""
        return None

    # ------------------------------------------------------------------ display

    def __str__(self) -> str:
        s = self._size
        lines = [f"{s - y:>2} {' '.join(row)}" for y, row in enumerate(self.rows())]
        lines.append("   " + " ".join(COLUMNS[:s]))
        return "\n".join(lines)
