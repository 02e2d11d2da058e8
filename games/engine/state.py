"""The state of a Pente-family game and its read-only views; ``game.Game`` adds the rules."""

from __future__ import annotations

from dataclasses import dataclass

from .captures import capture_rays
from .openings import DECISIONS, Cycle, Step
from .outcome import Outcome, Termination
from .position import Position
from .tables import Tables, tables
from .variants import Variant, get_variant

# Geometry shared by every game of a board size or variant: pickled by name, not by value.
_SHARED_SLOTS = frozenset({"_variant", "_t", "_cap2", "_cap_rays", "_axes"})

# The turn order: what a decision saves in the log (``_turn()``) and taking it back restores.
_TURN_SLOTS = ("_seat_colour", "_cycle", "_ci", "_script", "_sp", "_seat", "_colour", "_pending")
Turn = tuple  # the values of _TURN_SLOTS, in order


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one stone did: where, which colour, stones captured and poofed, game over."""

    point: int
    colour: int
    captured: tuple[int, ...] = ()
    poofed: tuple[int, ...] = ()
    finished: bool = False


class _ResultSlots:
    """MoveResult's slot layout without its frozen ``__setattr__``: results are filled in here
    and then become MoveResults (``__class__`` assignment), three times faster than the frozen
    dataclass's ``__init__``; ``play()`` returns one per stone."""

    __slots__ = ("point", "colour", "captured", "poofed", "finished")


def result(point: int, colour: int, captured: tuple, poofed: tuple, finished: bool) -> MoveResult:
    r = _ResultSlots()
    r.point = point
    r.colour = colour
    r.captured = captured
    r.poofed = poofed
    r.finished = finished
    r.__class__ = MoveResult  # type: ignore[assignment]
    return r  # type: ignore[return-value]


class GameState(Position):
    """The position of a Pente-family game and what can be read from it.

    Every action is kept in ``_log``, one entry per action, which is also all ``Game.pop()`` needs
    to take it back (no board copies). An entry starts with the action (a point, or a decision's
    word) and the seat that took it:

    - a stone in a game without poofs or boats: ``(point, seat, captured)``, plus the captured
      stones' colours when more than two colours are in play;
    - a stone in a poof or boat game: ``(point, seat, captured, poofed, boat_pending_before)``;
    - a decision: ``(choice, seat, turn)``, ``turn`` being the turn order before it (``_turn()``).

    The rest of the turn order before a stone is derived: the cycle steps back by one, or the
    script by one step; a stone that ended the game did not move the turn on at all.
    """

    __slots__ = (
        "_variant",
        "_size",
        "_n",
        "_t",
        "_board",
        "_empty",
        "_seats",
        "_partners",
        "_rated",
        "_tournament_rule",
        "_adjacent",
        "_seat_colour",
        "_ncolours",
        "_captures",
        "_plies",
        "_log",
        "_automatic",
        "_outcome",
        "_winner",
        "_seat",
        "_colour",
        "_pending",
        "_script",
        "_sp",
        "_cycle",
        "_clen",
        "_ci",
        "_tr_ply",
        "_g_points",
        "_cap_mode",
        "_cap2",
        "_cap_rays",
        "_lengths",
        "_axes",
        "_target",
        "_line",
        "_exact",
        "_poof",
        "_boat",
        "_boat_pending",
        "_simple",
        "_connect6",
    )
    _variant: Variant
    _t: Tables
    _board: list[int]
    _captures: list[int]
    _seat_colour: tuple[int, ...]
    _log: list[tuple]
    _outcome: Outcome | None
    _winner: int | None
    _seat: int | None
    _colour: int | None
    _pending: str | None
    _script: tuple[Step, ...]
    _cycle: Cycle

    # ------------------------------------------------------------------ pickling

    def __getstate__(self) -> tuple[str, dict[str, object]]:
        """The variant's name and the game's own fields: the shared geometry tables are looked
        up again on loading, so a pickled game is small and quick to load (the server caches
        positions between requests)."""
        own = {k: getattr(self, k) for k in GameState.__slots__ if k not in _SHARED_SLOTS}
        return self._variant.name, own

    def __setstate__(self, state: tuple[str, dict[str, object]]) -> None:
        name, own = state
        variant = get_variant(name)
        t = tables(own["_size"])  # type: ignore[arg-type]
        self._variant = variant
        self._t = t
        self._cap2 = t.cap2
        self._axes = t.axes
        lengths = variant.capture_lengths
        self._cap_rays = capture_rays(own["_size"], lengths) if lengths else ()  # type: ignore[arg-type]
        for k, v in own.items():
            setattr(self, k, v)

    # ------------------------------------------------------------------ the game

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def partners(self) -> bool:
        return self._partners

    @property
    def rated(self) -> bool:
        return self._rated

    @property
    def tournament_rule(self) -> bool:
        """Whether the tournament rule applies in this game."""
        return self._tournament_rule

    @property
    def adjacent_only(self) -> bool:
        return self._adjacent

    # ------------------------------------------------------------------ the position

    @property
    def plies(self) -> int:
        """Stones placed so far (captured ones included)."""
        return self._plies

    @property
    def actions(self) -> list[int | str]:
        """Every action so far: stones as points, decisions as words."""
        return [entry[0] for entry in self._log]

    # ------------------------------------------------------------------ whose turn

    @property
    def to_move_colour(self) -> int | None:
        return self._colour

    @property
    def pending_decision(self) -> str | None:
        return self._pending

    def decisions_available(self) -> tuple[str, ...]:
        if self._pending is None:
            return ()
        return DECISIONS[self._pending]

    def seat_colour(self, seat: int) -> int:
        if not isinstance(seat, int) or not 1 <= seat <= self._seats:
            raise ValueError(f"There is no seat {seat!r} in a {self._seats}-seat game")
        return self._seat_colour[seat]

    def stones_this_turn(self) -> int:
        if self._outcome is not None or self._pending is not None:
            return 0
        if self._connect6 and not self._script:
            due = 2 if self._ci % 2 == 0 else 1
            return min(due, self._empty)
        return 1

    # ------------------------------------------------------------------ the result

    @property
    def winner_colour(self) -> int | None:
        """The winning colour (records and summaries are written by colour), or None."""
        return self._winner

    def _describe_result(self) -> str:
        o = self._outcome
        assert o is not None
        if o.is_draw:
            return "it was drawn: the board is full"
        how = {
            Termination.FIVE: "five in a row",
            Termination.SIX: "six in a row",
        }.get(o.termination, "captures")
        seats = " and ".join(str(s) for s in o.winners)
        return f"seat{'s' if len(o.winners) > 1 else ''} {seats} won by {how}"

    # ------------------------------------------------------------------ turn order

    def _turn(self) -> Turn:
        return tuple(getattr(self, name) for name in _TURN_SLOTS)

    def _set_turn(self, turn: Turn) -> None:
        for name, value in zip(_TURN_SLOTS, turn, strict=True):
            setattr(self, name, value)
        self._clen = len(self._cycle)

    def _apply_step(self, step: tuple) -> None:
        self._seat = step[1]
        if step[0] == "stone":
            self._colour = step[2]
            self._pending = None
        else:
            self._pending = step[2]
            self._colour = step[3]

    def _resume(self) -> None:
        """Whose turn it is, from the script or the cycle (after the game was over)."""
        if self._script:
            self._apply_step(self._script[self._sp - 1])
        else:
            self._seat, self._colour = self._cycle[self._ci]

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        return (
            f"<Game {self._variant.name} plies={self._plies} outcome={self._outcome!r} "
            f"to_move_seat={self._seat} captures={self.captures}>"
        )
