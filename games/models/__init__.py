"""Models of the games app. Positions are never stored: services rebuild them from the moves
through ``games.engine``.

- ``challenges``: ``Challenge``, ``ChallengeEntry``;
- ``play``: ``GameSet``, ``Game``, ``Seat``, ``Move``; ``base``: shared CHECK helpers and choices;
- ``imports``: ``ImportJob`` (a record import run in the background).
- ``analysis``: ``Analysis`` (the computer's analysis of a finished game, run in the background).
- ``notices``: ``TurnNotice`` (a turn its player is still to be told of by e-mail).
- ``idempotency``: ``IdempotencyKey`` (the first answer to a request sent with a key).
"""

from games.models.analysis import Analysis
from games.models.base import (
    CATEGORIES,
    MAX_DAYS_PER_MOVE,
    MAX_INCREMENT_SECONDS,
    MAX_INITIAL_MINUTES,
    MAX_SEATS,
    MAX_SPECTATOR_DELAY,
    Category,
    TimeControlKind,
    choice_check,
    time_control_checks,
)
from games.models.challenges import Challenge, ChallengeEntry
from games.models.idempotency import IdempotencyKey
from games.models.imports import ImportJob
from games.models.notices import TurnNotice
from games.models.play import Game, GameSet, Move, Seat

__all__ = [
    "Analysis",
    "CATEGORIES",
    "MAX_DAYS_PER_MOVE",
    "MAX_SPECTATOR_DELAY",
    "MAX_INCREMENT_SECONDS",
    "MAX_INITIAL_MINUTES",
    "MAX_SEATS",
    "Category",
    "Challenge",
    "ChallengeEntry",
    "Game",
    "GameSet",
    "IdempotencyKey",
    "ImportJob",
    "Move",
    "Seat",
    "TimeControlKind",
    "TurnNotice",
    "choice_check",
    "time_control_checks",
]
