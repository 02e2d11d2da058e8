"""Rights are checked before the body: every write endpoint of the API (from the OpenAPI
schema), sent an empty body by a stranger (a signed-in user with no part in the object) and by
nobody (no credentials), against objects that exist, answers 401, 403 or 404, never a 400 that
would tell a stranger the body's rules. The endpoints open to anyone are listed with why."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from live.models import ChatLine, Room
from tests.factories import (
    ApiTokenFactory,
    ChallengeFactory,
    GameSetFactory,
    UserFactory,
    make_game,
)
from tests.tournaments.support import make_tournament
from tournaments.models import Match

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")

#: Writes anyone may send, signed in or not: the body is the request (who you are, what you ask).
OPEN_TO_EVERYONE = {
    ("post", "/api/auth/register/"): "signing up is for people without an account",
    ("post", "/api/auth/login/"): "signing in: the body names the account",
    ("post", "/api/auth/token/"): "a token for the account the body names",
    ("post", "/api/auth/logout/"): "signing out is harmless for anyone",
    ("post", "/api/auth/password-reset/"): "asking for a link to the e-mail address in the body",
    ("post", "/api/auth/password-reset/confirm/"): "the link's token in the body is the right",
    ("post", "/api/auth/email-confirm/"): "the link's token in the body is the right",
    ("post", "/api/learn/lessons/{slug}/steps/{step}/answer/"): "lessons are open to visitors",
}

#: Writes any signed-in user may send (their own things, or things open to all): a stranger is
#: no stranger to them, so the body's rules are theirs to learn.
OPEN_TO_ANY_ACCOUNT = {
    ("post", "/api/challenges/"): "creating one's own challenge",
    ("post", "/api/games/import/"): "importing records into one's own database",
    ("patch", "/api/me/"): "one's own account",
    ("post", "/api/me/delete/"): "one's own account (the body's password is the right)",
    ("post", "/api/me/email-confirmation/"): "one's own account",
    ("post", "/api/me/ignores/"): "one's own ignore list",
    ("post", "/api/me/tokens/"): "one's own tokens",
    ("post", "/api/me/vacation/"): "one's own account",
    ("post", "/api/rooms/{name}/chat/"): "rooms are open to every account",
    ("post", "/api/games/{id}/chat/"): "spectators may chat in a game they watch",
    ("post", "/api/chat/{id}/report/"): "anyone who can read a line may report it",
    ("post", "/api/games/{id}/analysis/"): "any account may ask for a finished game's analysis",
    ("post", "/api/tournaments/"): "creating one's own tournament",
    ("post", "/api/tournaments/import-trf/"): "importing one's own tournament",
    ("post", "/api/tournaments/{id}/join/"): "a tournament in registration is open to anyone",
}

#: Writes on the caller's own place in something (an entry, a seat): a stranger holds none, and
#: is told so (409 ``not_joined``) whatever the body, which is a refusal of who they are.
NOT_JOINED = {
    ("post", "/api/challenges/{challenge_id}/leave/"): "leaving needs a place taken",
    ("post", "/api/tournaments/{id}/withdraw/"): "withdrawing needs an entry",
    ("post", "/api/tournaments/{id}/byes/"): "a bye is asked by an entrant",
}

RIGHTS_REFUSALS = {401, 403, 404}


def write_operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in WRITES
    )


OPERATIONS = write_operations()


@pytest.fixture
def world() -> dict[str, str]:
    """An object of every kind a write's path names, none of them the stranger's."""
    owner, other = UserFactory(), UserFactory()
    game = make_game(players=[owner, other])
    tournament = make_tournament(players=4)
    match = Match.objects.filter(tournament=tournament).first()
    room, _ = Room.objects.get_or_create(name="lobby")
    line = ChatLine.objects.create(game=game, author=owner, text="hello")
    return {
        "id": str(game.pk),
        "challenge_id": str(ChallengeFactory(created_by=owner, kind="direct", invitee=other).pk),
        "set_id": str(GameSetFactory(player1=owner, player2=other).pk),
        "chat_id": str(line.pk),
        "tournament_id": str(tournament.pk),
        "match_id": str(match.pk),
        "round_number": "1",
        "token_id": str(ApiTokenFactory(user=owner).pk),
        "username": other.username,
        "name": room.name,
        "slug": "pente",
        "step": "1",
    }


def concrete(path: str, world: dict[str, str]) -> str:
    """The path with its parameters filled from the world (``{id}`` after ``games``, ``sets``,
    ``chat``, ``tournaments`` names that kind's object)."""
    kind = path.split("/")[2]
    ids = {"sets": "set_id", "chat": "chat_id", "tournaments": "tournament_id"}

    def fill(match: re.Match) -> str:
        name = match[1]
        return world[ids.get(kind, "id") if name == "id" else name]

    return re.sub(r"\{(\w+)\}", fill, path)


def test_the_schema_lists_the_writes_this_test_walks():
    assert len(OPERATIONS) > 40
    listed = set(OPEN_TO_EVERYONE) | set(OPEN_TO_ANY_ACCOUNT) | set(NOT_JOINED)
    assert listed <= set(OPERATIONS), listed - set(OPERATIONS)


def wrong_answers(client: APIClient, world: dict[str, str], *, open_ones: dict) -> list[str]:
    """Each write sent with an empty body: those not refused as they should be, with what they
    answered."""
    wrong = []
    for method, path in OPERATIONS:
        response = getattr(client, method)(concrete(path, world), {}, format="json")
        status, key = response.status_code, (method, path)
        if key in open_ones:
            ok = status < 500
        elif key in NOT_JOINED:
            ok = status in RIGHTS_REFUSALS or (status == 409 and b"not_joined" in response.content)
        else:
            ok = status in RIGHTS_REFUSALS
        if not ok:
            wrong.append(f"{method.upper()} {path}: {status} {response.content[:200]!r}")
    return wrong


def test_a_stranger_with_an_empty_body_is_refused_for_rights_not_for_the_body(world, settings):
    settings.PUBLIC_URL = "https://pente.example.org"
    client = APIClient()
    client.force_authenticate(UserFactory(username="stranger"))
    open_ones = {**OPEN_TO_EVERYONE, **OPEN_TO_ANY_ACCOUNT}
    assert wrong_answers(client, world, open_ones=open_ones) == []


def test_nobody_with_an_empty_body_is_refused_for_rights_not_for_the_body(world):
    assert wrong_answers(APIClient(), world, open_ones=OPEN_TO_EVERYONE) == []
