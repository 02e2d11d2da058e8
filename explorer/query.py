"""The position a caller asks the explorer about, from its moves or from its stones (pure: the
engine and the domain errors, no Django).

``from_moves``: the moves from the start, as a record writes them (``K10,L11,...``; the centre
stone the server places may be given or left out; decisions such as ``d_swap`` and Go's
``pass`` in their place), replayed through the engine without the tournament rule (it is not
part of a position, and a position reached under it is reached without it too).
``stones_given``: the stones of each colour, the capture counts (``capture_counts``: counts a
game of that kind can have with a colour to move, else 400 ``bad_captures``) and the colour to
move; ``probe_of_stones`` looks them up. Both give a ``Probe``: the key, the symmetry from the
caller's board to the canonical one, the board size and the number of colours, so that the
stored next moves can be named on the caller's board (``Probe.point_name``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.engine import (
    EngineError,
    Position,
    UnknownGame,
    get_variant,
    new_game,
    parse_point,
    point_name,
)
from games.engine.positionkey import key_of, pass_point, position_key, signed64, to_caller
from games.engine.variants import Variant
from pente_site.errors import Invalid

#: The most moves a query replays (a 19x19 board holds 361 stones; Go passes and captures).
MAX_MOVES = 1000
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, slots=True)
class Probe:
    """A position to look up: ``key`` (signed, as stored), ``symmetry`` (the caller's board to
    the canonical orientation), the variant, and its table (seats, colours)."""

    variant: Variant
    key: int
    symmetry: int
    seats: int
    colours: int

    @property
    def size(self) -> int:
        return self.variant.size

    @property
    def recurs(self) -> bool:
        """Whether one game may reach this position more than once (``positions_recur``)."""
        return self.variant.positions_recur

    def caller_point(self, canonical: int) -> int | None:
        """A stored (canonical) next point on the caller's board (None: Go's pass)."""
        if canonical == pass_point(self.size):
            return None
        return to_caller(canonical, self.symmetry, self.size)

    def point_name(self, canonical: int) -> str:
        """A stored (canonical) next point named on the caller's board (``pass``)."""
        mine = self.caller_point(canonical)
        return "pass" if mine is None else point_name(mine, self.size)


def variant_named(name: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownGame:
        raise Invalid("unknown_game", f"There is no game called {name!r}.") from None


def _tokens(text: str, what: str) -> list[str]:
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if len(tokens) > MAX_MOVES:
        raise Invalid("too_many_moves", f"{what} takes at most {MAX_MOVES} moves.")
    return tokens


def move_names(moves: str) -> list[str]:
    """The moves of a ``moves`` text, one name or word each (400 ``too_many_moves``)."""
    return _tokens(moves, "moves")


def _colours(seats: int, partners: bool) -> int:
    return 2 if partners or seats == 2 else seats


def position_after(
    *, variant: Variant, moves: str, seats: int = 2, partners: bool = False
) -> Position:
    """The engine's position after ``moves`` (see the module doc); 400 ``illegal_move`` naming
    the move the engine refused (counted as given), and why."""
    given = move_names(moves)
    options: dict[str, object] = {}
    if variant.table_options:
        options = {"seats": seats, "partners": partners, "tournament_rule": False}
    try:
        position = new_game(variant, **options)  # type: ignore[arg-type]
    except EngineError as exc:
        raise Invalid(getattr(exc, "code", "bad_options"), str(exc)) from None
    number = 1
    try:
        actions = position.without_automatic(given)
        skipped = len(given) - len(actions)  # the centre stone, given though already placed
        for i, action in enumerate(actions):
            number = skipped + i + 1
            word = action.lower()  # a decision, in any case
            position.act(word if word in position.decisions_available() else action)
    except EngineError as exc:
        detail = getattr(exc, "detail", None) or str(exc)
        raise Invalid("illegal_move", f"Move {number} ({given[number - 1]}): {detail}") from None
    return position


def probe_of(
    position: Position, *, variant: Variant, seats: int = 2, partners: bool = False
) -> Probe:
    """The ``Probe`` of an engine position (``position_after``)."""
    key, symmetry = key_of(position)
    return Probe(variant, signed64(key), symmetry, seats, _colours(seats, partners))


def from_moves(*, variant: Variant, moves: str, seats: int = 2, partners: bool = False) -> Probe:
    """The ``Probe`` of the position after ``moves`` (``position_after``)."""
    position = position_after(variant=variant, moves=moves, seats=seats, partners=partners)
    return probe_of(position, variant=variant, seats=seats, partners=partners)


def capture_counts(*, variant: Variant, captures: str, colours: int) -> list[int]:
    """The counts of ``captures`` (stones captured by each colour, colour 1 first), each one a
    game of ``variant`` can have in a position with a colour to move; else 400 ``bad_captures``
    saying why: not a whole number (a negative one), more counts than colours, any stone in a
    game without captures (Gomoku, Connect6), a count a game has only once it is over (the
    capture target: 10 in Pente, 15 in Keryo-Pente), one no sum of captured runs makes (odd in
    Pente, whose captures are pairs; 1 in Keryo-Pente), or in Go more than the board's points."""
    counts: list[int] = []
    for token in _tokens(captures, "captures"):
        if not token.isdigit():
            raise Invalid(
                "bad_captures",
                f"captures are whole numbers of stones from 0, one per colour, colour 1 first "
                f"(2,0); {token!r} is not one.",
            )
        counts.append(int(token))
    if len(counts) > colours:
        raise Invalid("bad_captures", f"captures gives {len(counts)} counts for {colours} colours.")
    for colour, count in enumerate(counts, start=1):
        problem = _capture_problem(variant, colour, count)
        if problem is not None:
            raise Invalid("bad_captures", problem)
    return counts


def _capture_problem(variant: Variant, colour: int, count: int) -> str | None:
    """Why no position of ``variant`` with a colour to move has ``count`` stones captured by
    ``colour`` (None: some has)."""
    name = variant.name
    if variant.scored_by_area:
        most = variant.size * variant.size
        if count > most:
            return f"captures gives colour {colour} {count} stones: give at most {most}."
        return None
    if not variant.captures:
        if count == 0:
            return None
        return (
            f"{name} has no captures, so captures can only be 0 for each colour (or left "
            f"out); it gives colour {colour} {count}."
        )
    possible = _capture_counts_before_the_end(variant)
    if count >= (variant.capture_target or 0):
        return (
            f"A {name} game is over once a colour has captured {variant.capture_target} "
            f"stones (no colour is to move then), so colour {colour} cannot have {count}: "
            f"give at most {possible[-1]}."
        )
    if count not in possible:
        runs = " or ".join(str(n) for n in variant.capture_lengths)
        return (
            f"{name} captures stones in runs of {runs}, so a colour has captured "
            f"{_listing(possible)}, never {count} (colour {colour})."
        )
    return None


def _capture_counts_before_the_end(variant: Variant) -> list[int]:
    """The counts of captured stones a colour can have before ``variant``'s capture target:
    the sums of its captured runs' lengths."""
    target = variant.capture_target or 0
    possible = [0]
    for count in range(1, target):
        if any(count - n in possible for n in variant.capture_lengths):
            possible.append(count)
    return possible


def _listing(numbers: list[int]) -> str:
    """``[0, 2, 3, 4]`` as "0 or 2 to 4", ``[0, 2, 4]`` as "0, 2 or 4"."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][-1] + 1:
            spans[-1].append(n)
        else:
            spans.append([n])
    words = [f"{s[0]} to {s[-1]}" if len(s) > 2 else ", ".join(map(str, s)) for s in spans]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


@dataclass(frozen=True, slots=True)
class Stones:
    """A position given by its stones (``stones_given``): {point: colour}, the stones each
    colour has captured (colour 1 first; missing colours 0) and the colour to move."""

    stones: dict[int, int]
    captures: tuple[int, ...]
    to_move: int


def stones_given(
    *,
    variant: Variant,
    position: str,
    captures: str = "",
    to_move: int = 1,
    seats: int = 2,
    partners: bool = False,
) -> Stones:
    """The position whose stones are ``position``: the points of each colour, colour 1 first,
    the colours separated by ``/`` (``K10,L9/K11``); ``captures``: the stones each colour has
    captured, colour 1 first (``2,0``; ``capture_counts``); ``to_move``: the colour to play.
    400 ``bad_position``, ``bad_captures``, ``bad_to_move`` saying what is wrong."""
    colours = _colours(seats, partners) if variant.table_options else 2
    groups = position.split("/")
    if len(groups) > colours:
        raise Invalid(
            "bad_position",
            f"position gives {len(groups)} colours separated by '/', but {variant.name} "
            f"here has {colours}.",
        )
    stones: dict[int, int] = {}
    for colour, group in enumerate(groups, start=1):
        for token in _tokens(group, "position"):
            try:
                point = parse_point(token, variant.size)
            except EngineError as exc:
                raise Invalid("bad_position", f"{token!r}: {exc}") from None
            if point in stones:
                raise Invalid("bad_position", f"{token} is given twice.")
            stones[point] = colour
    counts = capture_counts(variant=variant, captures=captures, colours=colours)
    if not 1 <= to_move <= colours:
        raise Invalid("bad_to_move", f"to_move must be a colour from 1 to {colours}.")
    return Stones(stones, tuple(counts), to_move)


def probe_of_stones(
    given: Stones, *, variant: Variant, seats: int = 2, partners: bool = False
) -> Probe:
    """The ``Probe`` of a position given by its stones (``stones_given``)."""
    table = variant.table_options
    key, symmetry = position_key(
        variant=variant.name,
        size=variant.size,
        stones=given.stones,
        captures=given.captures,
        to_move=given.to_move,
        seats=seats if table else 2,
        partners=partners,
    )
    colours = _colours(seats, partners) if table else 2
    return Probe(variant, signed64(key), symmetry, seats, colours)
