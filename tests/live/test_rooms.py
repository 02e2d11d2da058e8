"""Rooms, chat, ignores, reports and presence through the API and the services, and what they
and the games, tournaments and ratings publish on the rooms' and users' channels (the embedded
event log, read back after commit)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from games.challenges import services as challenges
from games.clocks.timecontrol import TimeControl
from games.play.actions import game_resign
from games.play.models import Game
from live import services
from live.models import ChatLine, Event, Presence, Report
from live.selectors import spectators_count
from pente_site.counters import parse_rate
from ratings.services import rating_apply_set
from tests.factories import UserFactory, make_game
from tests.ratings.factories import RatingFactory, finished_set_row
from tests.tournaments.support import make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _database_log(settings):
    settings.REDIS_URL = ""


@pytest.fixture
def commits():
    """``with commits():`` runs the on-commit callbacks (the publishing) of what is inside."""
    return lambda: TestCase.captureOnCommitCallbacks(execute=True)


def events(channel: str, kind: str | None = None) -> list[dict]:
    rows = Event.objects.filter(channel=channel).order_by("id")
    if kind is not None:
        rows = rows.filter(kind=kind)
    return [{"type": r.kind, **r.data} for r in rows]


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


# --- rooms -----------------------------------------------------------------------------------


def test_the_main_room_is_listed_and_shows_who_is_in_it_with_their_ratings():
    alice = UserFactory()
    RatingFactory(user=alice, variant="Pente", category="speed", rating=1712.4, results=9)
    services.presence_enter(place="room:main", user=alice, spectator=False)
    services.presence_enter(place="room:main", user=None, spectator=False)
    rooms = client_of().get("/api/rooms/").json()
    assert rooms[0] == {"name": "main", "title": "Main room", "tournament": None, "online": 2}
    room = client_of().get("/api/rooms/main/").json()
    assert room["online"] == [
        {
            "id": alice.pk,
            "username": alice.username,
            "ratings": [{"variant": "Pente", "category": "speed", "rating": 1712, "results": 9}],
        }
    ]
    assert room["anonymous"] == 1


def test_an_unknown_room_is_a_404_that_says_which_rooms_exist():
    body = client_of().get("/api/rooms/lobby/").json()
    assert body["code"] == "no_such_room" and "'main'" in body["detail"]
    assert client_of().get("/api/rooms/tournament-999999/").status_code == 404


def test_a_tournaments_room_opens_on_first_use_under_the_tournaments_name():
    t = make_tournament(players=4, start=False, name="Autumn Open")
    room = client_of().get(f"/api/rooms/tournament-{t.pk}/").json()
    assert (room["title"], room["tournament"]) == ("Autumn Open", t.pk)
    names = [r["name"] for r in client_of().get("/api/rooms/").json()]
    assert names == ["main", f"tournament-{t.pk}"]


# --- chat ------------------------------------------------------------------------------------


def test_a_line_said_in_a_room_is_kept_and_published_to_the_room(commits):
    alice = UserFactory()
    with commits():
        response = client_of(alice).post("/api/rooms/main/chat", {"text": "  hello all \n"})
    assert response.status_code == 201
    line = response.json()
    assert line["text"] == "hello all" and line["room"] == "main"
    assert line["author"] == {"id": alice.pk, "username": alice.username}
    assert [e["text"] for e in events("room:main", "chat")] == ["hello all"]
    listed = client_of().get("/api/rooms/main/chat").json()
    assert [x["id"] for x in listed] == [line["id"]]


def test_reading_chat_pages_back_with_before():
    alice = UserFactory()
    room = services.room_open(name="main")
    ids = [services.chat_say_room(author=alice, room=room, text=f"line {i}").pk for i in range(5)]
    page = client_of().get(f"/api/rooms/main/chat?before={ids[3]}&limit=2").json()
    assert [x["id"] for x in page] == ids[1:3]
    assert client_of().get("/api/rooms/main/chat?limit=0").json()["code"] == "bad_page"


@pytest.mark.parametrize(
    ("text", "code"),
    [("   ", "chat_empty"), ("\u200b\u0007", "chat_empty"), ("x" * 301, "chat_too_long")],
)
def test_a_line_empty_or_too_long_is_refused(text, code):
    alice = UserFactory()
    room = services.room_open(name="main")
    with pytest.raises(Exception) as refused:
        services.chat_say_room(author=alice, room=room, text=text)
    assert refused.value.code == code


def test_the_api_refuses_a_line_too_long_with_a_400():
    response = client_of(UserFactory()).post("/api/rooms/main/chat", {"text": "x" * 301})
    assert response.status_code == 400


def test_saying_the_same_line_twice_in_a_row_is_refused():
    alice = client_of(UserFactory())
    assert alice.post("/api/rooms/main/chat", {"text": "buy gold"}).status_code == 201
    again = alice.post("/api/rooms/main/chat", {"text": "buy gold"})
    assert (again.status_code, again.json()["code"]) == (409, "chat_repeated")


def test_a_flood_of_lines_is_throttled(throttle_rates):
    throttle_rates(chat_burst="3/10s")
    alice = client_of(UserFactory())
    statuses = [
        alice.post("/api/rooms/main/chat", {"text": f"spam {i}"}).status_code for i in range(4)
    ]
    assert statuses == [201, 201, 201, 429]


def test_the_burst_rate_names_a_window_of_several_seconds():
    assert parse_rate("5/10s") == (5, 10)
    assert parse_rate("240/min") == (240, 60)


def test_saying_a_line_needs_an_account():
    assert client_of().post("/api/rooms/main/chat", {"text": "hi"}).status_code == 401


def test_the_computers_do_not_chat():
    bot = UserFactory(is_computer=True, bot_level=3)
    room = services.room_open(name="main")
    with pytest.raises(Exception) as refused:
        services.chat_say_room(author=bot, room=room, text="beep")
    assert refused.value.code == "computers_do_not_chat"


def rated_game():
    alice, bob = UserFactory(), UserFactory()
    return make_game(players=[alice, bob], rated=True), alice, bob


def test_a_spectators_line_in_a_rated_game_is_hidden_from_its_players_until_the_end(commits):
    game, alice, bob = rated_game()
    watcher = UserFactory()
    with commits():
        said = client_of(watcher).post(f"/api/games/{game.pk}/chat", {"text": "bob blunders"})
        client_of(alice).post(f"/api/games/{game.pk}/chat", {"text": "good luck"})
    assert said.json()["spectator"] and said.json()["hidden_from_players"]
    seen_by_bob = client_of(bob).get(f"/api/games/{game.pk}/chat").json()
    assert [x["text"] for x in seen_by_bob] == ["good luck"]
    seen_by_others = client_of().get(f"/api/games/{game.pk}/chat").json()
    assert [x["text"] for x in seen_by_others] == ["bob blunders", "good luck"]
    published = events(f"game:{game.pk}", "chat")
    assert [(e["text"], e["hidden_from_players"]) for e in published] == [
        ("bob blunders", True),
        ("good luck", False),
    ]
    game_resign(game_id=game.pk, user=bob)
    after = client_of(bob).get(f"/api/games/{game.pk}/chat").json()
    assert [x["text"] for x in after] == ["bob blunders", "good luck"]


def test_a_spectators_line_in_an_unrated_game_is_seen_by_its_players():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], rated=False)
    client_of(UserFactory()).post(f"/api/games/{game.pk}/chat", {"text": "nice shape"})
    seen = client_of(alice).get(f"/api/games/{game.pk}/chat").json()
    assert [(x["text"], x["hidden_from_players"]) for x in seen] == [("nice shape", False)]


# --- ignore, report, remove ------------------------------------------------------------------


def test_ignoring_someone_hides_their_lines_until_you_stop():
    alice, troll = UserFactory(), UserFactory()
    room = services.room_open(name="main")
    services.chat_say_room(author=troll, room=room, text="noise")
    me = client_of(alice)
    added = me.post("/api/me/ignores", {"username": troll.username.upper()})
    assert added.status_code == 201 and added.json()["username"] == troll.username
    assert me.post("/api/me/ignores", {"username": troll.username}).status_code == 201  # again
    assert [x["username"] for x in me.get("/api/me/ignores").json()] == [troll.username]
    assert me.get("/api/rooms/main/chat").json() == []
    assert me.delete(f"/api/me/ignores/{troll.username}").status_code == 204
    assert [x["text"] for x in me.get("/api/rooms/main/chat").json()] == ["noise"]
    gone = me.delete(f"/api/me/ignores/{troll.username}")
    assert (gone.status_code, gone.json()["code"]) == (404, "not_ignored")


@pytest.mark.parametrize(("name", "code"), [("self", "ignore_self"), ("nobody", "no_such_player")])
def test_ignoring_yourself_or_nobody_is_refused(name, code):
    alice = UserFactory()
    username = alice.username if name == "self" else "no-such-player"
    response = client_of(alice).post("/api/me/ignores", {"username": username})
    assert response.json()["code"] == code


def test_a_line_is_reported_once_per_reporter_and_not_by_its_author():
    alice, bob = UserFactory(), UserFactory()
    line = services.chat_say_room(author=alice, room=services.room_open(name="main"), text="x!")
    first = client_of(bob).post(f"/api/chat/{line.pk}/report", {"reason": "rude"})
    assert first.status_code == 201 and first.json()["line"] == line.pk
    again = client_of(bob).post(f"/api/chat/{line.pk}/report", {})
    assert (again.status_code, again.json()["code"]) == (409, "already_reported")
    own = client_of(alice).post(f"/api/chat/{line.pk}/report", {})
    assert own.json()["code"] == "report_self"
    assert Report.objects.filter(line=line).count() == 1


def test_the_staff_take_a_line_down_and_its_readers_are_told(commits):
    alice, reporter = UserFactory(), UserFactory()
    staff = UserFactory(is_staff=True)
    line = services.chat_say_room(author=alice, room=services.room_open(name="main"), text="x")
    services.report_create(reporter=reporter, line=line)
    refused = client_of(alice).delete(f"/api/chat/{line.pk}")
    assert (refused.status_code, refused.json()["code"]) == (403, "staff_only")
    with commits():
        assert client_of(staff).delete(f"/api/chat/{line.pk}").status_code == 204
    assert ChatLine.objects.get(pk=line.pk).removed
    assert not Report.objects.filter(handled=False).exists()
    assert client_of().get("/api/rooms/main/chat").json() == []
    assert events("room:main", "chat_removed") == [{"type": "chat_removed", "id": line.pk}]


# --- presence --------------------------------------------------------------------------------


def test_a_room_is_told_who_enters_and_leaves_once_per_person_not_per_stream(commits):
    alice = UserFactory()
    with commits():
        first = services.presence_enter(place="room:main", user=alice, spectator=False)
        second = services.presence_enter(place="room:main", user=alice, spectator=False)
        services.presence_leave(presence_id=first)
    assert [e["type"] for e in events("room:main")] == ["enter"]
    with commits():
        services.presence_leave(presence_id=second)
    assert [e["type"] for e in events("room:main")] == ["enter", "leave"]
    assert events("room:main")[1]["id"] == alice.pk


def test_who_is_online_lists_everyone_with_a_stream_once():
    alice, bob = UserFactory(), UserFactory()
    services.presence_enter(place=f"user:{alice.pk}", user=alice, spectator=False)
    services.presence_enter(place="room:main", user=alice, spectator=False)
    services.presence_enter(place="game:1", user=bob, spectator=True)
    names = [p["username"] for p in client_of().get("/api/online/").json()]
    assert names == sorted([alice.username, bob.username])


def test_a_game_counts_its_spectators_but_not_its_players(commits):
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    place = f"game:{game.pk}"
    watcher = UserFactory()
    with commits():
        services.presence_enter(place=place, user=alice, spectator=False)
        services.presence_enter(place=place, user=watcher, spectator=True)
        services.presence_enter(place=place, user=watcher, spectator=True)  # a second tab
        services.presence_enter(place=place, user=None, spectator=True)
        services.spectators_announce(game_ids=[game.pk])
    assert spectators_count(game_id=game.pk) == 2
    assert [e["count"] for e in events(place, "spectators")] == [2]
    body = client_of().get(f"/api/games/{game.pk}/spectators").json()
    assert body["count"] == 2 and [p["username"] for p in body["people"]] == [watcher.username]


def test_the_sweeper_removes_the_streams_of_a_dead_process_and_tells_the_room(commits, settings):
    alice, bob = UserFactory(), UserFactory()
    stale = services.presence_enter(place="room:main", user=alice, spectator=False)
    services.presence_enter(place="room:main", user=bob, spectator=False)
    old = timezone.now() - timedelta(seconds=4 * settings.LIVE_PRESENCE_SECONDS)
    Presence.objects.filter(pk=stale).update(seen_at=old)
    with commits():
        assert services.presence_sweep() == 1
    assert events("room:main", "leave") == [{"type": "leave", "id": alice.pk}]
    assert services.presence_refresh(presence_ids=[stale]) == 0  # gone for good


# --- what the main room, tournaments' rooms and users' channels are told ---------------------


def test_an_open_challenge_appears_in_the_main_room_and_goes_when_taken(commits):
    alice, bob = UserFactory(), UserFactory()
    with commits():
        made = challenges.challenge_create(
            creator=alice, variant="Pente", time_control=TimeControl.live(5, 0)
        )
    assert [e["id"] for e in events("room:main", "challenge_open")] == [made.pk]
    with commits():
        challenges.challenge_accept(challenge_id=made.pk, user=bob)
    assert [e["id"] for e in events("room:main", "challenge_gone")] == [made.pk]
    started = events("room:main", "game_started")
    assert len(started) == 1 and started[0]["players"] in (
        [alice.username, bob.username],
        [bob.username, alice.username],
    )


def test_game_started_names_the_challenge_it_was_made_from_for_every_game_of_a_set(commits):
    """A page waiting on a challenge goes to its game, and only that page (``home.js``)."""
    alice, bob = UserFactory(), UserFactory()
    with commits():
        made = challenges.challenge_create(creator=alice, variant="Pente", rated=True)
    with commits():
        challenges.challenge_accept(challenge_id=made.pk, user=bob)
    started = events(f"user:{alice.pk}", "game_started")
    assert len(started) == 2  # the rated set's two games
    assert {(e["challenge"], e["tournament"]) for e in started} == {(made.pk, None)}


def test_game_started_names_the_tournament_of_a_tournament_game(commits):
    with commits():
        t = make_tournament(players=2)
    started = [
        e for e in Event.objects.filter(kind="game_started") if e.channel.startswith("user:")
    ]
    assert started and {(e.data["challenge"], e.data["tournament"]) for e in started} == {
        (None, t.pk)
    }


def test_a_tournament_game_is_announced_to_its_players_with_the_round_link_and_start_window(
    commits,
):
    with commits():
        t = make_tournament(
            players=2,
            name="Autumn Cup",
            format="single_elimination",
            time_control="live",
            initial_minutes=5,
        )
    game = Game.objects.get(game_set__tournament_match_set__match__tournament=t)
    for seat in game.seat_rows.all():
        (started,) = events(f"user:{seat.user_id}", "game_started")
        brief = started["tournament_game"]
        start_by = parse_datetime(brief.pop("start_by"))
        assert brief == {
            "id": t.pk,
            "name": "Autumn Cup",
            "round": "round 1",
            "match": "W1-1",
            "url": f"/games/{game.pk}/",
        }
        assert abs(start_by - game.deadline) < timedelta(milliseconds=1)


def test_a_game_outside_tournaments_is_announced_without_tournament_details(commits):
    alice, bob = UserFactory(), UserFactory()
    with commits():
        made = challenges.challenge_create(creator=alice, variant="Pente", rated=False)
    with commits():
        challenges.challenge_accept(challenge_id=made.pk, user=bob)
    (started,) = events(f"user:{bob.pk}", "game_started")
    assert started["tournament_game"] is None


def test_a_seat_taken_or_given_back_in_an_invitation_updates_the_main_room(commits):
    """The pages that list open invitations redraw them on ``challenge_updated``: a player who
    leaves frees a seat as a player who joins fills one; those still seated are told."""
    alice, bob = UserFactory(), UserFactory()
    with commits():
        made = challenges.challenge_create(creator=alice, variant="Pente", seats=3)
    with commits():
        challenges.challenge_join(challenge_id=made.pk, user=bob)
    with commits():
        challenges.challenge_leave(challenge_id=made.pk, user=bob)
    assert [e["id"] for e in events("room:main", "challenge_updated")] == [made.pk, made.pk]
    assert events("room:main", "challenge_gone") == []
    assert [e["type"] for e in events(f"user:{alice.pk}")] == ["challenge_joined", "challenge_left"]


def test_a_direct_challenge_is_not_shown_in_the_main_room(commits):
    alice, bob = UserFactory(), UserFactory()
    with commits():
        challenges.challenge_create(creator=alice, invitee_username=bob.username, variant="Pente")
    assert events("room:main") == []
    assert [e["type"] for e in events(f"user:{bob.pk}")] == ["challenge_received"]


def test_the_main_room_sees_live_games_start_and_end_but_not_turn_based_ones(commits):
    alice, bob = UserFactory(), UserFactory()
    with commits():
        live = make_game(players=[alice, bob], time_control=TimeControl.live(5, 0))
        make_game(players=[alice, bob], time_control=TimeControl.turn(3))
        game_resign(game_id=live.pk, user=bob)
    assert [e["game"] for e in events("room:main", "game_started")] == [live.pk]
    ended = events("room:main", "game_ended")
    assert [(e["game"], e["end_reason"]) for e in ended] == [(live.pk, "resign")]


def test_a_paired_round_reaches_the_tournaments_room_and_each_players_stream(commits):
    with commits():
        t = make_tournament(players=4)
    started = events(f"room:tournament-{t.pk}", "match_started")
    assert len(started) == 2 and all(e["tournament"] == t.pk for e in started)
    player = started[0]["match"]["player1"]["id"]
    mine = events(f"user:{player}", "tournament_match")
    assert len(mine) == 1 and mine[0]["match"]["sets"][0]["games"]


def test_a_cancelled_tournament_tells_its_room_and_each_player(commits):
    t = make_tournament(players=3, start=False, name="Winter Open")
    with commits():
        tournaments.tournament_cancel(tournament_id=t.pk, user=t.organiser)
    told = events(f"room:tournament-{t.pk}", "tournament_cancelled")
    assert [(e["tournament"], e["name"], e["status"]) for e in told] == [
        (t.pk, "Winter Open", "cancelled")
    ]
    for entry in t.entries.all():
        assert len(events(f"user:{entry.user_id}", "tournament_cancelled")) == 1
    assert events(f"user:{t.organiser_id}", "tournament_cancelled") == []  # not a player


def test_a_rated_set_tells_both_players_their_new_ratings(commits):
    alice, bob = UserFactory(), UserFactory()
    with commits():
        rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    change = events(f"user:{alice.pk}", "rating_changed")
    assert len(change) == 1 and change[0]["after"] > change[0]["before"]
    assert events(f"user:{bob.pk}", "rating_changed")[0]["result"] == "loss"
