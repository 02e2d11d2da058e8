"""The Pente family's ``Position``: ``Game``, a mutable position with the rules to move it
forward and back (python-chess's ``Board`` for this family). The rules it plays, and the
decisions it takes where a game's rules are silent, are docs/rules.md's ("The Pente family",
"Opening protocols", "Multi-player and partners", "Taking a move back").

Points are ints ``x + size*y`` (x from the left, y from the top); colours are ints 1..6 (0 is
empty); seats are 1-based, as the players sat down (``seat_colour()`` tells the mapping).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .boat import breakable, still_standing
from .captures import capture_rays, captured_by, captured_by_any
from .checks import Checks
from .errors import BadOptions, IllegalMove
from .lines import lines_through
from .notation import point_name
from .openings import (
    ALL_DECISIONS,
    DECISIONS,
    PROTOCOLS,
    SCRIPTS,
    after,
    first_cycle,
    play_cycle,
    seating,
)
from .outcome import Outcome, Termination
from .poof import poofed_by
from .state import GameState, MoveResult, result
from .tables import tables
from .undo import Undo
from .variants import Variant, get_variant

__all__ = ["DECISIONS", "Game", "MoveResult"]

# capture modes
_CAP_NONE = 0
_CAP_PAIRS = 1  # two colours, pairs only: the fastest path
_CAP_RUNS = 2  # two colours, any capture lengths (Keryo: pairs and triples)
_CAP_MULTI = 3  # several colours: runs of non-mover stones; the log keeps their colours

_FIVE = Termination.FIVE
_SIX = Termination.SIX
_CAPTURES = Termination.CAPTURES
_DRAW = Termination.DRAW


class Game(Checks, Undo):
    """A position of a Pente-family game, with the rules to move it forward (and back)."""

    __slots__ = ()

    def __init__(
        self,
        variant: str | Variant,
        *,
        seats: int = 2,
        partners: bool = False,
        tournament_rule: bool | None = None,
        rated: bool = False,
        adjacent_only: bool = False,
    ) -> None:
        v = get_variant(variant)
        if v.family != "pente":
            raise BadOptions(f"{v.name} is not a game of the Pente family (see engine.new_game)")
        table = seating(v, seats, partners, tournament_rule, rated)
        t = tables(19)
        self._variant = v
        self._size = 19
        self._n = 19 * 19
        self._t = t
        self._board = [0] * self._n
        self._empty = self._n
        self._seats = table.seats
        self._partners = table.partners
        self._rated = bool(rated)
        self._tournament_rule = table.tournament_rule
        self._adjacent = bool(adjacent_only)
        self._ncolours = table.colours
        self._seat_colour = table.seat_colour
        self._captures = [0] * (table.colours + 1)
        self._plies = 0
        self._log = []
        self._outcome = None
        self._winner = None
        self._pending = None
        self._tr_ply = 2 if table.tournament_rule else -1
        self._g_points = frozenset(v.g_points) if table.tournament_rule else frozenset()
        lengths = v.capture_lengths
        self._lengths = frozenset(lengths)
        self._cap2 = t.cap2
        self._cap_rays = capture_rays(19, lengths) if lengths else ()
        if not lengths:
            self._cap_mode = _CAP_NONE
        elif table.colours > 2:
            self._cap_mode = _CAP_MULTI
        elif lengths == (2,):
            self._cap_mode = _CAP_PAIRS
        else:
            self._cap_mode = _CAP_RUNS
        self._axes = t.axes
        self._target = v.capture_target or 0
        self._line = v.line_length
        self._exact = v.exact_line
        self._poof = v.poof
        self._boat = v.boat
        self._boat_pending = None
        self._simple = not (v.poof or v.boat)
        self._connect6 = v.opening == "connect6"
        self._cycle = first_cycle(v, self._seat_colour)
        self._clen = len(self._cycle)
        self._script = ()
        self._sp = 0
        if v.opening in PROTOCOLS:
            self._ci = 0
            self._script = SCRIPTS[v.opening]
            self._next_step()
        else:
            # the centre stone is cycle[0] (Connect6: a turn of its own before the cycle)
            self._ci = self._clen - 1 if self._connect6 else 0
            self._seat, self._colour = self._cycle[self._ci]
            self._place(t.centre)
        self._automatic = len(self._log)

    @classmethod
    def from_position(
        cls,
        variant: str | Variant,
        *,
        stones: Mapping[int, Iterable[int | str] | str] | None = None,
        to_move: int = 1,
        to_move_seat: int | None = None,
        captures: Mapping[int, int] | None = None,
        plies: int = 20,
        **options: bool | int | None,
    ) -> Game:
        """A game whose board holds exactly ``stones`` ({colour: points, or "K10 L10 ..."}) with
        colour ``to_move`` (and seat ``to_move_seat``, if given) next, for tests and analysis.

        The opening is over: no protocol, no tournament rule, seat *i* holds colour *i*, no
        action to take back; ``captures`` presets capture counts ({colour: stones}); ``plies``
        is the number of stones said to have been played. ``options`` are the constructor's.
        """
        g = cls(variant, **options)  # type: ignore[arg-type]
        colours = range(1, g._ncolours + 1)
        board = [0] * g._n
        for colour, points in (stones or {}).items():
            if colour not in colours:
                raise ValueError(f"There is no colour {colour!r} in this game")
            for item in points.split() if isinstance(points, str) else points:
                p = g._coerce(item)
                if board[p]:
                    raise ValueError(f"{point_name(p, g._size)} is given twice")
                board[p] = colour
        g._board = board
        g._empty = board.count(0)
        g._plies = plies
        g._log = []
        g._automatic = 0
        g._script = ()
        g._sp = 0
        g._pending = None
        g._tr_ply = -1
        for colour, n in (captures or {}).items():
            if colour not in colours:
                raise ValueError(f"There is no colour {colour!r} in this game")
            g._captures[colour] = n
        for ci, (seat, colour) in enumerate(g._cycle):
            if colour == to_move and to_move_seat in (None, seat) and not (g._connect6 and ci % 2):
                g._ci = ci
                g._seat, g._colour = seat, colour
                return g
        raise ValueError(f"Colour {to_move} / seat {to_move_seat} never starts a turn")

    @classmethod
    def replay(
        cls, variant: str | Variant, actions: Iterable[int | str], **options: object
    ) -> Game:
        """A game built by replaying ``actions`` (stones as ints or names, decisions as str)."""
        game = cls(variant, **options)  # type: ignore[arg-type]
        for item in game.without_automatic(actions):
            if isinstance(item, str) and item in ALL_DECISIONS:
                game.decide(item)
            else:
                game.play(item)
        return game

    def without_automatic(self, actions: Iterable[int | str]) -> list[int | str]:
        """``actions`` to play on this new game, as records write them, without a leading copy
        of the centre stone the server placed itself (``IllegalMove`` if that first action is
        no point and no decision)."""
        items = list(actions)
        if self._automatic and items:
            first = items[0]
            if not (isinstance(first, str) and first in ALL_DECISIONS):
                if self._coerce(first) == self._t.centre:
                    return items[1:]
        return items

    def copy(self) -> Game:
        g = Game.__new__(Game)
        for name in GameState.__slots__:
            setattr(g, name, getattr(self, name))
        g._board = list(self._board)
        g._captures = list(self._captures)
        g._log = list(self._log)
        return g

    # ------------------------------------------------------------------ moving

    def play(self, point: int | str, *, seat: int | None = None) -> MoveResult:
        """Place the next stone at ``point`` (for ``seat``, default whoever is to move)."""
        if type(point) is not int:
            point = self._coerce(point)
        if (
            self._pending is not None
            or self._outcome is not None
            or (seat is not None and seat != self._seat)
            or not 0 <= point < self._n
            or self._board[point]
            or self._plies == self._tr_ply
            or self._adjacent
        ):
            self.check(point, seat=seat)
        return self._place(point)

    def play_turn(
        self, points: Sequence[int | str | None], *, seat: int | None = None
    ) -> tuple[MoveResult, ...]:
        """Play a whole turn: Connect6's stones (validated all-or-nothing), else one stone.

        If the first stone wins, the second is not placed.
        """
        self._check_turn(seat)
        pts = [self._coerce(p) for p in points]
        due = self.stones_this_turn()
        if len(pts) != due:
            raise IllegalMove(
                "wrong_stone_count",
                f"This turn takes {due} stone{'s' if due != 1 else ''}, not {len(pts)}",
            )
        if len(set(pts)) != len(pts):
            raise IllegalMove(
                "occupied", f"{point_name(pts[-1], self._size)} is given twice in one turn"
            )
        self._check_point(pts[0])
        for p in pts[1:]:
            # Connect6 has no captures, so the board after the first stone is the board plus it.
            self._check_point(p, extra_neighbour=pts[0])
        results = []
        for p in pts:
            results.append(self._place(p))
            if self._outcome is not None:
                break
        return tuple(results)

    def decide(
        self, choice: str, *, seat: int | None = None, disputed: Iterable[int | str] = ()
    ) -> str:
        """Make the pending opening decision (see ``decisions_available()``) and return it.
        ``disputed`` is Go's (no decision here names stones): ignored."""
        if self._outcome is not None:
            raise IllegalMove("game_over", f"The game is over: {self._describe_result()}")
        pending = self._pending
        if pending is None:
            raise IllegalMove("no_decision_pending", "There is no decision to make now")
        if seat is not None and seat != self._seat:
            raise IllegalMove(
                "not_your_turn", f"Seat {self._seat} makes this decision, not seat {seat}"
            )
        choices = DECISIONS[pending]
        if choice not in choices:
            raise IllegalMove(
                "bad_decision",
                f"{choice!r} is not a choice now; choose {' or '.join(repr(c) for c in choices)}",
            )
        self._log.append((choice, self._seat, self._turn()))
        then = after(pending, choice, self._seat_colour)
        self._seat_colour = then.seat_colour
        self._script = then.script
        self._sp = 0
        if then.script:
            self._next_step()
        else:
            self._pending = None
            self._cycle = play_cycle(then.seat_colour)
            self._clen = 2
            self._ci = 0 if then.next_colour == 1 else 1
            self._seat, self._colour = self._cycle[self._ci]
        return choice

    def act(self, action: int | str, *, seat: int | None = None) -> MoveResult | str:
        """Take one action as ``actions`` lists it: a choice of the decision due, else a
        stone."""
        if self._pending is not None and action in DECISIONS[self._pending]:
            return self.decide(action, seat=seat)
        return self.play(action, seat=seat)

    # ------------------------------------------------------------------ turn order

    def _next_step(self) -> None:
        sp = self._sp
        self._sp = sp + 1
        self._apply_step(self._script[sp])

    def _advance(self) -> None:
        if self._script:
            self._next_step()
            return
        ci = self._ci + 1
        if ci == self._clen:
            ci = 0
        self._ci = ci
        self._seat, self._colour = self._cycle[ci]

    def _finish(self, colour: int, how: Termination) -> None:
        """End the game: ``colour`` won (0: nobody did). The turn order is left as it was, for
        ``pop()``."""
        sc = self._seat_colour
        winners = tuple(s for s in range(1, self._seats + 1) if sc[s] == colour) if colour else ()
        self._outcome = Outcome(how, winners)
        self._winner = colour or None
        self._seat = None
        self._colour = None

    # ------------------------------------------------------------------ the rules

    def _place(self, p: int) -> MoveResult:
        """Put the mover's stone on ``p`` (already validated) and apply every rule."""
        b = self._board
        c = self._colour
        b[p] = c
        self._empty -= 1
        self._plies += 1
        if self._simple:
            # captures: only the stone just placed captures
            mode = self._cap_mode
            captured = ()
            if mode == _CAP_PAIRS:
                o = 3 - c
                for a, m, e in self._cap2[p]:
                    if b[a] == o and b[m] == o and b[e] == c:
                        captured += (a, m)
            elif mode == _CAP_RUNS:
                captured = captured_by(b, self._cap_rays[p], c, 3 - c, self._lengths)
            elif mode:
                captured = captured_by_any(b, self._cap_rays[p], c, self._variant.capture_lengths)
            if captured:
                if mode == _CAP_MULTI:
                    self._log.append((p, self._seat, captured, tuple(b[q] for q in captured)))
                else:
                    self._log.append((p, self._seat, captured))
                for q in captured:
                    b[q] = 0
                self._empty += len(captured)
                self._captures[c] += len(captured)
            else:
                self._log.append((p, self._seat, captured))
            poofed = ()
            # a line through the stone: ``line`` or more in a row, exactly ``line`` if exact
            five = 0
            line = self._line
            for fwd, back in self._axes[p]:
                n = 1
                for q in fwd:
                    if b[q] != c:
                        break
                    n += 1
                for q in back:
                    if b[q] != c:
                        break
                    n += 1
                if n >= line and (n == line or not self._exact):
                    five = c
                    break
        else:
            captured, poofed, five = self._place_poof_boat(p, c)
        # the judgement, the same for every variant
        if five:
            self._finish(five, _SIX if self._line == 6 else _FIVE)
        elif (captured or poofed) and (winner := self._capture_winner(c)):
            self._finish(winner, _CAPTURES)
        elif not self._empty:
            self._finish(0, _DRAW)
        else:
            self._advance()
            return result(p, c, captured, poofed, False)
        return result(p, c, captured, poofed, True)

    def _capture_winner(self, c: int) -> int:
        """The colour that has won by captures after colour ``c`` moved, or 0: the mover on
        reaching the target; in poof games a side (the mover first) that has reached it with
        strictly more captured stones than the other."""
        caps = self._captures
        target = self._target
        if not self._poof:
            return c if caps[c] >= target else 0
        o = 3 - c
        for side, other in ((c, o), (o, c)):
            if caps[side] >= target and caps[side] > caps[other]:
                return side
        return 0

    def _place_poof_boat(self, p: int, c: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """Captures, poofs and fives in poof and boat games: (captured, poofed, colour that made
        a five that wins now, or 0)."""
        b = self._board
        captured = captured_by(b, self._cap_rays[p], c, 3 - c, self._lengths)
        poofed = poofed_by(b, self._axes[p], p, c, self._lengths) if self._poof else ()
        pending = self._boat_pending
        self._log.append((p, self._seat, captured, poofed, pending))
        for q in captured:
            b[q] = 0
        for q in poofed:
            b[q] = 0
        self._empty += len(captured) + len(poofed)
        self._captures[c] += len(captured)
        self._captures[3 - c] += len(poofed)
        if pending is not None:  # a five left pending by the opponent stands: its maker wins
            self._boat_pending = None
            maker = still_standing(b, pending, self._line)
            if maker:
                return captured, poofed, maker
        if b[p] == c:  # a poofed stone completes nothing
            runs = lines_through(b, self._size, p, c, self._line)
            if runs:
                if not self._boat or not self._breakable(runs, c):
                    return captured, poofed, c
                self._boat_pending = (c, runs)
        return captured, poofed, 0

    def _breakable(self, runs: tuple[tuple[int, ...], ...], c: int) -> bool:
        v = self._variant
        return breakable(
            self._board, self._t.rays, self._cap_rays, runs, c, v.capture_lengths, self._line
        )
