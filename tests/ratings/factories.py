"""Factories and helpers for ratings tests."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks.timecontrol import TimeControl
from games.play.actions import game_resign
from games.play.create import set_create
from games.play.models import Game, GameSet
from games.play.sets import set_next_game_start
from ratings.models import Crown, Rating
from ratings.services import _buckets_shift, bucket_key
from tests.factories import GameSetFactory, UserFactory


class RatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rating
        skip_postgeneration_save = True

    user = factory.SubFactory(UserFactory)
    variant = "Pente"
    category = "normal"
    rating = 1600.0
    results = 0
    last_played_at = factory.LazyFunction(timezone.now)
    listed = factory.LazyAttribute(lambda row: row.user.is_active)

    @factory.post_generation
    def rank_bucket(obj, create, extracted, **kwargs):  # noqa: N805
        """Count the row in its rank bucket, as the services do for rows they create."""
        if create:
            _buckets_shift(added=[bucket_key(obj)])


class CrownFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Crown

    user = factory.SubFactory(UserFactory)
    tournament_name = factory.Sequence(lambda n: f"Pente Championship {n}")
    tournament_id = factory.Sequence(lambda n: n + 1)
    variant = "Pente"
    won_at = factory.LazyFunction(timezone.now)


_clock = {"t": timezone.now() - timedelta(days=365)}


def finished_set_row(
    player1: User, player2: User, result: str, *, minutes_later: int = 1, **fields
) -> GameSet:
    """A finished set row made directly (no games), ``finished_at`` strictly increasing."""
    _clock["t"] += timedelta(minutes=minutes_later)
    defaults = {
        "variant": "Pente",
        "rated": True,
        "category": "normal",
        "games_count": 2,
        "status": GameSet.Status.FINISHED,
        "result": result,
        "winner": {"player1": player1, "player2": player2}.get(result),
        "finished_at": _clock["t"],
    }
    defaults.update(fields)
    return GameSetFactory(player1=player1, player2=player2, **defaults)


def play_set(player1: User, player2: User, result: str, **options) -> GameSet:
    """Create a set through the games service and finish it by resignations so that the set's
    result is ``result`` ("player1", "player2" or "draw"). Game 1 seats player1 first."""
    options.setdefault("rated", True)
    options.setdefault("variant", "Pente")
    if "time_control" in options:
        options["time_control"] = TimeControl.pop_from(options)
    game_set = set_create(player1=player1, player2=player2, **options)
    # Who resigns each game: game 1 then game 2.
    losers = {
        "player1": [player2, player2],
        "player2": [player1, player1],
        "draw": [player2, player1],
    }[result]
    for index, loser in enumerate(losers[: game_set.games_count], start=1):
        # A live set's game 2 starts once game 1 is over: both players are ready at once.
        game = Game.objects.filter(game_set=game_set, set_index=index).first()
        if game is None:
            game = set_next_game_start(game_set_id=game_set.pk, at_once=True)
        with transaction.atomic():
            game_resign(game_id=game.pk, user=loser)
    game_set.refresh_from_db()
    return game_set
