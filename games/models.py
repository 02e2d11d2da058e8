"""Where Django finds the games app's models. Each lives in the package of its concern (and is
imported from there); positions are never stored: services rebuild them from the moves through
``games.engine``.

- ``games.play.models``: ``GameSet``, ``Game``, ``Seat``, ``Move``;
- ``games.challenges.models``: ``Challenge``, ``ChallengeEntry``;
- ``games.records.models``: ``ImportJob`` (a record import run in the background);
- ``games.bots.models``: ``BotTurn`` (a computer's turn waiting for its move), ``Analysis`` (the
  computer's analysis of a finished game);
- ``games.notifications.models``: ``TurnNotice`` (a turn its player is still to be told of);
- ``games.idempotency.models``: ``IdempotencyKey`` (the first answer to a request sent with a key);
- ``games.choices``: the choices, ranges and CHECK helpers the models share.
"""

from games.bots.models import Analysis, BotTurn
from games.challenges.models import Challenge, ChallengeEntry
from games.choices import (
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
from games.idempotency.models import IdempotencyKey
from games.notifications.models import TurnNotice
from games.play.models import Game, GameSet, Move, Seat
from games.records.models import ImportJob

__all__ = [
    "Analysis",
    "BotTurn",
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
