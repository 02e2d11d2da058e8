"""Go's end against the computer: a rejected marking names the stones the computer disputes
(the state's ``go.disputed``, the move's ``disputed``, the live event), play resumes with the
player who passed first, and a person's rejection names what they send, or nothing."""

from __future__ import annotations

import random

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from games.bots import services
from games.play.actions import game_mark_dead, move_play
from games.play.models import Move
from live.models import Event
from tests.factories import UserFactory, computer, make_game

pytestmark = pytest.mark.django_db

#: A finished 9x9 game (``test_go_search.POCKET``): black's wall on column E with row 4, white's
#: on column F; white's bottom-left corner lives with two eyes inside black's side (A1-A2,
#: C1-C2); black's H8 is dead in white's area. With H8 off, white wins; left on, black does.
BLACK = "E9 E8 E7 E6 E5 E4 E3 E2 E1 A4 B4 C4 D4 H8".split()
WHITE = "F9 F8 F7 F6 F5 F4 F3 F2 F1 A3 B3 C3 D3 B2 B1 D2 D1".split()
WHITE_CORNER = WHITE[9:]


@pytest.fixture(autouse=True)
def _events_in_the_database(settings):
    settings.REDIS_URL = ""  # the embedded log (the Event table), read back below
    settings.BOT_THINK_SCALE = 2  # the marking's playout cap is reached well within it


def marked(proposal: list[str], *, bot_level: int = 8, computer_black: bool = False):
    """A game of a human against the computer (white, or black with ``computer_black``) at the
    finished position, both passed, the human first, and the human's ``proposal`` made: the
    computer is to answer. The game, the human, the human's client."""
    human, bot = UserFactory(), computer(bot_level)
    seats = [bot, human] if computer_black else [human, bot]
    game = make_game(players=seats, variant="Go (9x9)")
    if computer_black:  # white passes first: black's passes go between white's stones
        blacks = [*BLACK[:10], "PASS", *[a for b in BLACK[10:] for a in (b, "PASS")]]
        whites = [*WHITE, "PASS"]
    else:
        blacks = [*BLACK, *["PASS"] * (len(WHITE) - len(BLACK)), "PASS"]
        whites = [*WHITE, "PASS"]
    actions = [a for pair in zip(blacks, whites, strict=False) for a in pair]
    actions += blacks[len(whites) :]
    for ply, point in enumerate(actions):
        move_play(game_id=game.pk, user=seats[ply % 2], ply=ply, points=[point])
    game_mark_dead(game_id=game.pk, user=human, ply=len(actions), points=proposal)
    client = APIClient()
    client.force_authenticate(human)
    return game, human, client


def answered(game, *, seed: int) -> None:
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert services.bot_play(game_id=game.pk, ply=game.ply, rng=random.Random(seed)) == "played"


def test_the_computer_rejecting_a_marking_names_the_stones_it_disputes_everywhere():
    game, _human, client = marked([])  # H8 left alive: white would lose
    answered(game, seed=1)
    rejection = Move.objects.filter(game=game).last()
    assert (rejection.seat, rejection.kind, rejection.choice) == (2, "decision", "reject H8")
    state = client.get(f"/api/games/{game.pk}/").json()
    assert state["go"]["disputed"] == ["H8"]
    assert state["moves"][-1]["choice"] == "reject" and state["moves"][-1]["disputed"] == ["H8"]
    assert "disputed" not in state["moves"][-2]  # only a rejection that names stones has them
    event = Event.objects.filter(channel=f"game:{game.pk}").last()
    assert event.kind == "move"
    assert [(m["choice"], m["disputed"]) for m in event.data["moves"]] == [("reject", ["H8"])]
    assert event.data["state"]["go"]["disputed"] == ["H8"]


def test_the_computer_disputes_its_living_corner_marked_dead_and_not_the_dead_stone():
    game, _human, client = marked(["H8", *WHITE_CORNER])
    answered(game, seed=2)
    state = client.get(f"/api/games/{game.pk}/").json()
    assert sorted(state["go"]["disputed"]) == sorted(WHITE_CORNER)


def test_the_computer_accepts_a_correct_marking_and_the_game_is_counted():
    game, _human, client = marked(["H8"])
    answered(game, seed=3)
    state = client.get(f"/api/games/{game.pk}/").json()
    assert (state["status"], state["end_reason"], state["winner_seats"]) == (
        "finished",
        "score",
        [2],
    )
    assert state["go"]["dead"] == ["H8"] and state["go"]["disputed"] == []


def test_the_weakest_computer_accepts_a_correct_marking_of_its_own_dead_stone():
    """Level 1 thinks a twentieth of a second a move, too short to judge life and death: the
    marking is judged as long at every level, so it does not turn down its own H8 taken off."""
    game, _human, client = marked(["H8"], bot_level=1, computer_black=True)
    answered(game, seed=5)
    state = client.get(f"/api/games/{game.pk}/").json()
    assert (state["status"], state["go"]["dead"], state["winner_seats"]) == (
        "finished",
        ["H8"],
        [2],
    )


def test_after_the_rejection_play_resumes_with_the_first_passer_and_the_dispute_lasts_till_then():
    game, human, client = marked([])
    answered(game, seed=4)
    state = client.get(f"/api/games/{game.pk}/").json()
    assert state["go"]["phase"] == "playing" and state["to_move"]["seat"] == 1  # black passed first
    assert state["pending_decision"] is None
    # black plays on; the dispute stays shown while play goes on
    state = client.post(
        f"/api/games/{game.pk}/moves", {"ply": state["ply"], "point": "G9"}, format="json"
    ).json()
    assert state["go"]["disputed"] == ["H8"] and state["to_move"]["seat"] == 2
    # two passes start a new marking: the old dispute is no longer shown
    bot = game.seat_rows.get(seat=2).user
    move_play(game_id=game.pk, user=bot, ply=state["ply"], points=["PASS"])
    move_play(game_id=game.pk, user=human, ply=state["ply"] + 1, points=["PASS"])
    state = client.get(f"/api/games/{game.pk}/").json()
    assert state["go"]["phase"] == "marking" and state["go"]["disputed"] == []
    assert state["go"]["marking_seat"] == 2  # white passed first this time


def test_a_person_rejecting_disputes_nothing_or_the_stones_they_name():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], variant="Go (9x9)")
    clients = {}
    for seat, user in ((1, alice), (2, bob)):
        clients[seat] = APIClient()
        clients[seat].force_authenticate(user)
    url = f"/api/games/{game.pk}"

    def post(seat, action, body):
        ply = clients[1].get(f"{url}/").json()["ply"]
        return clients[seat].post(f"{url}/{action}", {"ply": ply, **body}, format="json")

    for seat, point in ((1, "C3"), (2, "G7"), (1, "PASS"), (2, "PASS")):
        assert post(seat, "moves", {"point": point}).status_code == 200
    post(1, "dead", {"points": ["G7"]})
    body = post(2, "decision", {"choice": "reject"}).json()
    assert body["go"]["disputed"] == [] and "disputed" not in body["moves"][-1]
    for seat in (1, 2):
        post(seat, "moves", {"point": "PASS"})
    post(1, "dead", {"points": ["G7"]})
    refused = post(2, "decision", {"choice": "accept", "disputed": ["G7"]})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_decision"
    refused = post(2, "decision", {"choice": "reject", "disputed": ["E5"]})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_dead"
    body = post(2, "decision", {"choice": "reject", "disputed": ["G7"]}).json()
    assert body["go"]["disputed"] == ["G7"] and body["moves"][-1]["disputed"] == ["G7"]
