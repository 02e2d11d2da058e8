"""A spectator delay (tournaments' ``spectator_delay``): spectators see a game in progress that
many plies late, through the API and on the stream they follow; the players see all of it."""

from __future__ import annotations

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from games.play.actions import game_resign, move_play
from live.models import Event
from live.services import chat_remove, chat_say_game
from tests.factories import UserFactory, make_game
from tests.tournaments.support import make_tournament
from tournaments.models import Match

pytestmark = pytest.mark.django_db

POINTS = ["A1", "K12", "B1", "K13", "C1"]  # after the centre stone: plies 2 to 6


@pytest.fixture(autouse=True)
def _database_log(settings):
    settings.REDIS_URL = ""


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def delayed_game(delay: int = 2):
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], spectator_delay=delay)
    with TestCase.captureOnCommitCallbacks(execute=True):
        for ply, point in enumerate(POINTS, start=1):
            player = bob if ply % 2 else alice
            move_play(game_id=game.pk, user=player, ply=ply, points=[point])
    return game, alice, bob


def test_a_spectator_sees_the_game_as_it_was_the_delay_ago():
    game, alice, _bob = delayed_game(delay=2)
    seen = client_of(UserFactory()).get(f"/api/games/{game.pk}/").json()
    assert (seen["ply"], seen["spectator_delay"]) == (4, 2)
    assert [m["ply"] for m in seen["moves"]] == [1, 2, 3, 4]
    assert seen["board"]["last_name"] == "B1"
    anonymous = client_of().get(f"/api/games/{game.pk}/").json()
    assert anonymous["ply"] == 4


def test_the_players_see_the_game_as_it_stands():
    game, alice, _bob = delayed_game(delay=2)
    seen = client_of(alice).get(f"/api/games/{game.pk}/").json()
    assert seen["ply"] == 6 and seen["board"]["last_name"] == "C1"


def test_once_the_game_is_over_everyone_sees_all_of_it():
    game, alice, _bob = delayed_game(delay=2)
    game_resign(game_id=game.pk, user=alice)
    seen = client_of().get(f"/api/games/{game.pk}/").json()
    assert seen["ply"] == 6 and len(seen["moves"]) == 6


def events(channel: str) -> list[tuple[str, list[int]]]:
    return [
        (e.kind, [m["ply"] for m in e.data.get("moves", [])])
        for e in Event.objects.filter(channel=channel).order_by("id")
    ]


def test_the_spectators_channel_gets_each_move_the_delay_late_and_the_rest_at_the_end():
    game, alice, _bob = delayed_game(delay=2)
    delayed = [("move", [1]), ("move", [2]), ("move", [3]), ("move", [4])]
    assert events(f"game:{game.pk}:delayed") == delayed
    assert [plies for _kind, plies in events(f"game:{game.pk}")] == [[2], [3], [4], [5], [6]]
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_resign(game_id=game.pk, user=alice)
    assert events(f"game:{game.pk}:delayed")[-2:] == [("move", [5, 6]), ("end", [])]


def test_chat_in_a_delayed_game_reaches_players_and_spectators():
    game, alice, _bob = delayed_game(delay=2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        chat_say_game(author=alice, game=game, text="gl")
    for channel in (f"game:{game.pk}", f"game:{game.pk}:delayed"):
        assert events(channel)[-1] == ("chat", [])


def test_a_line_taken_down_in_a_delayed_game_is_taken_down_for_its_spectators_too():
    game, alice, _bob = delayed_game(delay=2)
    line = chat_say_game(author=alice, game=game, text="gl")
    with TestCase.captureOnCommitCallbacks(execute=True):
        chat_remove(line=line, by=UserFactory(is_staff=True))
    for channel in (f"game:{game.pk}", f"game:{game.pk}:delayed"):
        assert events(channel)[-1] == ("chat_removed", [])


def test_a_tournaments_games_carry_its_spectator_delay():
    t = make_tournament(players=2, spectator_delay=3)
    match = Match.objects.get(tournament=t)
    games = [g for ms in match.match_sets.all() for g in ms.game_set.games.all()]
    assert games and all(g.spectator_delay == 3 for g in games)


def test_a_spectator_delay_out_of_range_is_refused():
    body = {
        "name": "Late Open",
        "start_at": "2099-01-01T00:00:00Z",
        "time_control": "live",
        "initial_minutes": 10,
        "spectator_delay": 21,
    }
    response = client_of(UserFactory()).post("/api/tournaments/", body)
    assert response.status_code == 400


# --- every other read a spectator has keeps the delay too -----------------------------------


def test_a_spectators_record_of_the_game_stops_at_the_delayed_ply():
    game, alice, _bob = delayed_game(delay=2)
    spectator = client_of(UserFactory()).get(f"/api/games/{game.pk}/record").content.decode()
    player = client_of(alice).get(f"/api/games/{game.pk}/record").content.decode()
    assert "B1" in spectator and "K13" not in spectator and "C1" not in spectator
    assert "K13" in player and "C1" in player


def test_the_records_export_keeps_the_delay():
    game, _alice, _bob = delayed_game(delay=2)
    text = client_of().get("/api/games/records", {"status": "in_progress"}).content.decode()
    assert "B1" in text and "C1" not in text


def test_a_spectators_picture_is_the_delayed_position_and_later_plies_are_refused():
    game, alice, _bob = delayed_game(delay=2)
    spectator = client_of()
    now = spectator.get(f"/api/games/{game.pk}/board.svg").content.decode()
    assert now == spectator.get(f"/api/games/{game.pk}/board.svg", {"ply": 4}).content.decode()
    later = spectator.get(f"/api/games/{game.pk}/board.svg", {"ply": 6})
    assert later.status_code == 400 and later.json()["code"] == "bad_ply"
    assert client_of(alice).get(f"/api/games/{game.pk}/board.svg", {"ply": 6}).status_code == 200


def test_the_game_list_shows_spectators_the_delayed_ply():
    game, alice, _bob = delayed_game(delay=2)
    listed = client_of().get("/api/games/", {"status": "in_progress"}).json()["results"]
    assert [(g["id"], g["ply"]) for g in listed] == [(game.pk, 4)]
    mine = client_of(alice).get("/api/games/", {"status": "in_progress"}).json()["results"]
    assert [g["ply"] for g in mine] == [6]
