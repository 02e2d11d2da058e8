"""Openings and turn order: who may sit down, the tournament rule, the centre stone, the D and
Swap2 protocols with their decisions, Connect6's two stones a turn, and what an undo request may
take back.

Turn order is a *cycle* of ``(seat, colour)`` entries, played in a loop. An opening protocol is a
*script* of steps run before the cycle: ``("stone", seat, colour)`` or ``("decide", seat,
decision, colour)`` (colour: the colour of the next stone, shown while the decision is pending).
A script always ends with a decision, and each decision says what comes next (``after``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .errors import BadOptions
from .variants import Variant

Step = tuple  # ("stone", seat, colour) | ("decide", seat, decision, colour)
Cycle = tuple[tuple[int, int], ...]

DECISIONS: dict[str, tuple[str, ...]] = {
    "d_swap": ("keep", "swap"),
    "swap2": ("swap", "keep", "place_two"),
    "swap2_colour": ("colour1", "colour2"),
}
ALL_DECISIONS = frozenset(c for cs in DECISIONS.values() for c in cs)

MULTI_VARIANTS = ("Pente", "Keryo-Pente")
PROTOCOLS = ("d", "swap2")  # openings with a script of free stones and decisions

SCRIPTS: dict[str, tuple[Step, ...]] = {
    "d": (
        ("stone", 1, 1),
        ("stone", 1, 2),
        ("stone", 1, 1),
        ("stone", 1, 2),
        ("decide", 2, "d_swap", 1),
    ),
    "swap2": (
        ("stone", 1, 1),
        ("stone", 1, 2),
        ("stone", 1, 1),
        ("decide", 2, "swap2", 2),
    ),
}
PLACE_TWO: tuple[Step, ...] = (
    ("stone", 2, 2),
    ("stone", 2, 1),
    ("decide", 1, "swap2_colour", 2),
)
PROTOCOL_CYCLE: Cycle = ((1, 1), (2, 2))
# Connect6: after the centre stone (a turn of its own, the cycle's last entry), 2, 2, 1, 1, ...
CONNECT6_CYCLE: Cycle = ((2, 2), (2, 2), (1, 1), (1, 1))
_SWAPPED = (0, 2, 1)
_KEPT = (0, 1, 2)


class Seating(NamedTuple):
    seats: int
    partners: bool
    tournament_rule: bool
    colours: int  # colours in play: 2, or one per seat in a multi-player game
    seat_colour: tuple[int, ...]  # seat_colour[seat] (index 0 unused)


def seating(
    v: Variant, seats: int, partners: bool, tournament_rule: bool | None, rated: bool
) -> Seating:
    """Check the table's options and derive the seats' colours and the tournament rule."""
    if partners:
        if seats not in (2, 4):
            raise BadOptions(f"Partners Pente is played by 4 seats, not {seats}")
        seats = 4
    if not isinstance(seats, int) or not 2 <= seats <= 6:
        raise BadOptions(f"A game has 2 to 6 seats, not {seats!r}")
    if (seats > 2 or partners) and v.name not in MULTI_VARIANTS:
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
    if partners:
        return Seating(4, True, tr, 2, (0, 1, 2, 1, 2))
    return Seating(seats, False, tr, 2 if seats == 2 else seats, tuple(range(seats + 1)))


def first_cycle(v: Variant, seat_colour: Sequence[int]) -> Cycle:
    """The turn cycle a new game starts with (a protocol's is replaced by its decision)."""
    if v.opening in PROTOCOLS:
        return PROTOCOL_CYCLE
    if v.opening == "connect6":
        return CONNECT6_CYCLE
    return tuple((s, seat_colour[s]) for s in range(1, len(seat_colour)))


class After(NamedTuple):
    """What a decision leads to: the seats' colours, and either the colour of the next stone
    (play begins) or a new script."""

    seat_colour: tuple[int, ...]
    next_colour: int
    script: tuple[Step, ...] = ()


def after(decision: str, choice: str, seat_colour: tuple[int, ...]) -> After:
    """The effect of ``choice`` on the pending ``decision`` (docs/rules.md, "Opening protocols")."""
    if decision == "d_swap":
        return After(_SWAPPED if choice == "swap" else seat_colour, 1)
    if decision == "swap2":
        if choice == "place_two":
            return After(seat_colour, 0, PLACE_TWO)
        return After(_SWAPPED if choice == "swap" else seat_colour, 2)
    # swap2_colour, chosen by seat 1
    return After(_KEPT if choice == "colour1" else _SWAPPED, 2)


def play_cycle(seat_colour: Sequence[int]) -> Cycle:
    """Two seats alternating colours 1 and 2 once a protocol is over."""
    return ((seat_colour.index(1), 1), (seat_colour.index(2), 2))


class Takeback(NamedTuple):
    """What an undo request may take back: the last ``actions`` actions, all made by ``seat``."""

    actions: int
    seat: int


def takeback(
    v: Variant, actions: Sequence[int | str], seats: Sequence[int], automatic: int
) -> Takeback | None:
    """The undo rule of the server (docs/rules.md, "Taking a move back"), for the actions
    taken so far, ``seats`` the seat that took each one, ``automatic`` how many of them the
    server placed itself.

    The last action must be a stone; an undo never reaches across a decision (the opening
    protocol) or into the automatic opening stones; in D and Swap2 games nothing can be taken
    back before a decision exists, and in Swap2 the two stones placed after ``place_two`` are
    part of the protocol; in Connect6 the whole turn (both stones of one seat) goes back.
    """
    n = len(actions)
    if not n or isinstance(actions[-1], str):
        return None
    base = automatic  # actions 1..base (1-based) can never be taken back
    if v.opening in PROTOCOLS:
        decided = [i for i, a in enumerate(actions) if isinstance(a, str)]
        if not decided:
            return None
        last = decided[-1]
        base = max(base, last + 1)
        if v.opening == "swap2" and actions[last] == "place_two":
            base = max(base, last + 3)  # stones four and five, before the colour decision
    first = n - 1
    if v.opening == "connect6" and n >= 2 and seats[-2] == seats[-1]:
        if not isinstance(actions[-2], str):
            first = n - 2
    if first < base:
        return None
    return Takeback(n - first, seats[-1])
