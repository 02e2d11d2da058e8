"""The game database: list/filter/order/paginate, record export and import, SVG pictures.
(The import as a job, its limits and its worker: ``test_import_jobs.py``.)"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest
from django.db import transaction

from games.engine import Outcome, Termination
from games.play.actions import game_resign, move_play
from games.play.finish import game_finish
from games.play.models import Game, Seat
from games.records.imports import games_import
from games.records.models import ImportJob
from pente_site.errors import DomainError
from tests.clients import client_for
from tests.factories import UserFactory, make_game
from tests.games.records.importing import import_job, imported_games

pytestmark = pytest.mark.django_db

SVG_NS = "{http://www.w3.org/2000/svg}"


def _play(game, user, points):
    for p in points:
        game.refresh_from_db()
        move_play(game_id=game.pk, user=user, ply=game.ply, points=[p])


def _ids(response):
    assert response.status_code == 200, response.json()
    return sorted(g["id"] for g in response.json()["results"])


@pytest.fixture
def library():
    """alice beat bob (Pente, rated, resign); bob beat carol (Keryo, five); carol v alice open."""
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    g1 = make_game(players=[alice, bob], rated=True)
    game_resign(game_id=g1.pk, user=bob)
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
    assert missing.status_code == 400 and missing.json()["code"] == "missing_parameter"


def test_filter_by_date_range(library):
    c = client_for()
    got = c.get("/api/games/", {"date_after": "2024-02-01", "date_before": "2024-03-05"})
    assert _ids(got) == [library["g2"]]


@pytest.mark.parametrize("parameter", ["date_after", "date_before"])
def test_a_bad_date_is_reported_under_the_parameter_sent(library, parameter):
    response = client_for().get("/api/games/", {parameter: "garbage"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["fields"]) == {parameter}
    assert body["detail"].startswith(f"{parameter}: ")


def test_the_date_filters_include_their_whole_days(library):
    c = client_for()
    assert _ids(c.get("/api/games/", {"date_after": "2024-03-05"})) == [
        library["g2"],
        library["g3"],
    ]
    assert _ids(c.get("/api/games/", {"date_before": "2024-03-05"})) == [
        library["g1"],
        library["g2"],
    ]


def test_ordering(library):
    body = client_for().get("/api/games/", {"ordering": "started_at"}).json()
    assert [g["id"] for g in body["results"]] == [library["g1"], library["g2"], library["g3"]]
    body = client_for().get("/api/games/", {"ordering": "-started_at"}).json()
    assert [g["id"] for g in body["results"]] == [library["g3"], library["g2"], library["g1"]]


@pytest.mark.parametrize("url", ["/api/games/", "/api/games/records"])
@pytest.mark.parametrize("ordering", ["-bogus", "bogus", "started_at,-bogus", "players", "-"])
def test_an_unknown_ordering_field_is_a_400_naming_the_allowed_fields(library, url, ordering):
    response = client_for().get(url, {"ordering": ordering})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["fields"]) == {"ordering"}
    assert body["allowed"] == ["id", "created_at", "started_at", "finished_at", "ply", "variant"]
    assert "finished_at" in body["detail"] and repr(ordering.split(",")[-1]) in body["detail"]


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


def _exported_then_deleted(*game_ids: int, params: dict | None = None) -> str:
    """The records of these games as exported (``games/records`` with ``params``, or each
    game's own record), the games then deleted: a game over that is still here would be
    refused as a duplicate of itself (``test_import_duplicates.py``)."""
    if params is not None:
        text = client_for().get("/api/games/records", params).content.decode()
    else:
        text = "\n".join(
            client_for().get(f"/api/games/{pk}/record").content.decode() for pk in game_ids
        )
    Game.objects.filter(pk__in=game_ids).delete()
    return text


def test_export_then_import_round_trip(library):
    original = Game.objects.get(pk=library["g2"])
    original_moves = list(original.moves.values_list("point", flat=True))
    original_record = client_for().get(f"/api/games/{original.pk}/record").content.decode()
    # The finished games leave: the round trip brings them back from their records alone.
    exported = _exported_then_deleted(library["g1"], library["g2"], params={"ordering": "id"})
    games = imported_games(client_for(UserFactory()), exported)
    assert len(games) == 3
    by_variant = {g["variant"]: g for g in games}
    keryo = Game.objects.get(pk=by_variant["Keryo-Pente"]["id"])
    assert keryo.imported and not keryo.rated
    assert keryo.status == "archived" and keryo.end_reason == "five"
    assert keryo.winner_seats == original.winner_seats
    assert keryo.ply == original.ply
    assert list(keryo.moves.values_list("point", flat=True)) == original_moves
    assert list(Seat.objects.filter(game=keryo).values_list("name", "user")) == [
        ("bob", None),
        ("carol", None),
    ]
    assert [g["status"] for g in games] == ["archived"] * 3
    assert sorted(g["end_reason"] for g in games) == ["", "five", "resign"]
    resigned = Game.objects.filter(imported=True, end_reason="resign").get()
    assert resigned.winner_seats == [1]
    reexported = client_for().get(f"/api/games/{keryo.pk}/record").content.decode()
    assert reexported.split("\n\n", 1)[1] == original_record.split("\n\n", 1)[1]


def test_imported_games_are_found_by_the_recorded_names(library):
    text = _exported_then_deleted(library["g2"])
    imported_games(client_for(UserFactory()), text)
    found = client_for().get("/api/games/", {"player": "carol", "imported": "true"})
    assert len(found.json()["results"]) == 1


def test_import_accepts_json_too(library):
    text = _exported_then_deleted(library["g1"])
    job = import_job(client_for(UserFactory()), data={"text": text}, format="json")
    assert (job["status"], job["imported"], len(job["games"])) == ("done", 1, 1)


def test_import_accepts_a_form_field_too(library):
    text = _exported_then_deleted(library["g1"])
    job = import_job(client_for(UserFactory()), data={"text": text}, format="multipart")
    assert (job["status"], job["imported"]) == ("done", 1)


def test_import_refuses_a_record_with_an_illegal_move():
    text = '[Game "Pente"]\n\n1. K10 K10 *\n'
    job = import_job(client_for(UserFactory()), text)
    assert (job["status"], job["imported"], job["refused"]) == ("done", 0, 1)
    assert job["refusals"] == [
        {"record": 1, "line": 1, "code": "occupied", "detail": job["refusals"][0]["detail"]}
    ]
    assert "Move 2 (K10)" in job["refusals"][0]["detail"]
    assert Game.objects.count() == 0


@pytest.mark.parametrize("text", ["  \n\n", "% a comment only\n; and another\n"])
def test_import_refuses_text_without_a_record(text):
    response = client_for(UserFactory()).post("/api/games/import", text, content_type="text/plain")
    assert response.status_code == 400 and response.json()["code"] == "bad_record"
    assert not ImportJob.objects.exists()


def test_import_refuses_an_empty_body():
    response = client_for(UserFactory()).post("/api/games/import", "", content_type="text/plain")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert not ImportJob.objects.exists()


def test_import_refuses_a_text_that_is_no_record_in_the_job():
    job = import_job(client_for(UserFactory()), "hello")
    assert (job["status"], job["imported"], job["refused"]) == ("done", 0, 1)
    assert job["refusals"][0]["code"] == "bad_token"


def test_import_needs_a_login():
    response = client_for().post(
        "/api/games/import", '[Game "Pente"]\n\n1. K10 *\n', content_type="text/plain"
    )
    assert response.status_code in (401, 403)


def test_import_replays_each_record_through_the_engine_once(monkeypatch):
    from games.engine.game import Game as EngineGame

    built: list[str] = []
    actions: list[object] = []
    init, play, decide = EngineGame.__init__, EngineGame.play, EngineGame.decide

    def counting_init(self, variant, **options):
        built.append(str(variant))
        init(self, variant, **options)

    def counting_play(self, point, **kwargs):
        actions.append(point)
        return play(self, point, **kwargs)

    def counting_decide(self, choice, **kwargs):
        actions.append(choice)
        return decide(self, choice, **kwargs)

    monkeypatch.setattr(EngineGame, "__init__", counting_init)
    monkeypatch.setattr(EngineGame, "play", counting_play)
    monkeypatch.setattr(EngineGame, "decide", counting_decide)
    text = (
        '[Game "Pente"]\n\n1. K10 L11 2. M12 Resign 1-0\n\n'
        '[Game "Swap2-Pente"]\n[Swap2 "place_two colour2"]\n\n'
        "1. A1 T19 2. A19 T1 3. B2 C3 4. K10 *\n"
    )
    report = games_import(text=text)
    assert report.refusals == []
    pente, swap2 = (Game.objects.get(pk=pk) for pk in report.game_ids)
    assert built == ["Pente", "Swap2-Pente"]
    # Every action after Pente's automatic centre stone is played once, never replayed.
    assert len(actions) == (pente.ply - 1) + swap2.ply
    assert (pente.end_reason, pente.winner_seats) == ("resign", [1])
    assert list(swap2.moves.order_by("ply").values_list("seat", "kind", "choice")) == [
        (1, "stone", ""),
        (1, "stone", ""),
        (1, "stone", ""),
        (2, "decision", "place_two"),
        (2, "stone", ""),
        (2, "stone", ""),
        (1, "decision", "colour2"),
        (1, "stone", ""),
        (2, "stone", ""),
    ]


# --- imported records are archived -------------------------------------------------------

UNFINISHED_RECORD = """[Game "Pente"]
[Site "Pente.org"]
[Event "Rated Game"]
[TimeControl "5"]
[Rated "N"]
[Player 1 Name "dora"]
[Player 2 Name "ed"]
[Result "?"]

1. K10 L10 2. K12 *
"""


def _import(text: str, user=None) -> list[dict]:
    return imported_games(client_for(user or UserFactory()), text)


def _record(time_control: str, *, event: str = "Rated Game", game: str = "Pente") -> str:
    return (
        UNFINISHED_RECORD.replace('"5"', f'"{time_control}"')
        .replace("Rated Game", event)
        .replace('[Game "Pente"]', f'[Game "{game}"]')
    )


def test_an_unfinished_imported_record_is_archived_not_in_progress(library):
    (imported,) = _import(UNFINISHED_RECORD)
    assert imported["status"] == "archived" and imported["end_reason"] == ""
    game = Game.objects.get(pk=imported["id"])
    assert game.status == "archived" and game.finished_at is None and game.ply == 3
    c = client_for()
    assert _ids(c.get("/api/games/", {"status": "in_progress"})) == [library["g3"]]
    assert _ids(c.get("/api/games/", {"status": "archived"})) == [imported["id"]]
    state = c.get(f"/api/games/{imported['id']}/").json()
    assert state["status"] == "archived"
    assert state["to_move"] is None and state["pending_decision"] is None
    assert state["cancellable"] is False


def test_a_finished_imported_record_keeps_its_outcome_while_archived(library):
    text = client_for().get(f"/api/games/{library['g2']}/record").content.decode()
    # The same moves a day later: another game than g2, which stays to be listed beside it.
    assert '[Date "03/05/2024"]' in text
    (imported,) = _import(text.replace('[Date "03/05/2024"]', '[Date "03/06/2024"]'))
    assert imported["status"] == "archived"
    assert imported["end_reason"] == "five"
    assert imported["winner_seats"] == Game.objects.get(pk=library["g2"]).winner_seats
    assert Game.objects.get(pk=imported["id"]).finished_at is not None  # the record is dated
    c = client_for()
    assert _ids(c.get("/api/games/", {"status": "finished", "end_reason": "five"})) == [
        library["g2"]
    ]
    assert _ids(c.get("/api/games/", {"status": "archived", "end_reason": "five"})) == [
        imported["id"]
    ]
    # The recorded names play in the result filter too (carol lost to bob in the record).
    lost = c.get("/api/games/", {"player": "carol", "result": "loss", "status": "archived"})
    assert _ids(lost) == [imported["id"]]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "moves", {"ply": 3, "point": "A1"}),
        ("post", "decision", {"ply": 3, "choice": "keep"}),
        ("post", "resign", None),
        ("post", "cancel", None),
        ("delete", "cancel", None),
        ("post", "undo", None),
        ("delete", "undo", None),
    ],
)
def test_an_archived_game_is_never_playable(method, path, body):
    (imported,) = _import(UNFINISHED_RECORD)
    before = client_for().get(f"/api/games/{imported['id']}/").json()
    response = getattr(client_for(UserFactory()), method)(
        f"/api/games/{imported['id']}/{path}", body
    )
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "archived"
    after = client_for().get(f"/api/games/{imported['id']}/").json()
    assert after["ply"] == before["ply"] == 3 and after["status"] == "archived"


def test_archived_games_are_refused_by_the_services_too():
    (imported,) = _import(UNFINISHED_RECORD)
    with pytest.raises(DomainError) as refused:
        move_play(game_id=imported["id"], user=UserFactory(), ply=3, points=[0])
    assert refused.value.code == "archived" and refused.value.kind.http_status == 409


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("5", ("live", 5, 0, 0, "speed")),
        ("5+2", ("live", 5, 2, 0, "speed")),
        ("15+10", ("live", 15, 10, 0, "normal")),
        ("0+20", ("live", 0, 20, 0, "speed")),
        ("-", ("none", 0, 0, 0, "untimed")),
        ("?", ("none", 0, 0, 0, "untimed")),
        ("", ("none", 0, 0, 0, "untimed")),
        ("0", ("none", 0, 0, 0, "untimed")),
        ("1000", ("none", 0, 0, 0, "untimed")),
        ("5+60", ("none", 0, 0, 0, "untimed")),
        ("five", ("none", 0, 0, 0, "untimed")),
        ("5/0", ("none", 0, 0, 0, "untimed")),
        ("\u0665", ("none", 0, 0, 0, "untimed")),  # an Arabic-Indic five is no number here
    ],
)
def test_an_imported_live_time_control_header_is_parsed(header, expected):
    (imported,) = _import(_record(header))
    game = Game.objects.get(pk=imported["id"])
    got = (
        game.time_control,
        game.initial_minutes,
        game.increment_seconds,
        game.days_per_move,
        game.category,
    )
    assert got == expected
    assert imported["category"] == expected[-1]
    assert game.deadline is None and game.clocks_ms == []


@pytest.mark.parametrize(
    ("event", "game_name", "header", "expected"),
    [
        ("Turn-based Game", "Pente", "3", ("turn", 0, 0, 3, "turn")),
        ("Rated Game", "Turn-based Pente", "5", ("turn", 0, 0, 5, "turn")),
        ("Turn-based Game", "Pente", "31", ("none", 0, 0, 0, "untimed")),
        ("Turn-based Game", "Pente", "5+2", ("none", 0, 0, 0, "untimed")),
    ],
)
def test_an_imported_turn_based_time_control_is_days_per_move(event, game_name, header, expected):
    (imported,) = _import(_record(header, event=event, game=game_name))
    game = Game.objects.get(pk=imported["id"])
    got = (
        game.time_control,
        game.initial_minutes,
        game.increment_seconds,
        game.days_per_move,
        game.category,
    )
    assert got == expected


@pytest.mark.parametrize(
    "clock",
    [
        {"time_control": "live", "initial_minutes": 10, "increment_seconds": 5},
        {"time_control": "live", "initial_minutes": 3},
        {"time_control": "turn", "days_per_move": 4},
    ],
)
def test_an_exported_timed_game_imports_with_its_time_control(clock):
    original = make_game(**clock)
    text = client_for().get(f"/api/games/{original.pk}/record").content.decode()
    (imported,) = _import(text)
    game = Game.objects.get(pk=imported["id"])
    fields = ("time_control", "initial_minutes", "increment_seconds", "days_per_move", "category")
    assert [getattr(game, f) for f in fields] == [getattr(original, f) for f in fields]


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
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        game_finish(game=locked, outcome=Outcome(Termination.TIMEOUT, (1,)))
    text = client_for().get(f"/api/games/{game.pk}/record").content.decode()
    assert '[Result "1-0"]' in text
    assert text.rstrip().endswith("1-0")


def _position(game_id, user=None, **params):
    return client_for(user).get(f"/api/games/{game_id}/position", params)


def test_the_position_of_an_earlier_ply_is_its_board_as_json(library):
    body = _position(library["g2"], ply=2).json()
    assert body["ply"] == 2 and body["size"] == 19
    assert body["rows"][9][9] == "1" and body["rows"][18][0] == "2"  # K10, A1
    assert sum(row.count(".") for row in body["rows"]) == 19 * 19 - 2
    assert body["last_point"] == 18 * 19  # A1
    assert body["captures"] == [0, 0]


def test_the_position_refuses_a_bad_ply(library):
    for ply in (99, -1, "x"):
        response = _position(library["g2"], ply=ply)
        assert response.status_code == 400 and response.json()["code"] == "bad_ply"


def test_the_position_holds_the_spectator_delay_a_player_does_not():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    _play(game, bob, [0])
    _play(game, alice, [1])
    _play(game, bob, [2])
    Game.objects.filter(pk=game.pk).update(spectator_delay=2)
    assert _position(game.pk).json()["ply"] == 2  # of 4: the last two hidden
    assert _position(game.pk, ply=4).json()["code"] == "bad_ply"
    assert _position(game.pk, alice, ply=4).json()["rows"][0][:3] == "212"
    assert _position(game.pk, bob).json()["ply"] == 4
