"""The game database: list/filter/order/paginate, record export and import, SVG pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from games import services
from games.factories import UserFactory, make_game
from games.models import Game, Seat

pytestmark = pytest.mark.django_db

SVG_NS = "{http://www.w3.org/2000/svg}"


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _play(game, user, points):
    for p in points:
        game.refresh_from_db()
        services.move_play(game_id=game.pk, user=user, ply=game.ply, points=[p])


def _ids(response):
    assert response.status_code == 200, response.json()
    return sorted(g["id"] for g in response.json()["results"])


@pytest.fixture
def library():
    """alice beat bob (Pente, rated, resign); bob beat carol (Keryo, five); carol v alice open."""
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    g1 = make_game(players=[alice, bob], rated=True)
    services.game_resign(game_id=g1.pk, user=bob)
    g2 = make_game(players=[bob, carol], variant="Keryo-Pente")
    # bob (seat 1) makes five along row 10, carol plays far away on the A column.
    for carol_point, bob_point in [(342, 181), (323, 182), (304, 183), (266, 184)]:
        _play(g2, carol, [carol_point])
        _play(g2, bob, [bob_point])
    g3 = make_game(players=[carol, alice])
    Game.objects.filter(pk=g1.pk).update(started_at=datetime(2024, 1, 10, tzinfo=UTC))
    Game.objects.filter(pk=g2.pk).update(started_at=datetime(2024, 3, 5, tzinfo=UTC))
    Game.objects.filter(pk=g3.pk).update(started_at=datetime(2024, 6, 1, tzinfo=UTC))
    return {"alice": alice, "bob": bob, "carol": carol, "g1": g1.pk, "g2": g2.pk, "g3": g3.pk}


def test_the_game_list_is_paginated(library):
    body = client_for().get("/api/games/", {"page_size": 2}).json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]


def test_filter_by_player_and_opponent(library):
    c = client_for()
    assert _ids(c.get("/api/games/", {"player": "alice"})) == [library["g1"], library["g3"]]
    both = c.get("/api/games/", {"player": "alice", "opponent": "bob"})
    assert _ids(both) == [library["g1"]]


def test_filter_by_variant_name_or_slug(library):
    c = client_for()
    assert _ids(c.get("/api/games/", {"variant": "keryo-pente"})) == [library["g2"]]
    assert _ids(c.get("/api/games/", {"variant": "Keryo-Pente"})) == [library["g2"]]
    unknown = c.get("/api/games/", {"variant": "Chess"})
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_game"


def test_filter_by_rated_status_and_end_reason(library):
    c = client_for()
    assert _ids(c.get("/api/games/", {"rated": "true"})) == [library["g1"]]
    assert _ids(c.get("/api/games/", {"status": "in_progress"})) == [library["g3"]]
    assert _ids(c.get("/api/games/", {"end_reason": "five"})) == [library["g2"]]


def test_filter_by_winner_and_result(library):
    c = client_for()
    assert _ids(c.get("/api/games/", {"winner": "bob"})) == [library["g2"]]
    assert _ids(c.get("/api/games/", {"player": "bob", "result": "win"})) == [library["g2"]]
    assert _ids(c.get("/api/games/", {"player": "bob", "result": "loss"})) == [library["g1"]]
    assert _ids(c.get("/api/games/", {"player": "bob", "result": "draw"})) == []
    missing = c.get("/api/games/", {"result": "win"})
    assert missing.status_code == 400 and missing.json()["code"] == "player_required"


def test_filter_by_date_range(library):
    c = client_for()
    got = c.get("/api/games/", {"date_after": "2024-02-01", "date_before": "2024-03-05"})
    assert _ids(got) == [library["g2"]]


def test_ordering(library):
    body = client_for().get("/api/games/", {"ordering": "started_at"}).json()
    assert [g["id"] for g in body["results"]] == [library["g1"], library["g2"], library["g3"]]


def test_a_game_exports_as_a_pente_org_record(library):
    response = client_for().get(f"/api/games/{library['g2']}/record")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert '[Game "Keryo-Pente"]' in text
    assert '[Player 1 Name "bob"]' in text and '[Player 2 Name "carol"]' in text
    assert '[Result "1-0"]' in text
    assert text.split("\n\n", 1)[1].startswith("1. K10")


def test_a_resigned_game_exports_its_result(library):
    text = client_for().get(f"/api/games/{library['g1']}/record").content.decode()
    assert '[Result "0-1"]' in text or '[Result "1-0"]' in text
    assert '[Result "1-0"]' in text  # alice (player 1) won: bob resigned


def test_export_of_an_unknown_game_is_404():
    assert client_for().get("/api/games/999999/record").status_code == 404


def test_records_export_follows_the_filters(library):
    response = client_for().get("/api/games/records", {"player": "carol"})
    assert response.status_code == 200
    text = response.content.decode()
    assert text.count("[Game ") == 2
    assert response["X-Total-Count"] == "2"


def test_export_then_import_round_trip(library):
    exported = client_for().get("/api/games/records", {"ordering": "id"}).content.decode()
    importer = UserFactory()
    response = client_for(importer).post("/api/games/import", exported, content_type="text/plain")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["count"] == 3
    by_variant = {g["variant"]: g for g in body["games"]}
    keryo = Game.objects.get(pk=by_variant["Keryo-Pente"]["id"])
    original = Game.objects.get(pk=library["g2"])
    assert keryo.imported and not keryo.rated
    assert keryo.status == "finished" and keryo.end_reason == "five"
    assert keryo.winner_seats == original.winner_seats
    assert keryo.ply == original.ply
    assert list(keryo.moves.values_list("point", flat=True)) == list(
        original.moves.values_list("point", flat=True)
    )
    assert list(Seat.objects.filter(game=keryo).values_list("name", "user")) == [
        ("bob", None),
        ("carol", None),
    ]
    statuses = sorted(g["status"] for g in body["games"])
    assert statuses == ["finished", "finished", "in_progress"]
    resigned = Game.objects.filter(imported=True, end_reason="resign").get()
    assert resigned.winner_seats == [1]
    reexported = client_for().get(f"/api/games/{keryo.pk}/record").content.decode()
    assert (
        reexported.split("\n\n", 1)[1]
        == client_for()
        .get(f"/api/games/{library['g2']}/record")
        .content.decode()
        .split("\n\n", 1)[1]
    )


def test_imported_games_are_found_by_the_recorded_names(library):
    text = client_for().get(f"/api/games/{library['g2']}/record").content.decode()
    client_for(UserFactory()).post("/api/games/import", text, content_type="text/plain")
    found = client_for().get("/api/games/", {"player": "carol", "imported": "true"})
    assert len(found.json()["results"]) == 1


def test_import_accepts_json_too(library):
    text = client_for().get(f"/api/games/{library['g1']}/record").content.decode()
    response = client_for(UserFactory()).post("/api/games/import", {"text": text})
    assert response.status_code == 201 and response.json()["count"] == 1


def test_import_refuses_a_record_with_an_illegal_move():
    text = '[Game "Pente"]\n\n1. K10 K10 *\n'
    response = client_for(UserFactory()).post("/api/games/import", text, content_type="text/plain")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_record"
    assert Game.objects.count() == 0


def test_import_refuses_text_without_a_record():
    response = client_for(UserFactory()).post(
        "/api/games/import", "hello", content_type="text/plain"
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_record"


def test_import_needs_a_login():
    response = client_for().post(
        "/api/games/import", '[Game "Pente"]\n\n1. K10 *\n', content_type="text/plain"
    )
    assert response.status_code in (401, 403)


# --- SVG --------------------------------------------------------------------------------


def _svg_stones(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    return {
        c.get("data-point")
        for c in root.iter(f"{SVG_NS}circle")
        if (c.get("class") or "").startswith("stone")
    }


def test_the_board_svg_shows_the_stones(library):
    stones = _svg_stones(client_for().get(f"/api/games/{library['g2']}/board.svg"))
    assert {"K10", "L10", "M10", "N10", "O10", "A1", "A2"} <= stones


def test_the_board_svg_of_an_earlier_ply(library):
    stones = _svg_stones(client_for().get(f"/api/games/{library['g2']}/board.svg", {"ply": 2}))
    assert stones == {"K10", "A1"}


def test_the_board_svg_refuses_a_bad_ply(library):
    response = client_for().get(f"/api/games/{library['g2']}/board.svg", {"ply": 99})
    assert response.status_code == 400 and response.json()["code"] == "bad_ply"


def test_the_schema_generates():
    response = client_for().get("/api/schema/")
    assert response.status_code == 200
    assert (
        b"/api/games/{id}/moves" in response.content or b"/api/games/{pk}/moves" in response.content
    )


def test_a_game_lost_on_time_exports_its_result():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    with services.transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        services.game_finish(game=locked, end_reason="timeout", winner_seats=[1])
    text = client_for().get(f"/api/games/{game.pk}/record").content.decode()
    assert '[Result "1-0"]' in text
    assert text.rstrip().endswith("1-0")
