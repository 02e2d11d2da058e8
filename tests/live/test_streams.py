"""The event streams with real streaming clients against a real server: ``manage.py serve``
(the embedded default: SQLite, the database event log, uvicorn), and with PostgreSQL and Redis
two uvicorn processes side by side (a move posted to one reaches a stream served by the other).
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from django.db import connection

from tests.live.streams import SERVER_SETTINGS, Listener, account, auth, move, new_game
from tests.servers import start_embedded, stop_server, uvicorn_server


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    var_dir = tmp_path_factory.mktemp("var")
    proc, site = start_embedded(var_dir, **SERVER_SETTINGS)
    base = f"{site}/api"
    yield base
    stop_server(proc)


FIVE = [("A1", "K11"), ("B1", "K12"), ("C1", "K13"), ("D1", "K14")]  # bob, then alice: K10-K14


def play_to_five(base: str, game: int, alice: str, bob: str) -> None:
    ply = 1  # alice's centre stone is ply 1
    for bob_point, alice_point in FIVE:
        move(base, game, bob, ply, bob_point)
        move(base, game, alice, ply + 1, alice_point)
        ply += 2


def test_two_players_and_a_spectator_see_the_whole_game_in_order(embedded):
    alice, bob = account(embedded), account(embedded)
    game = new_game(embedded, alice, bob)
    url = f"{embedded}/games/{game}/events"
    listeners = [
        Listener(url, auth(alice[1])),
        Listener(url, auth(bob[1])),
        Listener(url),  # a spectator, not logged in
    ]
    deadline = time.monotonic() + 10  # the players are not counted
    while httpx.get(f"{embedded}/games/{game}/spectators").json()["count"] != 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    play_to_five(embedded, game, alice[1], bob[1])
    for listener in listeners:
        assert listener.done.wait(15), listener.kinds()
        events = listener.play()
        assert [e["type"] for e in events] == ["move"] * 8 + ["end"]
        plies = [e["data"]["moves"][0]["ply"] for e in events[:-1]]
        assert plies == list(range(2, 10))
        last = events[-2]["data"]["state"]
        assert last["board"]["last_name"] == "K14" and "server_time" in last
        end = events[-1]["data"]
        assert (end["status"], end["end_reason"], end["winner_seats"]) == (
            "finished",
            "five",
            [1],
        )
        ids = [e["id"] for e in events]
        assert ids == sorted(ids, key=int)
        assert ids == [e["id"] for e in listeners[0].play()]  # one event, one id for all readers


def test_a_client_that_reconnects_with_last_event_id_misses_nothing(embedded):
    alice, bob = account(embedded), account(embedded)
    game = new_game(embedded, alice, bob)
    url = f"{embedded}/games/{game}/events"
    first = Listener(url)
    move(embedded, game, bob[1], 1, "A1")
    move(embedded, game, alice[1], 2, "K11")
    first.wait_for(2, kinds=("move",))
    first.close()
    seen = first.play()[1]["id"]
    move(embedded, game, bob[1], 3, "B1")  # while it is away
    move(embedded, game, alice[1], 4, "K12")
    again = Listener(url, {"Last-Event-ID": seen})
    move(embedded, game, bob[1], 5, "C1")
    again.wait_for(3, kinds=("move",))
    again.close()
    moves = [e for e in again.events if e["type"] == "move"]
    assert [e["data"]["moves"][0]["ply"] for e in moves[:3]] == [4, 5, 6]
    also = Listener(f"{url}?last_event_id={seen}")  # for clients that cannot set headers
    also.wait_for(3, kinds=("move",))
    also.close()
    assert [e["id"] for e in also.events if e["type"] == "move"][:3] == [e["id"] for e in moves[:3]]


def test_a_last_event_id_never_given_out_gets_a_reset(embedded):
    alice, bob = account(embedded), account(embedded)
    game = new_game(embedded, alice, bob)
    listener = Listener(f"{embedded}/games/{game}/events", {"Last-Event-ID": "999999999"})
    listener.wait_for(1)
    listener.close()
    assert listener.events[0]["type"] == "reset" and listener.ids[0] == ""


def test_a_challenge_appears_on_the_invitees_stream_and_the_game_on_both(embedded):
    alice, bob = account(embedded), account(embedded)
    bobs = Listener(f"{embedded}/me/events", auth(bob[1]), until="challenge_accepted")
    alices = Listener(f"{embedded}/me/events", auth(alice[1]), until="challenge_accepted")
    game = new_game(embedded, alice, bob)
    for listener in (bobs, alices):
        assert listener.done.wait(15), listener.kinds()
        started = [e["data"] for e in listener.events if e["type"] == "game_started"]
        assert len(started) == 1, listener.kinds()
        assert started[0]["game"] == game and started[0]["variant"] == "Pente"
        assert started[0]["players"] == [alice[0], bob[0]]
    assert bobs.kinds()[0] == "challenge_received"
    assert bobs.events[0]["data"]["created_by"] == alice[0]
    assert "challenge_accepted" in alices.kinds()
    assert "your_turn" in bobs.kinds()  # alice's centre stone is on: bob to move


def test_idle_streams_get_heartbeats(embedded):
    alice, bob = account(embedded), account(embedded)
    game = new_game(embedded, alice, bob)
    listener = Listener(f"{embedded}/games/{game}/events")
    time.sleep(1.6)  # LIVE_HEARTBEAT_SECONDS is 0.5 on this server
    listener.close()
    assert listener.connections == 1
    assert listener.comments >= 2  # at least two heartbeats


def test_ndjson_streams_one_event_per_line(embedded):
    alice, bob = account(embedded), account(embedded)
    game = new_game(embedded, alice, bob)
    lines: list[dict] = []
    headers = {"Accept": "application/x-ndjson"}
    with httpx.stream("GET", f"{embedded}/games/{game}/events", headers=headers) as response:
        assert response.headers["content-type"].startswith("application/x-ndjson")
        for line in response.iter_lines():
            if line:
                lines.append(json.loads(line))
            if (
                lines
                and lines[-1] == {"type": "heartbeat", "detail": "connected"}
                and len(lines) == 1
            ):
                move(embedded, game, bob[1], 1, "A1")  # nothing is missed from now on
            if any(item.get("type") == "move" for item in lines):
                break
    assert lines[0] == {"type": "heartbeat", "detail": "connected"}
    assert lines[-1]["data"]["moves"][0]["name"] == "A1"


def test_one_stream_more_than_the_cap_is_refused(embedded):
    alice, bob = account(embedded), account(embedded)
    game = new_game(embedded, alice, bob)
    url = f"{embedded}/games/{game}/events"
    held = [Listener(url, auth(alice[1])) for _ in range(3)]  # LIVE_MAX_STREAMS is 3 here
    assert [h.status for h in held] == [200, 200, 200]
    response = httpx.get(url, headers=auth(alice[1]))
    assert response.status_code == 429 and response.json()["code"] == "too_many_streams"
    assert Listener(url, auth(bob[1])).status == 200  # the cap is per user
    for listener in held:
        listener.close()


@pytest.mark.parametrize(
    ("path", "headers", "status", "code"),
    [
        ("/me/events", {}, 401, "not_authenticated"),
        ("/me/events", {"Authorization": "Token nope"}, 401, "not_authenticated"),
        ("/games/999999/events", {}, 404, "not_found"),
        ("/games/1/events", {"Last-Event-ID": "not an id"}, 400, "bad_last_event_id"),
    ],
)
def test_a_stream_that_cannot_open_says_why(embedded, path, headers, status, code):
    alice, bob = account(embedded), account(embedded)
    new_game(embedded, alice, bob)
    response = httpx.get(embedded + path, headers=headers)
    assert response.status_code == status and response.json()["code"] == code


def say(base: str, token: str, path: str, text: str) -> dict:
    response = httpx.post(f"{base}{path}", json={"text": text}, headers=auth(token))
    assert response.status_code == 201, response.text
    return response.json()


def test_the_main_rooms_stream_shows_who_comes_says_and_goes(embedded):
    alice, carol = account(embedded), account(embedded)
    url = f"{embedded}/rooms/main/events"
    carols = Listener(url, auth(carol[1]), until="")
    alices = Listener(url, auth(alice[1]), until="")
    say(embedded, alice[1], "/rooms/main/chat", "hello room")
    alices.close()
    say(embedded, carol[1], "/rooms/main/chat", "bye")  # wakes alice's stream: it sees it ends

    def about_alice() -> list[str]:
        kinds = []
        for e in carols.events:
            data = e["data"]
            if data.get("username") == alice[0] or data.get("id") == alices_id:
                kinds.append(e["type"])
            elif e["type"] == "chat" and data["author"]["username"] == alice[0]:
                kinds.append(f"chat:{data['text']}")
        return kinds

    alices_id = httpx.get(f"{embedded}/me", headers=auth(alice[1])).json()["id"]
    deadline = time.monotonic() + 15
    while "leave" not in about_alice() and time.monotonic() < deadline:
        time.sleep(0.05)
    carols.close()
    assert about_alice() == ["enter", "chat:hello room", "leave"]


def test_a_readers_stream_leaves_out_the_people_they_ignore(embedded):
    bob, troll, carol = account(embedded), account(embedded), account(embedded)
    ignored = httpx.post(
        f"{embedded}/me/ignores", json={"username": troll[0]}, headers=auth(bob[1])
    )
    assert ignored.status_code == 201
    url = f"{embedded}/rooms/main/events"
    bobs = Listener(url, auth(bob[1]), until="")
    carols = Listener(url, auth(carol[1]), until="")
    say(embedded, troll[1], "/rooms/main/chat", "noise")
    say(embedded, carol[1], "/rooms/main/chat", "signal")

    def lines(listener: Listener) -> list[str]:
        names = (troll[0], carol[0])
        return [
            e["data"]["text"]
            for e in listener.events
            if e["type"] == "chat" and e["data"]["author"]["username"] in names
        ]

    deadline = time.monotonic() + 15
    while "signal" not in lines(bobs) and time.monotonic() < deadline:
        time.sleep(0.05)
    while "signal" not in lines(carols) and time.monotonic() < deadline:
        time.sleep(0.05)
    bobs.close()
    carols.close()
    assert lines(bobs) == ["signal"]
    assert lines(carols) == ["noise", "signal"]


def test_the_players_of_a_rated_game_do_not_see_the_spectators_lines_on_its_stream(embedded):
    alice, bob, watcher = account(embedded), account(embedded), account(embedded)
    game = new_game(embedded, alice, bob, rated=True, time_control="live", initial_minutes=10)
    url = f"{embedded}/games/{game}/events"
    players = Listener(url, auth(bob[1]), until="")
    spectators = Listener(url, auth(watcher[1]), until="")
    say(embedded, watcher[1], f"/games/{game}/chat", "bob is lost")
    say(embedded, alice[1], f"/games/{game}/chat", "good luck")

    def lines(listener: Listener) -> list[str]:
        return [e["data"]["text"] for e in listener.events if e["type"] == "chat"]

    deadline = time.monotonic() + 15
    for listener in (players, spectators):
        while "good luck" not in lines(listener) and time.monotonic() < deadline:
            time.sleep(0.05)
        listener.close()
    assert lines(players) == ["good luck"]
    assert lines(spectators) == ["bob is lost", "good luck"]


def flag_fall_delay(base: str, alice: tuple[str, str], bob: tuple[str, str]) -> float:
    """Seconds from the deadline of a live game nobody plays on after each player's first
    stone (5 s a player; before them no clock runs: the timer rule) to its ``end`` event
    reaching a stream."""
    timed = {"time_control": "live", "initial_minutes": 0, "increment_seconds": 5}
    game = new_game(base, alice, bob, **timed)
    listener = Listener(f"{base}/games/{game}/events")
    move(base, game, bob[1], 1, "K9")
    move(base, game, alice[1], 2, "L10")  # bob's clock runs now
    deadline = httpx.get(f"{base}/games/{game}/").json()["clock"]["deadline"]
    assert listener.done.wait(15), listener.kinds()
    arrived = time.time()
    end = listener.play()[-1]
    assert (end["type"], end["data"]["end_reason"], end["data"]["winner_seats"]) == (
        "end",
        "timeout",
        [1],
    )
    return arrived - datetime.fromisoformat(deadline.replace("Z", "+00:00")).timestamp()


def test_a_flag_fall_is_on_the_stream_within_a_second_of_the_deadline(embedded):
    delay = flag_fall_delay(embedded, account(embedded), account(embedded))
    assert 0 <= delay < 1.0


# --- PostgreSQL and Redis: two server processes -------------------------------------------


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_move_posted_to_one_process_reaches_a_stream_served_by_another(tmp_path):
    name = connection.settings_dict["NAME"]
    url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))
    env = os.environ | SERVER_SETTINGS | {"DATABASE_URL": url, "PENTE_VAR_DIR": str(tmp_path)}
    with (
        uvicorn_server(env, tmp_path / "one.log") as one,
        uvicorn_server(env, tmp_path / "two.log") as two,
    ):
        alice, bob = account(one), account(one)
        game = new_game(one, alice, bob)
        listener = Listener(f"{two}/games/{game}/events", auth(alice[1]))
        bobs = Listener(f"{two}/me/events", auth(bob[1]), until="challenge_received")
        play_to_five(one, game, alice[1], bob[1])
        assert listener.done.wait(15), listener.kinds()
        assert [e["type"] for e in listener.play()] == ["move"] * 8 + ["end"]
        ids = [e["id"] for e in listener.play()]
        assert all("-" in event_id for event_id in ids)  # Redis stream ids
        again = Listener(f"{two}/games/{game}/events", {"Last-Event-ID": ids[5]})
        again.wait_for(3, kinds=("move", "end"))
        assert [e["type"] for e in again.play()][:3] == ["move", "move", "end"]
        new_game(one, alice, bob)
        assert bobs.done.wait(15) and bobs.kinds()[-1] == "challenge_received"


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_a_celery_worker_a_flag_fall_reaches_the_stream_within_a_second(tmp_path, worker):
    name = connection.settings_dict["NAME"]
    url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))
    env = os.environ | SERVER_SETTINGS | {"DATABASE_URL": url, "PENTE_VAR_DIR": str(tmp_path)}
    with uvicorn_server(env, tmp_path / "one.log") as one:
        delay = flag_fall_delay(one, account(one), account(one))
    assert 0 <= delay < 1.0
