"""Helpers of the hill tests: members on given steps, hill sets played to a result."""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from games.challenges.services import challenge_accept
from games.clocks.timecontrol import TimeControl
from games.play.actions import game_resign
from games.play.models import Game, GameSet
from hills.models import HillMatch, HillMember
from hills.services import hill_challenge, hill_join, hill_open
from tests.factories import UserFactory

TURN = TimeControl.turn(3)
SLUG = "pente-turn"


def members(*steps: int, slug: str = SLUG) -> list[User]:
    """Users joined to the hill, then placed on ``steps`` (written directly)."""
    users = [UserFactory() for _ in steps]
    for user, step in zip(users, steps, strict=True):
        hill_join(user=user, slug=slug)
        HillMember.objects.filter(user=user, hill=hill_open(slug=slug)).update(step=step)
    return users


def steps(slug: str = SLUG) -> dict[str, int]:
    return {
        m.user.username: m.step
        for m in HillMember.objects.filter(hill=hill_open(slug=slug)).select_related("user")
    }


def start_set(challenger: User, challenged: User, *, slug: str = SLUG, tc=TURN) -> GameSet:
    match = hill_challenge(
        user=challenger, slug=slug, opponent=challenged.username, time_control=tc
    )
    challenge = challenge_accept(challenge_id=match.challenge_id, user=challenged)
    return challenge.game_set


def lose_set(game_set: GameSet, loser: User) -> GameSet:
    """``loser`` resigns every game of the set in progress."""
    for game in Game.objects.filter(game_set=game_set).order_by("set_index"):
        if game.status == Game.Status.IN_PROGRESS:
            game_resign(game_id=game.pk, user=loser)
    game_set.refresh_from_db()
    return game_set


def play(winner: User, loser: User, *, slug: str = SLUG) -> GameSet:
    """A hill set challenged by the winner and won by them."""
    return lose_set(start_set(winner, loser, slug=slug), loser)


def match_of(game_set: GameSet) -> HillMatch:
    return HillMatch.objects.get(game_set=game_set)


def now():
    return timezone.now()
