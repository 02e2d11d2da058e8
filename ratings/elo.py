"""Pente.org's Elo rules, as pure functions (no Django): the rating after a rated set, for
established and provisional players, with the direction guard, and the rating classes.

The rules in words: docs/ratings.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

#: The rating category a set's time-control category counts for (untimed games: normal).
CATEGORY_OF_SET = {"speed": "speed", "normal": "normal", "untimed": "normal", "turn": "turn"}


def rating_category(category: str) -> str:
    """The rating category a set's ``category`` counts for (untimed -> normal)."""
    return CATEGORY_OF_SET[category]


START_RATING = 1600.0
ESTABLISHED_RESULTS = 20
K_SET = 64.0
K_SINGLE_GAME = 32.0
PROVISIONAL_BONUS = 200.0

# Rating classes, best first: (lowest rating in the class, label, Pente.org's colour).
RATING_CLASSES: tuple[tuple[float, str, str], ...] = (
    (1900.0, "1900+", "red"),
    (1700.0, "1700+", "yellow"),
    (1400.0, "1400+", "blue"),
    (1000.0, "1000+", "green"),
    (float("-inf"), "below 1000", "grey"),
)


class EloError(ValueError):
    """A request the rating rules cannot answer (bad score, bad set size, negative count)."""


class Outcome(Enum):
    """A player's result in a set, valued as the Elo score ``S``."""

    WIN = 1.0
    DRAW = 0.5
    LOSS = 0.0

    @property
    def opposite(self) -> Outcome:
        return {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(self, Outcome.DRAW)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating before a set and the number of rated results behind it."""

    rating: float = START_RATING
    results: int = 0

    def __post_init__(self) -> None:
        if self.results < 0:
            raise EloError(f"a result count cannot be negative ({self.results})")

    @property
    def established(self) -> bool:
        return self.results >= ESTABLISHED_RESULTS


def expected_score(rating: float, opponent_rating: float) -> float:
    """Elo's expected score ``E`` of a player rated ``rating`` against ``opponent_rating``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent_rating - rating) / 400.0))


def k_factor(*, games_count: int, opponent_results: int) -> float:
    """``K`` for an established player: 64 (32 for a one-game set), scaled by
    ``opponent_results / 20`` when the opponent is provisional."""
    if games_count not in (1, 2):
        raise EloError(f"a set has 1 or 2 games, not {games_count}")
    k = K_SINGLE_GAME if games_count == 1 else K_SET
    if opponent_results < ESTABLISHED_RESULTS:
        k *= opponent_results / ESTABLISHED_RESULTS
    return k


def _guarded(before: float, after: float, outcome: Outcome, opponent_rating: float) -> float:
    """Keep ``after`` only if it moves in the direction of the result, else ``before``."""
    if outcome is Outcome.WIN:
        moves_right = after > before
    elif outcome is Outcome.LOSS:
        moves_right = after < before
    elif before < opponent_rating:
        moves_right = after > before
    elif before > opponent_rating:
        moves_right = after < before
    else:
        moves_right = False
    return after if moves_right else before


def rate(player: Standing, opponent: Standing, outcome: Outcome, *, games_count: int) -> float:
    """The player's new rating after a set with ``outcome`` against ``opponent``."""
    if games_count not in (1, 2):
        raise EloError(f"a set has 1 or 2 games, not {games_count}")
    if player.established:
        k = k_factor(games_count=games_count, opponent_results=opponent.results)
        after = player.rating + k * (outcome.value - expected_score(player.rating, opponent.rating))
    else:
        bonus = {Outcome.WIN: PROVISIONAL_BONUS, Outcome.LOSS: -PROVISIONAL_BONUS}.get(outcome, 0.0)
        if opponent.established:
            bonus *= 2
        value = (player.rating + opponent.rating) / 2 + bonus
        n = player.results
        after = (player.rating * n + value) / (n + 1)
    return _guarded(player.rating, after, outcome, opponent.rating)


def rate_set(
    player1: Standing, player2: Standing, outcome1: Outcome, *, games_count: int
) -> tuple[float, float]:
    """Both new ratings after a set, each computed from the ratings before it."""
    return (
        rate(player1, player2, outcome1, games_count=games_count),
        rate(player2, player1, outcome1.opposite, games_count=games_count),
    )


def rating_class(rating: float) -> tuple[str, str]:
    """``(label, colour)`` of the class a rating falls in (1900+, 1700+, 1400+, 1000+, below)."""
    for floor, label, colour in RATING_CLASSES:
        if rating >= floor:
            return label, colour
    raise AssertionError("unreachable: the last class has no floor")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class Record:
    """Everything a rating row keeps about one player in one game and category.

    ``streak`` is the current run of set wins (a loss or a draw ends it); ``best_streak`` the
    longest such run.
    """

    rating: float = START_RATING
    results: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def standing(self) -> Standing:
        return Standing(self.rating, self.results)

    def after(self, rating: float, outcome: Outcome) -> Record:
        """This record once a result with ``outcome`` moved the rating to ``rating``."""
        streak = self.streak + 1 if outcome is Outcome.WIN else 0
        return Record(
            rating=rating,
            results=self.results + 1,
            wins=self.wins + (outcome is Outcome.WIN),
            losses=self.losses + (outcome is Outcome.LOSS),
            draws=self.draws + (outcome is Outcome.DRAW),
            streak=streak,
            best_streak=max(self.best_streak, streak),
        )


def record_set(
    player1: Record, player2: Record, outcome1: Outcome, *, games_count: int
) -> tuple[Record, Record]:
    """Both players' records after a rated set (``outcome1`` is player 1's result)."""
    new1, new2 = rate_set(player1.standing, player2.standing, outcome1, games_count=games_count)
    return player1.after(new1, outcome1), player2.after(new2, outcome1.opposite)


def bucket_of(rating: float, width: int) -> int:
    """The ``b`` with ``b * width <= rating < (b + 1) * width`` (exact at the edges, unlike a
    bare ``floor(rating / width)`` which float rounding can push up)."""
    b = math.floor(rating / width)
    while rating < b * width:
        b -= 1
    while rating >= (b + 1) * width:
        b += 1
    return b
