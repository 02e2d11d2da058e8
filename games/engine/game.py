"""A game of the Pente family as a mutable position (like python-chess's ``Board``).

Points are ints ``x + size*y`` (x from the left, y from the top); colours are ints 1..6 (0 is
empty); seats are 1-based, as the players sat down.

Rule decisions taken here where /work/shared/RULES.md is silent
-----------------------------------------------------------------
- **Colours and seats.** Seat *i* starts with colour *i*. Only the D opening and Swap2 change
  that, and only between seats 1 and 2; ``seat_colour()`` always tells the current mapping.
- **D opening.** Seat 1 places stones 1-4 (colours 1, 2, 1, 2), anywhere; the first is free.
  Captures made by those stones count for the stone's colour. Seat 2 then decides ``"keep"``
  (seat 1 keeps colour 1 and plays the 5th stone) or ``"swap"`` (seat 2 takes colour 1 and plays
  the 5th stone; seat 1 holds colour 2). No tournament rule.
- **Swap2.** Seat 1 places stones 1-3 (colours 1, 2, 1). Seat 2 decides:
  ``"swap"``: seat 2 takes colour 1, seat 1 takes colour 2, and colour 2 (now seat 1) plays the
  4th stone; ``"keep"``: seat 2 keeps colour 2 and plays the 4th stone; ``"place_two"``: seat 2
  places stones 4 and 5 (colours 2, 1) one at a time, then seat 1 decides ``"colour1"`` (keep
  colour 1; seat 2, colour 2, plays the 6th stone) or ``"colour2"`` (seat 1 takes colour 2 and
  plays the 6th stone; seat 2 holds colour 1). No tournament rule.
- ``to_move_colour`` is the colour of the next stone, also while a decision is pending;
  ``to_move_seat`` is the seat that must act next (decide or place). Both are None when over.
- **Decision refusals:** a stone while a decision is pending is ``decision_pending`` whoever
  sends it; a decision from the wrong seat is ``not_your_turn``.
- **Connect6.** ``play()`` places one stone (the engine tracks the half-turn, which lets records
  be replayed stone by stone); ``play_turn()`` takes the whole turn at once, validated
  all-or-nothing; ``stones_this_turn()`` is the number of stones still due this turn (2 at the
  start of a turn, 1 after its first stone, never more than the empty points left).
- **Tournament rule** applies to the third stone on the board (player 1's second stone, also in
  Partners, where seat 3 places it). It can be chosen only in the games that have it (Pente,
  Keryo-Pente, Poof-Pente, Boat-Pente, O-Pente, G-Pente) and never in multi-player games;
  ``tournament_rule=True`` elsewhere, or ``False`` for G-Pente, raises ``BadOptions``.
- **Multi-player (3-6 seats) and Partners (4 seats)** are offered for Pente and Keryo-Pente
  (Keryo: a triple of non-mover stones, mixed colours allowed, is captured too). Partners: seats
  1 and 3 play colour 1 (team A), seats 2 and 4 colour 2 (team B); the team shares its capture
  count (``captures`` is per colour) and the stones of a partner count as the mover's own for
  brackets and for fives; a win lists both team seats in ``winner_seats``. The tournament rule
  (when on) binds the third stone, i.e. seat 3.
- **Adjacent-only**: every stone but the very first of the game must touch (8 neighbours) a stone
  on the board at the time it is placed; for a Connect6 turn, the second stone may touch the
  first.
- **Poof capture win:** after each move, first the mover and then the opponent are checked: a
  side wins by captures when it has reached the target and has strictly more captured stones
  than the other side.
- **Boat (Boat-Pente, O-Pente).** After the mover's captures and poofs, every line of five or more
  through the stone just placed is a "five". It wins at once unless one single opponent move
  would capture across all of them (a capture is any bracket of the variant's capture lengths,
  several at once from the same stone; a five "stands" while 5 of its stones in a row remain).
  Otherwise the game goes on with the fives pending: after the opponent's reply, if any pending
  five still stands its maker wins by "five" at once (even if the reply reached the capture
  target or made a five of its own); if none stands, the reply is judged normally. A move that
  makes a breakable five but reaches the capture target (strictly more, in O-Pente) wins by
  "captures". When a five would be breakable but the board is full, it stands and wins.
- **Draw:** after a move that wins nothing, if no empty point is left the game is drawn.
- ``Game.replay(variant, actions)`` accepts the ``actions`` list of a game (whose first entry is
  the automatic centre stone, when there is one; a list without it works too), point names
  ("K10") in place of ints, and decision strings. Illegal actions raise ``IllegalMove``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import BadOptions, IllegalMove
from .notation import COLUMNS, parse_point, point_name
from .tables import DIRECTIONS, tables
from .variants import Variant, get_variant

IN_PROGRESS = "in_progress"
FINISHED = "finished"
DRAW = "draw"

DECISIONS: dict[str, tuple[str, ...]] = {
    "d_swap": ("keep", "swap"),
    "swap2": ("swap", "keep", "place_two"),
    "swap2_colour": ("colour1", "colour2"),
}
_ALL_DECISIONS = frozenset(c for cs in DECISIONS.values() for c in cs)

# capture modes
_CAP_NONE = 0
_CAP_PAIRS = 1  # two colours, pairs
_CAP_KERYO = 2  # two colours, pairs and triples
_CAP_MULTI = 3  # several colours: runs of non-mover stones

_MULTI_VARIANTS = ("Pente", "Keryo-Pente")


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one stone did: where, which colour, stones captured and poofed, game over."""

    point: int
    colour: int
    captured: tuple[int, ...] = ()
    poofed: tuple[int, ...] = ()
    finished: bool = False


_new_result = object.__new__
_set = object.__setattr__


def _result(point: int, colour: int, captured: tuple, poofed: tuple, finished: bool) -> MoveResult:
    # Same as MoveResult(...) without the frozen dataclass __init__'s overhead.
    r = _new_result(MoveResult)
    _set(r, "point", point)
    _set(r, "colour", colour)
    _set(r, "captured", captured)
    _set(r, "poofed", poofed)
    _set(r, "finished", finished)
    return r


class Game:
    """A position of a Pente-family game, with the rules to move it forward."""

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
        "_actions",
        "_last",
        "_status",
        "_winner",
        "_reason",
        "_seat",
        "_colour",
        "_pending",
        "_script",
        "_cycle",
        "_clen",
        "_ci",
        "_tr_ply",
        "_g_points",
        "_cap_mode",
        "_target",
        "_line",
        "_exact",
        "_poof",
        "_poof_lengths",
        "_boat",
        "_boat_pending",
        "_simple",
        "_connect6",
    )

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
        if partners:
            if seats not in (2, 4):
                raise BadOptions(f"Partners Pente is played by 4 seats, not {seats}")
            seats = 4
        if not isinstance(seats, int) or not 2 <= seats <= 6:
            raise BadOptions(f"A game has 2 to 6 seats, not {seats!r}")
        if (seats > 2 or partners) and v.name not in _MULTI_VARIANTS:
            kind = "Partners" if partners else f"{seats}-player"
            raise BadOptions(f"{kind} games are offered for Pente and Keryo-Pente, not {v.name}")
        multi = seats > 2 and not partners
        if v.tournament_rule_always:
            if tournament_rule is False:
                raise BadOptions(f"In {v.name} the tournament rule always applies")
            tr = True
        elif tournament_rule is None:
            tr = bool(rated and v.tournament_rule_when_rated and not multi)
        elif tournament_rule:
            if not v.tournament_rule_when_rated:
                raise BadOptions(f"{v.name} has no tournament rule")
            if multi:
                raise BadOptions("Multi-player games have no tournament rule")
            tr = True
        else:
            tr = False

        t = tables(19)
        self._variant = v
        self._size = 19
        self._n = 19 * 19
        self._t = t
        self._board = [0] * self._n
        self._empty = self._n
        self._seats = seats
        self._partners = bool(partners)
        self._rated = bool(rated)
        self._tournament_rule = tr
        self._adjacent = bool(adjacent_only)
        self._ncolours = 2 if seats == 2 or partners else seats
        if partners:
            self._seat_colour = [0, 1, 2, 1, 2]
        else:
            self._seat_colour = list(range(seats + 1))
        self._captures = [0] * (self._ncolours + 1)
        self._plies = 0
        self._actions: list[int | str] = []
        self._last: int | None = None
        self._status = IN_PROGRESS
        self._winner: int | None = None
        self._reason: str | None = None
        self._pending: str | None = None
        self._script: list[tuple] = []
        self._tr_ply = 2 if tr else -1
        self._g_points = frozenset(v.g_points) if tr else frozenset()
        lengths = v.capture_lengths
        if not lengths:
            self._cap_mode = _CAP_NONE
        elif self._ncolours > 2:
            self._cap_mode = _CAP_MULTI
        elif lengths == (2,):
            self._cap_mode = _CAP_PAIRS
        else:
            self._cap_mode = _CAP_KERYO
        self._target = v.capture_target or 0
        self._line = v.line_length
        self._exact = v.exact_line
        self._poof = v.poof
        self._poof_lengths = frozenset(lengths) if v.poof else frozenset()
        self._boat = v.boat
        self._boat_pending: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        self._simple = not (v.poof or v.boat)
        self._connect6 = v.opening == "connect6"

        if v.opening in ("d", "swap2"):
            self._set_cycle(((1, 1), (2, 2)))
            if v.opening == "d":
                self._script = [
                    ("stone", 1, 1),
                    ("stone", 1, 2),
                    ("stone", 1, 1),
                    ("stone", 1, 2),
                    ("decide", 2, "d_swap", 1),
                ]
            else:
                self._script = [
                    ("stone", 1, 1),
                    ("stone", 1, 2),
                    ("stone", 1, 1),
                    ("decide", 2, "swap2", 2),
                ]
            self._next_step()
        else:
            if self._connect6:
                self._set_cycle(((2, 2), (2, 2), (1, 1), (1, 1)))
            else:
                self._set_cycle(tuple((s, self._seat_colour[s]) for s in range(1, seats + 1)))
            # the centre stone is cycle[0] (Connect6: a turn of its own before the cycle)
            self._ci = self._clen - 1 if self._connect6 else 0
            self._seat = 1
            self._colour = 1
            self._place(t.centre)

    # ------------------------------------------------------------------ read-only state

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def size(self) -> int:
        return self._size

    @property
    def board(self) -> tuple[int, ...]:
        """The board as a flat tuple: ``board[x + size*y]`` is 0 (empty) or a colour."""
        return tuple(self._board)

    @property
    def plies(self) -> int:
        return self._plies

    @property
    def actions(self) -> list[int | str]:
        return list(self._actions)

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

    @property
    def to_move_seat(self) -> int | None:
        return self._seat

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
        if self._status != IN_PROGRESS or self._pending is not None:
            return 0
        if self._connect6 and not self._script:
            due = 2 if self._ci % 2 == 0 else 1
            return min(due, self._empty)
        return 1

    @property
    def captures(self) -> tuple[int, ...]:
        return tuple(self._captures[1:])

    @property
    def status(self) -> str:
        return self._status

    @property
    def winner_colour(self) -> int | None:
        return self._winner

    @property
    def winner_seats(self) -> tuple[int, ...]:
        if self._winner is None:
            return ()
        return tuple(s for s in range(1, self._seats + 1) if self._seat_colour[s] == self._winner)

    @property
    def result_reason(self) -> str | None:
        return self._reason

    @property
    def last_point(self) -> int | None:
        return self._last

    @property
    def is_over(self) -> bool:
        return self._status != IN_PROGRESS

    def rows(self) -> list[str]:
        s = self._size
        b = self._board
        return [
            "".join("." if v == 0 else str(v) for v in b[y * s : (y + 1) * s]) for y in range(s)
        ]

    def __repr__(self) -> str:
        return (
            f"<Game {self._variant.name} plies={self._plies} status={self._status} "
            f"to_move_seat={self._seat} captures={self.captures}>"
        )

    def __str__(self) -> str:
        s = self._size
        lines = [f"{s - y:>2} {' '.join(row)}" for y, row in enumerate(self.rows())]
        lines.append("   " + " ".join(COLUMNS[:s]))
        return "\n".join(lines)

    # ------------------------------------------------------------------ validation

    def _coerce(self, point: object) -> int:
        if isinstance(point, bool):
            raise IllegalMove("bad_coordinate", f"{point!r} is not a point")
        if isinstance(point, int):
            if not 0 <= point < self._n:
                raise IllegalMove(
                    "off_board",
                    f"{point} is off the {self._size}x{self._size} board (0..{self._n - 1})",
                )
            return point
        if isinstance(point, str):
            return parse_point(point, self._size)
        raise IllegalMove("bad_coordinate", f"{point!r} is not a point")

    def _describe_result(self) -> str:
        if self._status == DRAW:
            return "it was drawn: the board is full"
        how = "five in a row" if self._reason == "five" else "captures"
        seats = " and ".join(str(s) for s in self.winner_seats)
        who = f"seat{'s' if len(self.winner_seats) > 1 else ''} {seats}"
        return f"{who} won by {how}"

    def _check_turn(self, seat: int | None) -> None:
        if self._status != IN_PROGRESS:
            raise IllegalMove("game_over", f"The game is over: {self._describe_result()}")
        if self._pending is not None:
            choices = " or ".join(repr(c) for c in DECISIONS[self._pending])
            raise IllegalMove(
                "decision_pending",
                f"No stone can be placed yet: seat {self._seat} must first choose {choices}",
            )
        if seat is not None and seat != self._seat:
            raise IllegalMove(
                "not_your_turn", f"It is seat {self._seat}'s turn to move, not seat {seat}'s"
            )

    def _check_point(self, p: int, extra_neighbour: int | None = None) -> None:
        b = self._board
        if b[p]:
            raise IllegalMove("occupied", f"{point_name(p, self._size)} is already taken")
        if self._plies == self._tr_ply:
            if self._t.chebyshev[p] < 3:
                raise IllegalMove(
                    "tournament_rule",
                    "Tournament rule: player 1's second stone must be at least 3 points from "
                    f"the centre (outside H8..M12); {point_name(p, self._size)} is too close",
                )
            if p in self._g_points:
                raise IllegalMove(
                    "g_pente_point",
                    "In G-Pente player 1's second stone may not be on K6, K7, K13, K14, F10, "
                    f"G10, N10 or O10; {point_name(p, self._size)} is one of them",
                )
        if self._adjacent and self._plies > 0:
            for q in self._t.neighbours[p]:
                if b[q] or q == extra_neighbour:
                    break
            else:
                raise IllegalMove(
                    "adjacent_only",
                    f"{point_name(p, self._size)} touches no stone; with the adjacent-only "
                    "option every stone must be placed next to one already on the board",
                )

    def check(self, point: int | str, *, seat: int | None = None) -> None:
        """Raise ``IllegalMove`` unless ``seat`` (default: whoever is to move) may play ``point``."""
        self._check_turn(seat)
        self._check_point(self._coerce(point))

    def legal_points(self) -> list[int]:
        """Every point the side to move may play now (empty when over or a decision is due)."""
        if self._status != IN_PROGRESS or self._pending is not None:
            return []
        out = []
        for p in range(self._n):
            if self._board[p]:
                continue
            try:
                self._check_point(p)
            except IllegalMove:
                continue
            out.append(p)
        return out

    # ------------------------------------------------------------------ moving

    def play(self, point: int | str, *, seat: int | None = None) -> MoveResult:
        """Place the next stone at ``point`` (for ``seat``, default whoever is to move)."""
        if type(point) is not int:
            point = self._coerce(point)
        if (
            self._pending is not None
            or self._status is not IN_PROGRESS
            or (seat is not None and seat != self._seat)
            or not 0 <= point < self._n
            or self._board[point]
            or self._plies == self._tr_ply
            or self._adjacent
        ):
            self.check(point, seat=seat)
        return self._place(point)

    def play_turn(
        self, points: Sequence[int | str], *, seat: int | None = None
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
            if self._status != IN_PROGRESS:
                break
        return tuple(results)

    def decide(self, choice: str, *, seat: int | None = None) -> None:
        """Make the pending opening decision (see ``decisions_available()``)."""
        if self._status != IN_PROGRESS:
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
        self._actions.append(choice)
        self._pending = None
        if pending == "d_swap":
            if choice == "swap":
                self._seat_colour = [0, 2, 1]
            self._enter_play(next_colour=1)
        elif pending == "swap2":
            if choice == "swap":
                self._seat_colour = [0, 2, 1]
                self._enter_play(next_colour=2)
            elif choice == "keep":
                self._enter_play(next_colour=2)
            else:
                self._script = [
                    ("stone", 2, 2),
                    ("stone", 2, 1),
                    ("decide", 1, "swap2_colour", 2),
                ]
                self._next_step()
        else:  # swap2_colour, chosen by seat 1
            self._seat_colour = [0, 1, 2] if choice == "colour1" else [0, 2, 1]
            self._enter_play(next_colour=2)

    # ------------------------------------------------------------------ turn order

    def _set_cycle(self, cycle: tuple[tuple[int, int], ...]) -> None:
        self._cycle = cycle
        self._clen = len(cycle)
        self._ci = 0

    def _enter_play(self, *, next_colour: int) -> None:
        sc = self._seat_colour
        self._set_cycle(((sc.index(1), 1), (sc.index(2), 2)))
        self._ci = 0 if next_colour == 1 else 1
        self._seat, self._colour = self._cycle[self._ci]

    def _next_step(self) -> None:
        step = self._script.pop(0)
        if step[0] == "stone":
            self._seat = step[1]
            self._colour = step[2]
        else:
            self._seat = step[1]
            self._pending = step[2]
            self._colour = step[3]

    def _advance(self) -> None:
        if self._script:
            self._next_step()
            return
        ci = self._ci + 1
        if ci == self._clen:
            ci = 0
        self._ci = ci
        self._seat, self._colour = self._cycle[ci]

    def _finish(self, colour: int | None, reason: str) -> None:
        self._status = FINISHED if colour is not None else DRAW
        self._winner = colour
        self._reason = reason
        self._seat = None
        self._colour = None
        self._pending = None
        self._script = []

    # ------------------------------------------------------------------ the rules

    def _place(self, p: int) -> MoveResult:
        """Put the mover's stone on ``p`` (already validated) and apply every rule."""
        b = self._board
        c = self._colour
        b[p] = c
        self._empty -= 1
        self._plies += 1
        self._actions.append(p)
        self._last = p
        t = self._t
        mode = self._cap_mode
        captured = ()
        if self._simple:
            # -- captures: only the stone just placed captures
            if mode == _CAP_PAIRS:
                o = 3 - c
                for a, m, e in t.cap2[p]:
                    if b[a] == o and b[m] == o and b[e] == c:
                        b[a] = 0
                        b[m] = 0
                        captured += (a, m)
            elif mode == _CAP_KERYO:
                o = 3 - c
                for r in t.capr[p]:
                    if b[r[0]] == o and b[r[1]] == o:
                        x = b[r[2]]
                        if x == c:
                            b[r[0]] = 0
                            b[r[1]] = 0
                            captured += (r[0], r[1])
                        elif x == o and len(r) > 3 and b[r[3]] == c:
                            b[r[0]] = 0
                            b[r[1]] = 0
                            b[r[2]] = 0
                            captured += (r[0], r[1], r[2])
            elif mode == _CAP_MULTI:
                captured = self._multi_captures(p, c)
            if captured:
                k = len(captured)
                self._empty += k
                self._captures[c] += k
            # -- five in a row through the stone
            line = self._line
            for fwd, back in t.axes[p]:
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
                    self._finish(c, "five")
                    return _result(p, c, captured, (), True)
            if captured and self._captures[c] >= self._target:
                self._finish(c, "captures")
                return _result(p, c, captured, (), True)
            if not self._empty:
                self._finish(None, "draw")
                return _result(p, c, captured, (), True)
            self._advance()
            return _result(p, c, captured, (), False)
        return self._place_poof_boat(p, c)

    def _multi_captures(self, p: int, c: int) -> tuple[int, ...]:
        """Captures when any stone that is not the mover's may be taken (multi-player)."""
        b = self._board
        lengths = self._variant.capture_lengths
        out: list[int] = []
        for r in self._t.capr[p]:
            for length in lengths:
                if len(r) <= length:
                    continue
                if b[r[length]] != c:
                    continue
                if all(b[r[i]] not in (0, c) for i in range(length)):
                    out.extend(r[:length])
                    break
        for q in out:
            b[q] = 0
        return tuple(out)

    def _two_colour_captures(self, p: int, c: int) -> list[int]:
        """Stones colour ``c`` would capture by a stone on ``p`` (board unchanged)."""
        b = self._board
        o = 3 - c
        out: list[int] = []
        for r in self._t.capr[p]:
            for length in self._variant.capture_lengths:
                if len(r) <= length or b[r[length]] != c:
                    continue
                if all(b[r[i]] == o for i in range(length)):
                    out.extend(r[:length])
                    break
        return out

    def _poofs(self, p: int, c: int) -> list[int]:
        """Mover's stones poofed by the stone on ``p``: runs of a capture length through ``p``
        bracketed on both ends by opponent stones (board as it stands after placing)."""
        b = self._board
        o = 3 - c
        out: list[int] = []
        lengths = self._poof_lengths
        for fwd, back in self._t.axes[p]:
            run = [p]
            end_f = None
            for q in fwd:
                if b[q] != c:
                    end_f = q
                    break
                run.append(q)
            if end_f is None or b[end_f] != o:
                continue
            end_b = None
            for q in back:
                if b[q] != c:
                    end_b = q
                    break
                run.append(q)
            if end_b is None or b[end_b] != o:
                continue
            if len(run) in lengths:
                out.extend(run)
        return out

    def _place_poof_boat(self, p: int, c: int) -> MoveResult:
        b = self._board
        o = 3 - c
        captured = self._two_colour_captures(p, c)
        poofed: list[int] = []
        if self._poof:
            poofed = list(dict.fromkeys(self._poofs(p, c)))  # a stone on two lines counts once
        for q in captured:
            b[q] = 0
        for q in poofed:
            b[q] = 0
        self._empty += len(captured) + len(poofed)
        self._captures[c] += len(captured)
        self._captures[o] += len(poofed)
        cap_t = tuple(captured)
        poof_t = tuple(poofed)

        # A five left pending by the opponent stands after this reply: its maker wins.
        pending = self._boat_pending
        if pending is not None:
            self._boat_pending = None
            maker, runs = pending
            if any(self._stands(run, maker) for run in runs):
                self._finish(maker, "five")
                return _result(p, c, cap_t, poof_t, True)

        if b[p] == c:  # a poofed stone completes nothing
            runs = self._fives_through(p, c)
            if runs:
                if not self._boat or not self._breakable(runs, c):
                    self._finish(c, "five")
                    return _result(p, c, cap_t, poof_t, True)
                self._boat_pending = (c, runs)

        target = self._target
        caps = self._captures
        if self._poof:
            for side, other in ((c, o), (o, c)):
                if caps[side] >= target and caps[side] > caps[other]:
                    self._finish(side, "captures")
                    return _result(p, c, cap_t, poof_t, True)
        elif caps[c] >= target:
            self._finish(c, "captures")
            return _result(p, c, cap_t, poof_t, True)
        if not self._empty:
            self._finish(None, "draw")
            return _result(p, c, cap_t, poof_t, True)
        self._advance()
        return _result(p, c, cap_t, poof_t, False)

    # ------------------------------------------------------------------ boat helpers

    def _full_run(self, p: int, k: int, c: int) -> tuple[int, ...]:
        """All stones of colour ``c`` in a row through ``p`` along axis ``k`` (0..3)."""
        s = self._size
        b = self._board
        x0, y0 = p % s, p // s
        pts = [p]
        for dx, dy in (DIRECTIONS[2 * k], DIRECTIONS[2 * k + 1]):
            x, y = x0 + dx, y0 + dy
            while 0 <= x < s and 0 <= y < s and b[x + s * y] == c:
                pts.append(x + s * y)
                x += dx
                y += dy
        return tuple(sorted(pts))

    def _fives_through(self, p: int, c: int) -> tuple[tuple[int, ...], ...]:
        runs = []
        for k in range(4):
            run = self._full_run(p, k, c)
            if len(run) >= self._line:
                runs.append(run)
        return tuple(runs)

    def _stands(self, run: tuple[int, ...], c: int) -> bool:
        """Whether at least ``line_length`` stones of ``run`` in a row are still colour ``c``.

        ``run`` is sorted along its line, so consecutive entries are neighbours on the board.
        """
        b = self._board
        best = n = 0
        for q in run:
            if b[q] == c:
                n += 1
                if n > best:
                    best = n
            else:
                n = 0
        return best >= self._line

    def _breakable(self, runs: tuple[tuple[int, ...], ...], c: int) -> bool:
        """Whether one opponent stone could capture across every one of ``runs``."""
        b = self._board
        o = 3 - c
        t = self._t
        reach = max(self._variant.capture_lengths)
        candidates: set[int] = set()
        for run in runs:
            for q in run:
                for r in t.rays[q]:
                    for x in r[:reach]:
                        if b[x] == 0:
                            candidates.add(x)
        for q in candidates:
            taken = self._two_colour_captures(q, o)
            if not taken:
                continue
            saved = [(x, b[x]) for x in taken]
            for x in taken:
                b[x] = 0
            try:
                broken = not any(self._stands(run, c) for run in runs)
            finally:
                for x, v in saved:
                    b[x] = v
            if broken:
                return True
        return False

    # ------------------------------------------------------------------ helpers

    def copy(self) -> Game:
        g = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(g, name, getattr(self, name))
        g._board = list(self._board)
        g._captures = list(self._captures)
        g._actions = list(self._actions)
        g._seat_colour = list(self._seat_colour)
        g._script = list(self._script)
        return g

    @classmethod
    def replay(
        cls, variant: str | Variant, actions: Iterable[int | str], **options: object
    ) -> Game:
        """A game built by replaying ``actions`` (stones as ints or names, decisions as str)."""
        game = cls(variant, **options)  # type: ignore[arg-type]
        items = list(actions)
        if game._plies == 1 and items:
            first = items[0]
            if not (isinstance(first, str) and first in _ALL_DECISIONS):
                if game._coerce(first) == game._t.centre:
                    items = items[1:]
        for item in items:
            if isinstance(item, str) and item in _ALL_DECISIONS:
                game.decide(item)
            else:
                game.play(item)
        return game
