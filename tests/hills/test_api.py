"""Hills API: the list, a hill's steps, join, leave, challenge, history, and its refusals."""

from __future__ import annotations

import pytest

from games.challenges.services import challenge_accept
from hills.models import HillMember
from tests.clients import client_for
from tests.factories import UserFactory
from tests.hills.helpers import lose_set

pytestmark = pytest.mark.django_db


def test_every_game_has_a_live_and_a_turn_based_hill():
    body = client_for().get("/api/hills/").json()
    slugs = {row["slug"] for row in body}
    assert {"pente-live", "pente-turn", "go-live", "connect6-turn"} <= slugs
    assert all(row["members_count"] == 0 and row["king"] is None for row in body)


def test_two_players_join_climb_and_the_hill_shows_it():
    alice, bob = UserFactory(), UserFactory()
    for user in (alice, bob):
        response = client_for(user).post("/api/hills/pente-turn/join/")
        assert response.status_code == 201, response.json()
    again = client_for(alice).post("/api/hills/pente-turn/join/")
    assert again.status_code == 409 and again.json()["code"] == "already_member"

    response = client_for(alice).post(
        "/api/hills/pente-turn/challenges/",
        {"opponent": bob.username, "time_control": "turn", "days_per_move": 3},
        format="json",
    )
    assert response.status_code == 201, response.json()
    challenge = response.json()
    assert challenge["rated"] is True and challenge["invitee"] == bob.username
    accepted = challenge_accept(challenge_id=challenge["id"], user=bob)

    detail = client_for().get("/api/hills/pente-turn").json()
    (step,) = detail["steps"]
    playing = {m["username"]: m["sets"] for m in step["members"]}
    assert playing[alice.username][0]["to_move"] in (alice.username, bob.username)

    lose_set(accepted.game_set, bob)
    detail = client_for().get("/api/hills/pente-turn/").json()
    assert detail["king"] == alice.username
    assert [(s["step"], [m["username"] for m in s["members"]]) for s in detail["steps"]] == [
        (2, [alice.username]),
        (1, [bob.username]),
    ]
    top = detail["steps"][0]["members"][0]
    assert top["king"] is True and top["conquests"] == 1 and top["rating"] == 1800
    assert detail["room"] == "hill-pente-turn"

    history = client_for().get("/api/hills/pente-turn/history/").json()["results"]
    kinds = [(e["user"], e["kind"]) for e in history]
    assert (alice.username, "crowned") in kinds and (bob.username, "down") in kinds
    assert (alice.username, "up") in kinds and (alice.username, "joined") in kinds

    listed = {row["slug"]: row for row in client_for().get("/api/hills/").json()}
    assert listed["pente-turn"] == {
        "slug": "pente-turn",
        "variant": "Pente",
        "kind": "turn",
        "members_count": 2,
        "king": alice.username,
    }


def test_leave_and_the_refusals():
    alice = UserFactory()
    anonymous = client_for().post("/api/hills/pente-live/join/")
    assert anonymous.status_code in (401, 403)
    assert client_for(alice).post("/api/hills/pente-live/leave/").json()["code"] == "not_member"
    assert client_for(alice).post("/api/hills/pente-live/join/").status_code == 201
    left = client_for(alice).post("/api/hills/pente-live/leave/")
    assert left.status_code == 200 and left.json()["members_count"] == 0
    assert not HillMember.objects.exists()
    missing = client_for().get("/api/hills/pente-weekly/")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_hill"
    assert client_for().get("/api/hills/nothing-turn/history/").status_code == 404


def test_a_challenge_of_the_wrong_time_control_or_out_of_reach_is_refused():
    alice, bob = UserFactory(), UserFactory()
    for user in (alice, bob):
        client_for(user).post("/api/hills/pente-live/join/")
    wrong = client_for(alice).post(
        "/api/hills/pente-live/challenges/",
        {"opponent": bob.username, "time_control": "turn", "days_per_move": 3},
        format="json",
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "hill_time_control"
    unknown = client_for(alice).post(
        "/api/hills/pente-live/challenges/",
        {"opponent": "nobody", "time_control": "live", "initial_minutes": 5},
        format="json",
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_member"


def test_the_hill_api_is_in_the_schema():
    schema = client_for().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/hills/",
        "/api/hills/{slug}/",
        "/api/hills/{slug}/join/",
        "/api/hills/{slug}/challenges/",
        "/api/hills/{slug}/history/",
    ):
        assert any(p.rstrip("/") == path.rstrip("/") for p in schema["paths"]), path
