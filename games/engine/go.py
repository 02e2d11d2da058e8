"""Go's ``Position``: ``GoGame``, a mutable position with the rules to move it forward and
back (docs/rules.md, "Go on three boards": captures, suicide, positional superko, passes, the
marking of dead stones and the area count).

Points are ints ``x + size*y`` on a 9x9, 13x13 or 19x19 board, named as in ``notation``; seat
and colour are the same number (1 black, who moves first; 2 white, komi 7.5 by default). The
superko history is a set of 64-bit Zobrist hashes kept incrementally: no board copies.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from .errors import BadOptions, IllegalMove
from .notation import parse_point, point_name
from .openings import Takeback
from .outcome import Outcome, Termination
from .position import Position
from .variants import GO_VARIANTS, Variant

__all__ = [
    "GO_ILLEGAL_MOVE_CODES",
    "GO_SIZES",
    "KOMI",
    "PASS",
    "GoGame",
    "GoMove",
    "GoPhase",
    "GoScore",
    "GoTables",
    "go_tables",
    "zobrist_hash",
]

GO_SIZES = (9, 13, 19)
KOMI = 7.5
PASS = "PASS"
MARK = "MARK"
ACCEPT = "ACCEPT"
REJECT = "REJECT"

GO_ILLEGAL_MOVE_CODES = frozenset(
    {
        "off_board",
        "bad_coordinate",
        "occupied",
        "suicide",
        "superko",
        "not_your_turn",
        "game_over",
        "marking_in_progress",
        "not_marking",
        "bad_dead",
        "proposal_pending",
        "no_proposal",
        "nothing_to_undo",
    }
)

_ANSWERS = ("accept", "reject")  # the answers to a proposal of dead stones (``decide``)

_ZOBRIST_SEED = 0x60_5EED


class GoPhase(StrEnum):
    """Where a game of Go stands."""

    PLAYING = "playing"
    MARKING = "marking"  # after two passes in a row: dead stones are proposed and answered
    OVER = "over"


_PLAYING = GoPhase.PLAYING
_MARKING = GoPhase.MARKING
_OVER = GoPhase.OVER


@dataclass(frozen=True, slots=True)
class GoTables:
    """Per-size geometry and hashing, built once per size (``go_tables``)."""

    size: int
    # neighbours[p]: the up to 4 points orthogonally next to p (nothing wraps).
    neighbours: tuple[tuple[int, ...], ...]
    # zobrist[colour][p]: the random number of a stone of ``colour`` on p (colour 0: zeros).
    zobrist: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@cache
def go_tables(size: int) -> GoTables:
    n = size * size
    neighbours = []
    for p in range(n):
        y, x = divmod(p, size)
        around = []
        if y > 0:
            around.append(p - size)
        if x > 0:
            around.append(p - 1)
        if x < size - 1:
            around.append(p + 1)
        if y < size - 1:
            around.append(p + size)
        neighbours.append(tuple(around))
    rng = random.Random(_ZOBRIST_SEED + size)
    black = tuple(rng.getrandbits(64) for _ in range(n))
    white = tuple(rng.getrandbits(64) for _ in range(n))
    return GoTables(size=size, neighbours=tuple(neighbours), zobrist=((0,) * n, black, white))


def zobrist_hash(board: Iterable[int], size: int) -> int:
    """The hash of a whole board, computed from scratch (the game keeps it incrementally)."""
    z = go_tables(size).zobrist
    h = 0
    for p, c in enumerate(board):
        if c:
            h ^= z[c][p]
    return h


@dataclass(frozen=True, slots=True)
class GoMove:
    """What one move did: the stone's point (None for a pass), its colour, the stones it took.

    Field names follow ``MoveResult`` so that callers can treat both alike (``poofed`` is always
    empty, and a move of Go never ends the game by itself)."""

    point: int | None
    colour: int
    captured: tuple[int, ...] = ()
    poofed: tuple[int, ...] = ()
    finished: bool = False

    @property
    def is_pass(self) -> bool:
        return self.point is None


@dataclass(frozen=True, slots=True)
class GoScore:
    """An area count: stones plus one-colour territory per side, komi in ``white``."""

    black: float
    white: float
    komi: float
    black_stones: int
    white_stones: int
    black_territory: frozenset[int]
    white_territory: frozenset[int]
    dead: frozenset[int] = frozenset()  # the stones removed before counting

    @property
    def winner(self) -> int | None:
        """The winning seat (1 black, 2 white), None for equal scores."""
        if self.black > self.white:
            return 1
        if self.white > self.black:
            return 2
        return None

    @property
    def margin(self) -> float:
        """How many points the winner leads by (0 for a draw)."""
        return abs(self.black - self.white)


def _area_score(
    board: list[int], neighbours: tuple[tuple[int, ...], ...], komi: float, dead: frozenset[int]
) -> GoScore:
    """Count ``board`` (dead stones already removed from it)."""
    seen = bytearray(len(board))
    territory: tuple[list[int], list[int], list[int]] = ([], [], [])
    for p, c in enumerate(board):
        if c or seen[p]:
            continue
        seen[p] = 1
        region = [p]
        border = 0  # bit 1: touches black, bit 2: touches white
        i = 0
        while i < len(region):
            for q in neighbours[region[i]]:
                v = board[q]
                if v:
                    border |= v
                elif not seen[q]:
                    seen[q] = 1
                    region.append(q)
            i += 1
        if border == 1 or border == 2:
            territory[border].extend(region)
    black_stones = board.count(1)
    white_stones = board.count(2)
    return GoScore(
        black=float(black_stones + len(territory[1])),
        white=white_stones + len(territory[2]) + komi,
        komi=komi,
        black_stones=black_stones,
        white_stones=white_stones,
        black_territory=frozenset(territory[1]),
        white_territory=frozenset(territory[2]),
        dead=dead,
    )


def _colour_name(c: int) -> str:
    return "black" if c == 1 else "white"


def is_komi(value: object) -> bool:
    """Whether ``value`` can be a komi: a finite int or float (not a bool, not a string)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


class GoGame(Position):
    """A position of a game of Go, with the rules to move it forward (and back).

    Every action is kept in ``_log``, one entry per action, which is all ``pop()`` needs:

    - a stone: ``(point, colour, captured, passes_before)``;
    - a pass: ``("PASS", colour, passes_before)``;
    - a marking: ``("MARK", seat, dead)``;
    - an acceptance: ``("ACCEPT", seat, ((point, colour), ...) removed)``;
    - a rejection: ``("REJECT", seat, dead, disputed)``, the proposal it turned down and the
      stones it named.
    """

    __slots__ = (
        "_size",
        "_n",
        "_t",
        "_nbrs",
        "_zob",
        "_komi",
        "_board",
        "_hash",
        "_history",
        "_captures",
        "_log",
        "_ply",
        "_seat",
        "_passes",
        "_phase",
        "_marker",
        "_proposal",
        "_outcome",
        "_final",
    )

    # What the server asks of any game's position, as ``game.Game`` answers it: Go is always two
    # players, no partners, no tournament rule, no adjacent-only option.
    seats = 2
    partners = False
    tournament_rule = False
    adjacent_only = False
    rated = False
    marks_dead = True

    #: The per-board tables, shared: looked up again when a pickled game is loaded.
    _SHARED_SLOTS = ("_t", "_nbrs", "_zob")

    def __getstate__(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in GoGame.__slots__ if k not in GoGame._SHARED_SLOTS}

    def __setstate__(self, state: dict[str, object]) -> None:
        t = go_tables(state["_size"])  # type: ignore[arg-type]
        self._t, self._nbrs, self._zob = t, t.neighbours, t.zobrist
        for k, v in state.items():
            setattr(self, k, v)

    @property
    def variant(self) -> Variant:
        """The game as the server names it (``Go``, ``Go (13x13)``, ``Go (9x9)``)."""
        return next(v for v in GO_VARIANTS.values() if v.size == self._size)

    def __init__(self, size: int = 19, *, komi: float = KOMI) -> None:
        if isinstance(size, bool) or size not in GO_SIZES:
            raise BadOptions(f"Go is played on 9x9, 13x13 or 19x19, not {size!r}")
        if not is_komi(komi):
            raise BadOptions(f"komi must be a number of points, not {komi!r}")
        t = go_tables(size)
        self._size = size
        self._n = size * size
        self._t = t
        self._nbrs = t.neighbours
        self._zob = t.zobrist
        self._komi = float(komi)
        self._board = [0] * self._n
        self._hash = 0
        self._history = {0}
        self._captures = [0, 0, 0]
        self._log: list[tuple] = []
        self._ply = 0
        self._seat: int | None = 1
        self._passes = 0
        self._phase = _PLAYING
        self._marker: int | None = None
        self._proposal: frozenset[int] | None = None
        self._outcome: Outcome | None = None
        self._final: GoScore | None = None

    @classmethod
    def from_position(
        cls,
        size: int = 19,
        stones: Mapping[int, Iterable[int | str] | str] | None = None,
        *,
        to_move: int = 1,
        captures: Mapping[int, int] | None = None,
        komi: float = KOMI,
    ) -> GoGame:
        """A game whose board holds exactly ``stones`` ({colour: points, or "C3 D4 ..."}), with
        ``to_move`` (1 or 2) next, for tests and analysis. That board is the first position of
        the game's history; nothing can be taken back. Every group must have a liberty."""
        g = cls(size, komi=komi)
        board = g._board
        for colour, points in (stones or {}).items():
            if colour not in (1, 2):
                raise ValueError(f"There is no colour {colour!r} in Go")
            for item in points.split() if isinstance(points, str) else points:
                p = g._coerce(item)
                if board[p]:
                    raise ValueError(f"{point_name(p, size)} is given twice")
                board[p] = colour
        seen: set[int] = set()
        for p, c in enumerate(board):
            if c and p not in seen:
                group = g._flood(p, c, -1)
                if group is not None:
                    raise ValueError(f"The group at {point_name(p, size)} has no liberty")
                seen |= g._group(p)
        if to_move not in (1, 2):
            raise ValueError(f"to_move must be 1 or 2, not {to_move!r}")
        g._seat = to_move
        for colour, n in (captures or {}).items():
            if colour not in (1, 2):
                raise ValueError(f"There is no colour {colour!r} in Go")
            g._captures[colour] = n
        g._hash = zobrist_hash(board, size)
        g._history = {g._hash}
        return g

    @classmethod
    def replay(cls, actions: Iterable[object], *, size: int = 19, komi: float = KOMI) -> GoGame:
        """A game built by replaying ``actions``: stones as ints or names, ``"PASS"``,
        ``"MARK C3 D4"`` (or ``("MARK", points)``), ``"ACCEPT"``, ``"REJECT"``."""
        game = cls(size, komi=komi)
        for item in actions:
            game.act(item)
        return game

    def act(self, action: object, *, seat: int | None = None) -> GoMove | Outcome | None:
        """Take one action in the form ``actions`` lists it (see ``replay``)."""
        if isinstance(action, list | tuple):
            if len(action) == 2 and str(action[0]).upper() == MARK:
                return self.mark_dead(action[1], seat=seat)
            raise IllegalMove("bad_coordinate", f"{action!r} is not an action of Go")
        if isinstance(action, str):
            word, _, rest = action.strip().upper().partition(" ")
            if word == MARK:
                return self.mark_dead(rest.split(), seat=seat)
            if word == ACCEPT and not rest:
                return self.accept(seat=seat)
            if word == REJECT:
                return self.reject(seat=seat, disputed=rest.split())
        return self.play(action, seat=seat)  # type: ignore[arg-type]

    def copy(self) -> GoGame:
        g = GoGame.__new__(GoGame)
        for name in GoGame.__slots__:
            setattr(g, name, getattr(self, name))
        g._board = list(self._board)
        g._history = set(self._history)
        g._captures = list(self._captures)
        g._log = list(self._log)
        return g

    # ------------------------------------------------------------------ the game

    @property
    def komi(self) -> float:
        return self._komi

    @property
    def phase(self) -> GoPhase:
        """``"playing"``, ``"marking"`` (after two passes in a row) or ``"over"``."""
        return self._phase

    # ------------------------------------------------------------------ the position

    @property
    def ply(self) -> int:
        """Moves played so far: stones and passes (marking steps are not moves)."""
        return self._ply

    @property
    def plies(self) -> int:
        """The same as ``ply``."""
        return self._ply

    @property
    def passes(self) -> int:
        """Passes in a row just played (0, 1; 2 in the marking phase)."""
        return self._passes

    @property
    def position_hash(self) -> int:
        """The Zobrist hash of the board (``zobrist_hash(board, size)``, kept incrementally)."""
        return self._hash

    @property
    def positions(self) -> frozenset[int]:
        """The hashes of every position the board has had (the superko history)."""
        return frozenset(self._history)

    @property
    def actions(self) -> list[int | str]:
        """Every action so far, in the form ``replay`` reads."""
        return [self._action(entry) for entry in self._log]

    def _action(self, entry: tuple) -> int | str:
        if entry[0] == MARK:
            dead = " ".join(point_name(p, self._size) for p in sorted(entry[2]))
            return f"{MARK} {dead}" if dead else MARK
        return entry[0]

    @property
    def last_action(self) -> int | str | None:
        """The last action (as ``actions`` lists it), or None."""
        return self._action(self._log[-1]) if self._log else None

    # ------------------------------------------------------------------ whose turn

    @property
    def to_move_colour(self) -> int | None:
        return self._seat

    @property
    def marking_seat(self) -> int | None:
        """The seat that proposes the dead stones (it passed first): set in the marking phase,
        kept once the game is over, None while playing."""
        return self._marker

    @property
    def proposed_dead(self) -> frozenset[int] | None:
        """The dead stones proposed in the marking phase (None before a proposal); once the game
        is over, the ones agreed."""
        return self._proposal

    @property
    def disputed(self) -> frozenset[int]:
        """The stones the last rejection named as disputed, while play resumes after it (until
        the next two passes); empty otherwise."""
        if self._phase is not _PLAYING:
            return frozenset()
        for entry in reversed(self._log):
            if entry[0] == REJECT:  # (a position pickled before disputes has no entry[3])
                return entry[3] if len(entry) > 3 else frozenset()
            if entry[0] in (MARK, ACCEPT):
                break
        return frozenset()

    def group_of(self, point: int | str) -> frozenset[int]:
        """The group a marking takes as one (empty for an empty point): the stone's chain and
        the stones of its colour that share the chain's empty region, found by a flood through
        empty points and stones of that colour, stopped by the other colour."""
        p = self._coerce(point)
        b = self._board
        c = b[p]
        if not c:
            return frozenset()
        nbrs = self._nbrs
        seen = {p}
        stack = [p]
        while stack:
            for q in nbrs[stack.pop()]:
                if q not in seen and b[q] != 3 - c:
                    seen.add(q)
                    stack.append(q)
        return frozenset(q for q in seen if b[q] == c)

    @property
    def pending_decision(self) -> str | None:
        return None

    def decisions_available(self) -> tuple[str, ...]:
        return ()

    @property
    def decision_due(self) -> str | None:
        """``"dead_stones"`` while a proposal of dead stones awaits its answer, else None."""
        return "dead_stones" if self._phase is _MARKING and self._proposal is not None else None

    def decision_choices(self) -> tuple[str, ...]:
        return _ANSWERS if self.decision_due is not None else ()

    def can_pass(self) -> bool:
        return self._phase is _PLAYING

    def seat_colour(self, seat: int) -> int:
        if isinstance(seat, bool) or seat not in (1, 2):
            raise ValueError(f"There is no seat {seat!r} in a 2-seat game")
        return seat

    def stones_this_turn(self) -> int:
        return 1 if self._phase is _PLAYING else 0

    # ------------------------------------------------------------------ the result

    @property
    def winner_colour(self) -> int | None:
        o = self._outcome
        return o.winners[0] if o is not None and o.winners else None

    def score(self, dead: Iterable[int | str] | None = None) -> GoScore:
        """The area count of the board with ``dead`` taken off.

        ``dead`` defaults to the proposal in the marking phase, and to none while playing; once
        the game is over (the dead stones are already off the board) the final count."""
        if dead is None:
            if self._final is not None:
                return self._final
            dead_set = self._proposal if self._phase is _MARKING and self._proposal else frozenset()
        else:
            dead_set = self._dead_points(dead)
        board = list(self._board)
        for p in dead_set:
            board[p] = 0
        return _area_score(board, self._nbrs, self._komi, dead_set)

    # ------------------------------------------------------------------ moving

    def play(self, point: int | str, *, seat: int | None = None) -> GoMove:
        """Place the next stone at ``point`` (``"PASS"`` passes), for ``seat`` (default: whoever
        is to move)."""
        if self._phase is not _PLAYING or (seat is not None and seat != self._seat):
            self._check_turn(seat)
        if type(point) is not int or not 0 <= point < self._n:
            if isinstance(point, str) and point.strip().upper() == PASS:
                return self.pass_turn(seat=seat)
            point = self._coerce(point)
        c = self._seat
        assert c is not None
        code, captured, h = self._evaluate(point, c)
        if code:
            raise IllegalMove(code, self._refusal(code, point))
        b = self._board
        b[point] = c
        if captured:
            for q in captured:
                b[q] = 0
            self._captures[c] += len(captured)
        self._hash = h
        self._history.add(h)
        self._log.append((point, c, captured, self._passes))
        self._passes = 0
        self._ply += 1
        self._seat = 3 - c
        return GoMove(point, c, captured)

    def parse_move(self, token: int | str) -> int | None:
        """A point, or None for ``"PASS"`` (any case, spaces around)."""
        if isinstance(token, str) and token.strip().upper() == PASS:
            return None
        return self._coerce(token)

    def play_turn(
        self, points: Sequence[int | str | None], *, seat: int | None = None
    ) -> tuple[GoMove]:
        """One stone or a pass (None or ``"PASS"``): a turn of Go is one move."""
        if len(points) != 1:
            raise IllegalMove("wrong_stone_count", "Go is one stone (or PASS) a turn.")
        point = points[0]
        return (self.play(PASS if point is None else point, seat=seat),)

    def decide(
        self, choice: str, *, seat: int | None = None, disputed: Iterable[int | str] = ()
    ) -> str:
        """Answer the proposed dead stones: ``"accept"`` or ``"reject"`` (naming the stones it
        ``disputes``). Returns the answer as the record of moves keeps it (``reject C3 D4``)."""
        if choice == "accept":
            self.accept(seat=seat)
            return choice
        if choice == "reject":
            names = sorted({self.parse_point(p) for p in disputed})
            self.reject(seat=seat, disputed=names)
            return " ".join([choice, *(self.point_name(p) for p in names)])
        raise IllegalMove("bad_decision", "In Go, answer a marking with accept or reject.")

    def pass_turn(self, *, seat: int | None = None) -> GoMove:
        """Pass. The second pass in a row starts the marking phase."""
        self._check_turn(seat)
        c = self._seat
        assert c is not None
        before = self._passes
        self._log.append((PASS, c, before))
        self._ply += 1
        if before:
            self._passes = 2
            self._phase = _MARKING
            self._marker = 3 - c  # the seat that passed first
            self._seat = 3 - c
            self._proposal = None
        else:
            self._passes = 1
            self._seat = 3 - c
        return GoMove(None, c)

    def check(self, point: int | str, *, seat: int | None = None) -> None:
        """Raise ``IllegalMove`` unless ``seat`` (default: whoever is to move) may play
        ``point`` (``"PASS"`` included) now."""
        self._check_turn(seat)
        if isinstance(point, str) and point.strip().upper() == PASS:
            return
        p = self._coerce(point)
        assert self._seat is not None
        code = self._evaluate(p, self._seat)[0]
        if code:
            raise IllegalMove(code, self._refusal(code, p))

    def legal_points(self) -> list[int]:
        """Every point the side to move may play a stone on (empty unless playing)."""
        if self._phase is not _PLAYING:
            return []
        c = self._seat
        b = self._board
        evaluate = self._evaluate
        return [p for p in range(self._n) if not b[p] and evaluate(p, c)[0] is None]

    # ------------------------------------------------------------------ marking

    def mark_dead(self, points: Iterable[int | str] | str, *, seat: int | None = None) -> None:
        """Propose ``points`` (stones of either colour; none is a proposal too) as dead."""
        self._check_marking(seat)
        if self._proposal is not None:
            raise IllegalMove(
                "proposal_pending",
                f"The dead stones are proposed; seat {self._seat} must accept or reject them",
            )
        dead = self._dead_points(points.split() if isinstance(points, str) else points)
        marker = self._seat
        self._log.append((MARK, marker, dead))
        self._proposal = dead
        self._seat = 3 - marker  # type: ignore[operator]

    def accept(self, *, seat: int | None = None) -> Outcome:
        """Accept the proposed dead stones: they leave the board, the board is counted, the
        game is over."""
        self._check_answer(seat)
        dead = self._proposal
        assert dead is not None
        b = self._board
        z = self._zob
        h = self._hash
        removed = tuple((p, b[p]) for p in sorted(dead))
        for p, c in removed:
            b[p] = 0
            h ^= z[c][p]
            self._captures[3 - c] += 1
        self._hash = h  # the end of the game: not a position anybody can repeat
        self._log.append((ACCEPT, self._seat, removed))
        final = _area_score(b, self._nbrs, self._komi, dead)
        winner = final.winner
        self._final = final
        self._outcome = Outcome(Termination.SCORE, (winner,) if winner else ())
        self._phase = _OVER
        self._seat = None
        return self._outcome

    def reject(self, *, seat: int | None = None, disputed: Iterable[int | str] = ()) -> None:
        """Turn the proposal down: play resumes, the seat that passed first to move.
        ``disputed``: the stones the answerer judges otherwise (``bad_dead`` for a point with no
        stone); shown as ``disputed`` until the next marking, no part of the rules."""
        self._check_answer(seat)
        named = self._dead_points(disputed)
        self._log.append((REJECT, self._seat, self._proposal, named))
        self._phase = _PLAYING
        self._seat = self._marker
        self._marker = None
        self._proposal = None
        self._passes = 0

    # ------------------------------------------------------------------ taking back

    def pop(self) -> int | str:
        """Take back the last action and return it (as ``actions`` lists it)."""
        log = self._log
        if not log:
            raise IllegalMove("nothing_to_undo", "Nothing can be taken back: no action yet")
        entry = log.pop()
        action = self._action(entry)
        if type(action) is int:
            p, c, captured, before = entry
            b = self._board
            z = self._zob
            self._history.discard(self._hash)
            h = self._hash ^ z[c][p]
            b[p] = 0
            if captured:
                o = 3 - c
                zo = z[o]
                for q in captured:
                    b[q] = o
                    h ^= zo[q]
                self._captures[c] -= len(captured)
            self._hash = h
            self._passes = before
            self._ply -= 1
            self._seat = c
        elif action == PASS:
            _, c, before = entry
            if self._phase is _MARKING:
                self._phase = _PLAYING
                self._marker = None
                self._proposal = None
            self._passes = before
            self._ply -= 1
            self._seat = c
        elif action == ACCEPT:
            _, seat, removed = entry
            b = self._board
            z = self._zob
            h = self._hash
            for p, c in removed:
                b[p] = c
                h ^= z[c][p]
                self._captures[3 - c] -= 1
            self._hash = h
            self._final = None
            self._outcome = None
            self._phase = _MARKING
            self._seat = seat
        elif action == REJECT:
            seat, dead = entry[1], entry[2]
            self._phase = _MARKING
            self._marker = 3 - seat
            self._proposal = dead
            self._passes = 2
            self._seat = seat
        else:  # a marking
            self._proposal = None
            self._seat = entry[1]
        return action

    def takeback(self) -> Takeback | None:
        """What an undo request may take back now: the last move (a stone or a pass) and the
        seat that made it, or None. Whether the game is still on is the caller's concern."""
        if not self._log:
            return None
        entry = self._log[-1]
        if type(entry[0]) is int or entry[0] == PASS:
            return Takeback(1, entry[1])
        return None

    # ------------------------------------------------------------------ the rules

    def _evaluate(self, p: int, c: int) -> tuple[str | None, tuple[int, ...], int]:
        """(refusal code or None, stones captured, hash after) for colour ``c`` playing ``p``;
        the board is left as it is. The work is local: the groups next to ``p`` only."""
        b = self._board
        if b[p]:
            return "occupied", (), 0
        o = 3 - c
        captured: set[int] = set()
        breathes = False
        friends = []
        for q in self._nbrs[p]:
            v = b[q]
            if not v:
                breathes = True
            elif v == o:
                if q not in captured:
                    group = self._flood(q, o, p)
                    if group is not None:
                        captured |= group
            else:
                friends.append(q)
        if not captured and not breathes:
            seen: set[int] = set()
            for q in friends:
                if q in seen:
                    continue
                group = self._flood(q, c, p)
                if group is None:
                    break
                seen |= group
            else:
                return "suicide", (), 0
        z = self._zob
        h = self._hash ^ z[c][p]
        if captured:
            zo = z[o]
            for q in captured:
                h ^= zo[q]
        if h in self._history:
            return "superko", (), 0
        return None, tuple(captured), h

    def _flood(self, start: int, c: int, skip: int) -> set[int] | None:
        """The group of colour ``c`` at ``start`` if it has no liberty but ``skip``; None as soon
        as one is found."""
        b = self._board
        nbrs = self._nbrs
        group = {start}
        stack = [start]
        while stack:
            for q in nbrs[stack.pop()]:
                v = b[q]
                if not v:
                    if q != skip:
                        return None
                elif v == c and q not in group:
                    group.add(q)
                    stack.append(q)
        return group

    def _group(self, start: int) -> set[int]:
        """Every stone connected to ``start`` (same colour)."""
        b = self._board
        nbrs = self._nbrs
        c = b[start]
        group = {start}
        stack = [start]
        while stack:
            for q in nbrs[stack.pop()]:
                if b[q] == c and q not in group:
                    group.add(q)
                    stack.append(q)
        return group

    # ------------------------------------------------------------------ checks

    def _coerce(self, point: object) -> int:
        if isinstance(point, bool) or not isinstance(point, int | str):
            raise IllegalMove("bad_coordinate", f"{point!r} is not a point")
        return parse_point(point, self._size)

    def _check_turn(self, seat: int | None) -> None:
        if self._phase is _OVER:
            raise IllegalMove("game_over", f"The game is over: {self._describe_result()}")
        if self._phase is _MARKING:
            raise IllegalMove(
                "marking_in_progress",
                f"Both players passed: no move until the marking is settled; {self._marking_due()}",
            )
        if seat is not None and seat != self._seat:
            raise IllegalMove(
                "not_your_turn", f"It is seat {self._seat}'s turn to move, not seat {seat}'s"
            )

    def _check_marking(self, seat: int | None) -> None:
        if self._phase is _OVER:
            raise IllegalMove("game_over", f"The game is over: {self._describe_result()}")
        if self._phase is _PLAYING:
            raise IllegalMove(
                "not_marking", "The dead stones are marked only after two passes in a row"
            )
        if seat is not None and seat != self._seat:
            raise IllegalMove("not_your_turn", f"Not seat {seat}'s turn: {self._marking_due()}")

    def _check_answer(self, seat: int | None) -> None:
        self._check_marking(seat)
        if self._proposal is None:
            raise IllegalMove(
                "no_proposal", f"There is no proposal to answer yet: {self._marking_due()}"
            )

    def _marking_due(self) -> str:
        if self._proposal is None:
            return f"seat {self._seat}, who passed first, marks the dead stones"
        return f"seat {self._seat} accepts or rejects the proposed dead stones"

    def _dead_points(self, points: Iterable[int | str]) -> frozenset[int]:
        b = self._board
        dead = set()
        for item in points:
            p = self._coerce(item)
            if not b[p]:
                raise IllegalMove(
                    "bad_dead", f"{point_name(p, self._size)} holds no stone to mark dead"
                )
            dead.add(p)
        return frozenset(dead)

    def _refusal(self, code: str, p: int) -> str:
        name = point_name(p, self._size)
        if code == "occupied":
            return f"{name} is already taken"
        if code == "suicide":
            return f"{name} would leave your own stones without a liberty (suicide)"
        return f"{name} would repeat an earlier position of the board (superko)"

    def _describe_result(self) -> str:
        final = self._final
        assert final is not None
        count = f"black {final.black:g}, white {final.white:g}"
        if final.winner is None:
            return f"it was drawn on the count ({count})"
        return (
            f"seat {final.winner} ({_colour_name(final.winner)}) won by {final.margin:g} points"
            f" ({count})"
        )

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        return (
            f"<GoGame {self._size}x{self._size} phase={self._phase.value} ply={self._ply} "
            f"to_move_seat={self._seat} captures={self.captures}>"
        )
