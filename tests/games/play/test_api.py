"""API tests of playing a game: state, moves, refusals, decisions, resign, cancel, undo."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.play import positions
from games.play.models import Game, Move
from games.play.signals import game_finished
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def players():
    return UserFactory(username="alice"), UserFactory(username="bob")


@pytest.fixture
def game(players):
    return make_game(players=list(players))


def play(client, game_id, ply, point, **extra):
    return client.post(f"/api/games/{game_id}/moves", {"ply": ply, "point": point, **extra})


# --- state ------------------------------------------------------------------------------


def test_new_pente_game_has_the_centre_stone_and_the_second_player_to_move(game, players):
    body = client_for().get(f"/api/games/{game.pk}/").json()
    assert body["ply"] == 1
    assert body["board"]["rows"][9][9] == "1"
    assert body["board"]["stones"] == [{"point": 180, "name": "K10", "colour": 1}]
    assert body["to_move"]["seat"] == 2
    assert body["to_move"]["user"]["username"] == "bob"
    assert body["moves"][0]["name"] == "K10"
    assert [p["user"]["username"] for p in body["players"]] == ["alice", "bob"]
    assert body["status"] == "in_progress" and body["cancellable"] is True
    assert body["clock"]["category"] == "untimed"


def test_the_clock_says_the_time_of_this_answer_to_the_millisecond(game, players):
    client = client_for()
    client.get(f"/api/games/{game.pk}/")  # an earlier answer: its time is not this one's
    start = timezone.now()
    start = start.replace(microsecond=start.microsecond // 1000 * 1000)
    as_of = client.get(f"/api/games/{game.pk}/").json()["clock"]["as_of"]
    end = timezone.now()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", as_of)
    assert start <= datetime.fromisoformat(as_of) <= end


def test_unknown_game_is_404_with_a_code():
    response = client_for().get("/api/games/999999/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


# --- moves ------------------------------------------------------------------------------


def test_a_move_is_played_and_the_state_returned(game, players):
    _, bob = players
    response = play(client_for(bob), game.pk, 1, "K9")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["ply"] == 2
    assert body["board"]["last_name"] == "K9"
    assert body["to_move"]["seat"] == 1
    assert Move.objects.filter(game=game).count() == 2


def test_the_integer_point_form_is_accepted(game, players):
    _, bob = players
    assert play(client_for(bob), game.pk, 1, 181).json()["board"]["last_name"] == "L10"


def test_playing_out_of_turn_is_refused_with_409(game, players):
    alice, _ = players
    response = play(client_for(alice), game.pk, 1, "K9")
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"


def test_a_stale_ply_is_409_with_the_current_game(game, players):
    _, bob = players
    response = play(client_for(bob), game.pk, 0, "K9")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_ply"
    assert body["game"]["ply"] == 1


def test_the_same_move_sent_twice_is_harmless(game, players):
    _, bob = players
    client = client_for(bob)
    assert play(client, game.pk, 1, "K9").status_code == 200
    again = play(client, game.pk, 1, "K9")
    assert again.status_code == 200
    assert again.json()["ply"] == 2
    assert Move.objects.filter(game=game).count() == 2


def test_the_same_move_sent_again_with_its_message_is_harmless(game, players):
    _, bob = players
    client = client_for(bob)
    body = {"ply": 1, "point": "K9", "message": "good luck"}
    assert client.post(f"/api/games/{game.pk}/moves", body).status_code == 200
    again = client.post(f"/api/games/{game.pk}/moves", body)
    assert again.status_code == 200 and again.json()["ply"] == 2
    assert play(client, game.pk, 1, "K9").status_code == 200  # without it: the same move too


def test_a_move_sent_again_with_a_message_it_was_played_without_is_409_already_played(
    game, players
):
    """The move stands; the message is not dropped in silence: the client is told to say it."""
    _, bob = players
    client = client_for(bob)
    assert play(client, game.pk, 1, "K9").status_code == 200
    again = client.post(f"/api/games/{game.pk}/moves", {"ply": 1, "point": "K9", "message": "gg"})
    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "already_played" and "chat" in body["detail"]
    assert body["game"]["ply"] == 2
    assert list(Move.objects.filter(game=game).values_list("message", flat=True)) == ["", ""]


def test_a_different_move_with_an_old_ply_is_stale(game, players):
    _, bob = players
    client = client_for(bob)
    play(client, game.pk, 1, "K9")
    response = play(client, game.pk, 1, "K8")
    assert response.status_code == 409 and response.json()["code"] == "stale_ply"


def test_an_occupied_point_is_refused_with_the_engine_code(game, players):
    _, bob = players
    response = play(client_for(bob), game.pk, 1, "K10")
    assert response.status_code == 400
    assert response.json()["code"] == "occupied"
    assert "K10" in response.json()["detail"]


@pytest.mark.parametrize(
    ("point", "code"),
    [
        ("Z99", "off_board"),
        ("I5", "bad_coordinate"),
        ("hello", "bad_coordinate"),
        (400, "off_board"),
        ([1, 2], "bad_coordinate"),
        (True, "bad_coordinate"),
    ],
)
def test_bad_coordinates_are_refused(game, players, point, code):
    _, bob = players
    response = play(client_for(bob), game.pk, 1, point)
    assert response.status_code == 400
    assert response.json()["code"] == code


def test_malformed_json_is_refused(game, players):
    _, bob = players
    response = client_for(bob).post(
        f"/api/games/{game.pk}/moves", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"


def test_a_move_without_ply_is_invalid(game, players):
    _, bob = players
    response = client_for(bob).post(f"/api/games/{game.pk}/moves", {"point": "K9"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "ply" in response.json()["fields"]


def test_a_non_participant_cannot_move(game):
    response = play(client_for(UserFactory()), game.pk, 1, "K9")
    assert response.status_code == 403
    assert response.json()["code"] == "not_a_participant"


def test_an_anonymous_user_cannot_move(game):
    response = play(client_for(), game.pk, 1, "K9")
    assert response.status_code in (401, 403)
    assert response.json()["code"] in ("not_authenticated", "permission_denied")


def test_a_move_to_an_unknown_game_is_404(players):
    response = play(client_for(players[0]), 999999, 1, "K9")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def _play_to_five(game, alice, bob):
    a, b = client_for(alice), client_for(bob)
    ply = 1
    for bob_point, alice_point in [("A1", "L10"), ("A2", "M10"), ("A3", "N10"), ("A5", "O10")]:
        assert play(b, game.pk, ply, bob_point).status_code == 200
        response = play(a, game.pk, ply + 1, alice_point)
        assert response.status_code == 200, response.json()
        ply += 2
    return response.json()


def test_a_full_game_ends_with_a_five(game, players):
    alice, bob = players
    received = []

    def receiver(sender, game, **kwargs):
        received.append((game.pk, game.end_reason))

    game_finished.connect(receiver)
    try:
        body = _play_to_five(game, alice, bob)
    finally:
        game_finished.disconnect(receiver)
    assert body["status"] == "finished"
    assert body["end_reason"] == "five"
    assert body["winner_seats"] == [1]
    assert body["winners"][0]["user"]["username"] == "alice"
    assert body["to_move"] is None
    assert received == [(game.pk, "five")]
    game.refresh_from_db()
    assert game.finished_at is not None and game.deadline is None


def test_a_move_after_the_game_is_over_is_refused(game, players):
    alice, bob = players
    _play_to_five(game, alice, bob)
    response = play(client_for(bob), game.pk, 9, "T1")
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"


# --- messages ---------------------------------------------------------------------------


def test_messages_are_private_until_the_game_is_over(game, players):
    alice, bob = players
    play(client_for(bob), game.pk, 1, "K9", message="good luck")
    own = client_for(alice).get(f"/api/games/{game.pk}/").json()["moves"][1]
    other = client_for(UserFactory()).get(f"/api/games/{game.pk}/").json()["moves"][1]
    assert own["message"] == "good luck"
    assert other["message"] is None and other["message_visible"] is False
    stranger_moves = client_for(UserFactory()).get(f"/api/games/{game.pk}/").json()["moves"]
    assert {m["message_visible"] for m in stranger_moves} == {False}  # no hint which has one
    client_for(alice).post(f"/api/games/{game.pk}/resign")
    after = client_for().get(f"/api/games/{game.pk}/").json()["moves"][1]
    assert after["message"] == "good luck"


def test_a_message_over_255_characters_is_refused(game, players):
    _, bob = players
    response = play(client_for(bob), game.pk, 1, "K9", message="x" * 256)
    assert response.status_code == 400
    assert Move.objects.filter(game=game).count() == 1


# --- resign ---------------------------------------------------------------------------


def test_resigning_gives_the_game_to_the_opponent(game, players):
    alice, _ = players
    response = client_for(alice).post(f"/api/games/{game.pk}/resign")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["end_reason"] == "resign"
    assert body["winner_seats"] == [2]


def test_resigning_a_finished_game_is_refused(game, players):
    alice, bob = players
    client_for(alice).post(f"/api/games/{game.pk}/resign")
    response = client_for(bob).post(f"/api/games/{game.pk}/resign")
    assert response.status_code == 409 and response.json()["code"] == "game_over"


def test_a_non_participant_cannot_resign(game):
    response = client_for(UserFactory()).post(f"/api/games/{game.pk}/resign")
    assert response.status_code == 403


# --- cancel ---------------------------------------------------------------------------


def test_cancel_needs_the_opponents_agreement(game, players):
    alice, bob = players
    asked = client_for(alice).post(f"/api/games/{game.pk}/cancel")
    assert asked.status_code == 200
    assert asked.json()["cancel_requested_by"] == 1 and asked.json()["status"] == "in_progress"
    again = client_for(alice).post(f"/api/games/{game.pk}/cancel")
    assert again.json()["status"] == "in_progress"
    agreed = client_for(bob).post(f"/api/games/{game.pk}/cancel")
    assert agreed.status_code == 200
    assert agreed.json()["status"] == "cancelled" and agreed.json()["winner_seats"] == []


def test_a_cancel_request_can_be_withdrawn_or_declined(game, players):
    alice, bob = players
    client_for(alice).post(f"/api/games/{game.pk}/cancel")
    declined = client_for(bob).delete(f"/api/games/{game.pk}/cancel")
    assert declined.status_code == 200 and declined.json()["cancel_requested_by"] is None
    nothing = client_for(bob).delete(f"/api/games/{game.pk}/cancel")
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_request"


def test_a_forbidden_cancel_check_stops_cancelling(game, players, monkeypatch):
    alice, _ = players
    monkeypatch.setattr(
        positions, "CANCEL_FORBIDDEN_CHECKS", [lambda g: "Tournament games cannot be cancelled."]
    )
    assert client_for().get(f"/api/games/{game.pk}/").json()["cancellable"] is False
    response = client_for(alice).post(f"/api/games/{game.pk}/cancel")
    assert response.status_code == 409 and response.json()["code"] == "cancel_forbidden"


# --- undo -----------------------------------------------------------------------------


def test_undo_takes_back_the_last_move_when_the_opponent_agrees(game, players):
    alice, bob = players
    play(client_for(bob), game.pk, 1, "K9")
    asked = client_for(bob).post(f"/api/games/{game.pk}/undo")
    assert asked.status_code == 200 and asked.json()["undo_requested_by"] == 2
    agreed = client_for(alice).post(f"/api/games/{game.pk}/undo")
    assert agreed.status_code == 200
    body = agreed.json()
    assert body["ply"] == 1 and body["to_move"]["seat"] == 2 and body["undo_requested_by"] is None
    assert Move.objects.filter(game=game).count() == 1


def test_only_the_player_who_just_moved_can_ask_for_undo(game, players):
    alice, bob = players
    play(client_for(bob), game.pk, 1, "K9")
    response = client_for(alice).post(f"/api/games/{game.pk}/undo")
    assert response.status_code == 409 and response.json()["code"] == "undo_not_allowed"


def test_the_centre_stone_cannot_be_undone(game, players):
    alice, _ = players
    response = client_for(alice).post(f"/api/games/{game.pk}/undo")
    assert response.status_code == 409


def test_a_move_clears_a_pending_undo_request(game, players):
    alice, bob = players
    play(client_for(bob), game.pk, 1, "K9")
    client_for(bob).post(f"/api/games/{game.pk}/undo")
    play(client_for(alice), game.pk, 2, "L10")
    assert Game.objects.get(pk=game.pk).undo_requested_by is None


def _decide(client, game_id, ply, choice):
    response = client.post(f"/api/games/{game_id}/decision", {"ply": ply, "choice": choice})
    assert response.status_code == 200, response.json()
    return response


def _undo_refused(client, game_id) -> bool:
    response = client.post(f"/api/games/{game_id}/undo")
    return response.status_code == 409 and response.json()["code"] == "undo_not_allowed"


def test_the_stones_of_a_d_pente_opening_cannot_be_taken_back(players):
    alice, bob = players
    game = make_game(players=[alice, bob], variant="D-Pente")
    a = client_for(alice)
    for ply, point in enumerate(["K10", "L10", "K12"]):
        assert play(a, game.pk, ply, point).status_code == 200
        assert _undo_refused(a, game.pk)
    assert play(a, game.pk, 3, "M12").status_code == 200
    _decide(client_for(bob), game.pk, 4, "keep")
    assert play(a, game.pk, 5, "N14").status_code == 200  # the first stone after the protocol
    assert client_for(alice).post(f"/api/games/{game.pk}/undo").status_code == 200


def test_the_stones_placed_after_a_swap2_place_two_cannot_be_taken_back(players):
    alice, bob = players
    game = make_game(players=[alice, bob], variant="Swap2-Pente")
    a, b = client_for(alice), client_for(bob)
    for ply, point in enumerate(["K10", "L10", "K12"]):
        assert play(a, game.pk, ply, point).status_code == 200
    _decide(b, game.pk, 3, "place_two")
    assert play(b, game.pk, 4, "M12").status_code == 200
    assert _undo_refused(b, game.pk)
    assert play(b, game.pk, 5, "N14").status_code == 200
    assert _undo_refused(b, game.pk)
    _decide(a, game.pk, 6, "colour1")
    assert play(b, game.pk, 7, "A1").status_code == 200  # colour 2's first stone after it
    assert b.post(f"/api/games/{game.pk}/undo").status_code == 200


def test_connect6_undo_takes_back_the_whole_turn():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], variant="Connect6")
    response = client_for(bob).post(
        f"/api/games/{game.pk}/moves", {"ply": 1, "points": ["K9", "K8"]}
    )
    assert response.status_code == 200, response.json()
    assert response.json()["ply"] == 3
    client_for(bob).post(f"/api/games/{game.pk}/undo")
    body = client_for(alice).post(f"/api/games/{game.pk}/undo").json()
    assert body["ply"] == 1


def test_connect6_needs_two_stones_a_turn():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], variant="Connect6")
    response = play(client_for(bob), game.pk, 1, "K9")
    assert response.status_code == 400
    assert response.json()["code"] == "wrong_stone_count"


# --- decisions ------------------------------------------------------------------------


def test_d_pente_swap_decision_swaps_colours():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], variant="D-Pente")
    a = client_for(alice)
    for ply, point in enumerate(["K10", "L10", "K12", "M12"]):
        assert play(a, game.pk, ply, point).status_code == 200
    state = a.get(f"/api/games/{game.pk}/").json()
    assert state["pending_decision"] == "d_swap"
    assert state["decisions_available"] == ["keep", "swap"]
    premature = play(client_for(bob), game.pk, 4, "A1")
    assert premature.status_code == 400 and premature.json()["code"] == "decision_pending"
    wrong = a.post(f"/api/games/{game.pk}/decision", {"ply": 4, "choice": "swap"})
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"
    response = client_for(bob).post(f"/api/games/{game.pk}/decision", {"ply": 4, "choice": "swap"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["ply"] == 5 and body["pending_decision"] is None
    colours = {p["seat"]: p["colour"] for p in body["players"]}
    assert colours == {1: 2, 2: 1}
    assert body["to_move"]["seat"] == 2 and body["to_move"]["colour"] == 1
    repeat = client_for(bob).post(f"/api/games/{game.pk}/decision", {"ply": 4, "choice": "swap"})
    assert repeat.status_code == 200
    undo = client_for(bob).post(f"/api/games/{game.pk}/undo")
    assert undo.status_code == 409


def test_a_decision_when_none_is_pending_is_refused(game, players):
    _, bob = players
    response = client_for(bob).post(f"/api/games/{game.pk}/decision", {"ply": 1, "choice": "keep"})
    assert response.status_code == 400
    assert response.json()["code"] == "no_decision_pending"


def _d_pente_after_four_stones():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], variant="D-Pente")
    for ply, point in enumerate(["K10", "L10", "K12", "M12"]):
        assert play(client_for(alice), game.pk, ply, point).status_code == 200
    return game, alice, bob


@pytest.mark.parametrize("sender", ["seat 1 (who placed the stones)", "seat 2 (who decides)"])
def test_a_stone_while_the_d_pente_decision_is_pending_is_decision_pending_whoever_sends_it(
    sender,
):
    from games.engine import Game as EngineGame
    from games.engine import IllegalMove

    game, alice, bob = _d_pente_after_four_stones()
    user = alice if sender.startswith("seat 1") else bob
    response = play(client_for(user), game.pk, 4, "E1")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "decision_pending"
    # The engine's own sentence, not one the service made up.
    position = EngineGame.replay(
        "D-Pente",
        list(Move.objects.filter(game=game).values_list("point", flat=True).order_by("ply")),
    )
    with pytest.raises(IllegalMove) as engine_refusal:
        position.play("E1", seat=1 if user == alice else 2)
    assert response.json()["detail"] == engine_refusal.value.detail
    assert Game.objects.get(pk=game.pk).ply == 4


def test_seat_1_still_cannot_make_the_d_pente_decision():
    game, alice, _ = _d_pente_after_four_stones()
    wrong = client_for(alice).post(f"/api/games/{game.pk}/decision", {"ply": 4, "choice": "keep"})
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"


def test_a_stone_out_of_turn_with_no_decision_pending_is_still_not_your_turn(game, players):
    alice, _ = players  # bob (seat 2) is to move after the centre stone
    response = play(client_for(alice), game.pk, 1, "A1")
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"
    assert "seat 2" in response.json()["detail"]
