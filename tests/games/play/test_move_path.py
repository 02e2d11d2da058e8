"""The move path's cost does not grow with the game: a fixed, small number of queries per move
and per read of a game, the position kept between requests in the cache (and rebuilt when the
row changed or the cache is out), and only the changed columns of the game written."""

from __future__ import annotations

import json
import pickle

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from games.clocks.timecontrol import TimeControl
from games.engine import Game as EngineGame
from games.engine import point_name
from games.play import positions, selectors
from games.play.actions import move_play
from games.play.create import set_create
from games.play.models import Game
from live.models import Event
from tests.factories import ApiTokenFactory, UserFactory, make_game

pytestmark = pytest.mark.django_db

#: Moves up columns A, C, E, ...: the players alternate along each column, so it never holds two
#: stones of one colour side by side (no capture) and no line of five forms.
EDGE = [f"{col}{row}" for col in "ACEGNQ" for row in range(1, 20)]


def _sql(captured) -> list[str]:
    """The statements a request sent, without the savepoints of the test's transaction (in
    production the outermost ``atomic()`` is a BEGIN/COMMIT pair, not counted here either)."""
    return [
        q["sql"]
        for q in captured
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"))
    ]


class Table:
    """Two players with real tokens playing one game over HTTP, each move on the edges."""

    def __init__(self, game: Game, players) -> None:
        self.game = game
        self.keys = {}
        for seat, user in enumerate(players, start=1):
            key = f"movepath{seat}{user.pk:06d}".ljust(40, "x")
            ApiTokenFactory(user=user, key=key)
            self.keys[seat] = key
        self.client = APIClient()
        self.next = 0

    def move(self):
        body = self.client.get(f"/api/games/{self.game.pk}/").json()
        seat, ply = body["to_move"]["seat"], body["ply"]
        # the token's first use of the minute writes its last_used_at: not part of the move
        self.client.get("/api/me", HTTP_AUTHORIZATION=f"Token {self.keys[seat]}")
        taken = {s["name"] for s in body["board"]["stones"]}
        while EDGE[self.next] in taken:
            self.next += 1
        point = EDGE[self.next]
        self.next += 1
        with CaptureQueriesContext(connection) as captured:
            response = self.client.post(
                f"/api/games/{self.game.pk}/moves",
                {"ply": ply, "point": point},
                format="json",
                HTTP_AUTHORIZATION=f"Token {self.keys[seat]}",
            )
        assert response.status_code == 200, response.json()
        return _sql(captured.captured_queries), response.json()


def _table(**options) -> Table:
    players = [UserFactory(), UserFactory()]
    return Table(make_game(players=players, **options), players)


def _rated_set_table() -> Table:
    players = [UserFactory(), UserFactory()]
    game_set = set_create(player1=players[0], player2=players[1], variant="Pente", rated=True)
    return Table(game_set.games.get(set_index=1), players)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: _table(), id="untimed"),
        pytest.param(
            lambda: _table(time_control=TimeControl.live(initial_minutes=10, increment_seconds=5)),
            id="live",
        ),
        pytest.param(lambda: _table(time_control=TimeControl.turn(days_per_move=3)), id="turn"),
        pytest.param(_rated_set_table, id="rated-set"),
    ],
)
def test_a_move_costs_at_most_five_queries_and_the_same_at_ply_5_and_ply_40(make):
    table = make()
    counts = []
    for _ in range(40):
        sql, _body = table.move()
        counts.append(len(sql))
    assert max(counts) <= 5, counts
    assert counts[3] == counts[-1], counts


def test_a_move_reads_no_moves_and_writes_only_the_changed_columns():
    table = _table(time_control=TimeControl.live(initial_minutes=10, increment_seconds=5))
    for _ in range(6):
        table.move()
    sql, _body = table.move()
    assert not any('FROM "games_move"' in q for q in sql), sql
    (update,) = [q for q in sql if 'UPDATE "games_game"' in q]
    assigned = update.split('UPDATE "games_game" SET ', 1)[1].split(" WHERE ", 1)[0]
    for column in ('"ply"', '"clocks_ms"', '"turn_started_at"', '"deadline"', '"updated_at"'):
        assert column in assigned
    for column in ('"variant"', '"headers"', '"status"', '"rated"'):
        assert column not in assigned


def test_reading_a_game_costs_one_query_however_long_it_is():
    """The row; its seats, moves and position come from the cache, which holds them for that
    row (the token of a signed-in reader is one query more)."""
    table = _table()
    counts = []
    for _ in range(30):
        table.move()
        with CaptureQueriesContext(connection) as captured:
            assert table.client.get(f"/api/games/{table.game.pk}/").status_code == 200
        counts.append(len(_sql(captured.captured_queries)))
    assert set(counts) == {1}, counts


def test_a_read_from_the_cache_is_the_read_from_the_database():
    table = _table()
    for _ in range(6):
        table.move()
    url = f"/api/games/{table.game.pk}/"
    auth = {"HTTP_AUTHORIZATION": f"Token {table.keys[1]}"}
    warm = [table.client.get(url).json(), table.client.get(url, **auth).json()]
    cache.clear()
    cold = [table.client.get(url).json(), table.client.get(url, **auth).json()]
    for state in warm + cold:
        state.pop("clock")
    assert warm == cold
    assert (
        warm[0]["players"][0]["user"]["username"] == table.game.seat_rows.get(seat=1).user.username
    )


def test_a_read_after_the_cache_is_emptied_rebuilds_the_same_state():
    table = _table()
    for _ in range(8):
        table.move()
    before = table.client.get(f"/api/games/{table.game.pk}/").json()
    cache.clear()
    again = table.client.get(f"/api/games/{table.game.pk}/").json()
    before.pop("clock"), again.pop("clock")
    assert again == before


def test_a_cached_position_is_not_used_once_the_row_has_changed():
    """Undo then a different move leaves the game at the ply it had: the cache entry of the
    position before the undo must not be taken for the new one."""
    table = _table()
    for _ in range(4):
        table.move()
    game = Game.objects.get(pk=table.game.pk)
    seat_of_last = 1 if game.ply % 2 == 1 else 2  # seat 1 played the centre stone, ply 1
    asker, other = table.keys[seat_of_last], table.keys[3 - seat_of_last]
    c = table.client
    url = f"/api/games/{game.pk}/undo"
    assert c.post(url, HTTP_AUTHORIZATION=f"Token {asker}").status_code == 200
    undone = c.post(url, HTTP_AUTHORIZATION=f"Token {other}").json()
    assert undone["ply"] == game.ply - 1
    replay = c.post(
        f"/api/games/{game.pk}/moves",
        {"ply": undone["ply"], "point": "K12"},
        format="json",
        HTTP_AUTHORIZATION=f"Token {asker}",
    ).json()
    assert replay["ply"] == game.ply and replay["board"]["last_name"] == "K12"
    fresh = c.get(f"/api/games/{game.pk}/").json()
    assert fresh["board"] == replay["board"]
    assert [m["point"] for m in fresh["moves"]] == [m["point"] for m in replay["moves"]]


def test_a_row_written_elsewhere_makes_the_cached_entry_stale():
    table = _table()
    for _ in range(3):
        table.move()
    game = Game.objects.get(pk=table.game.pk)
    before = positions.played_of(game)
    game.moves.filter(ply=game.ply).delete()  # a write the cache did not see ...
    game.ply -= 1
    game.save()  # ... but which changed the row, as every change of the moves does
    again = positions.played_of(Game.objects.get(pk=game.pk))
    assert again.count == before.count - 1 and again.position.plies == again.count


def test_a_row_read_before_a_move_committed_gets_the_moves_of_its_own_ply():
    """A read without the lock may see the game row, then another request commits a move, then
    the read selects the moves: it must show (and cache) the position of the row it read, not
    the newer moves under the older stamp."""
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players)
    stale_row = Game.objects.get(pk=game.pk)  # ply 1
    move_play(game_id=game.pk, user=players[1], ply=1, points=[0])  # commits ply 2
    cache.clear()
    played = positions.played_of(stale_row)
    assert played.count == 1 and played.position.board[0] == 0
    fresh = positions.played_of(Game.objects.get(pk=game.pk))
    assert fresh.count == 2 and fresh.position.board[0] == 2


def test_a_move_appends_its_own_move_to_the_cached_moves_instead_of_writing_them_all(
    monkeypatch,
):
    table = _table()
    for _ in range(4):
        table.move()
    writes = []
    real = positions.set_with_text

    def spy(key, value, **kwargs):
        writes.append(kwargs)
        return real(key, value, **kwargs)

    monkeypatch.setattr(positions, "set_with_text", spy)
    _sql, body = table.move()
    [write] = writes
    assert write["base_tag"] is not None
    assert f"[{write['text'][1:]}]" == json.dumps([body["moves"][-1]], separators=(",", ":"))
    row = Game.objects.get(pk=table.game.pk)
    assert positions.played_of(row).moves(show_messages=True) == body["moves"]


def test_a_late_append_on_a_version_the_cache_no_longer_holds_is_dropped(monkeypatch):
    """A move's cache write arrives after a reader rebuilt the same game from the database: the
    append, made for the version the move was played from, must not add the move a second time
    to moves that already hold it."""
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players)
    move_play(game_id=game.pk, user=players[1], ply=1, points=[0])
    move_play(game_id=game.pk, user=players[0], ply=2, points=[1])
    late = []
    real = positions.set_with_text
    monkeypatch.setattr(positions, "set_with_text", lambda *a, **k: late.append((a, k)) or False)
    move_play(game_id=game.pk, user=players[1], ply=3, points=[2])
    monkeypatch.setattr(positions, "set_with_text", real)
    [(args, kwargs)] = late
    assert kwargs["base_tag"] is not None  # an append
    row = Game.objects.get(pk=game.pk)
    rebuilt = positions.played_of(row).moves(show_messages=True)  # a reader caches ply 4
    real(*args, **kwargs)  # the move's own write, late
    assert positions.played_of(Game.objects.get(pk=game.pk)).moves(show_messages=True) == rebuilt
    assert len(rebuilt) == 4


def test_moves_are_played_when_the_cache_is_out(monkeypatch):
    table = _table()
    table.move()

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(positions, "get_with_text", broken)
    monkeypatch.setattr(positions, "set_with_text", broken)
    for _ in range(3):
        _sql, body = table.move()
    assert body["ply"] == 5


def test_a_move_on_a_stale_instance_of_the_position_changes_nothing_cached():
    """The engine position a service acts on is its own copy: a refused move leaves the cached
    position as it was."""
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players)
    move_play(game_id=game.pk, user=players[1], ply=1, points=[0])
    row = Game.objects.get(pk=game.pk)
    position = positions.played_of(row).position
    position.play(20)
    again = positions.played_of(row).position
    assert again.board[20] == 0 and again.plies == position.plies - 1


def test_the_moves_json_is_the_renderers_for_every_move_and_viewer():
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players)
    move_play(game_id=game.pk, user=players[1], ply=1, points=[0], message="gl \u2028 hf ☺")
    move_play(game_id=game.pk, user=players[0], ply=2, points=[1])
    # A message that looks like the JSON of a shown message, quotes and backslashes included.
    tricky = 'a\\"b" "message":"x","message_visible":true \\'
    move_play(game_id=game.pk, user=players[1], ply=3, points=[2], message=tricky)
    row = Game.objects.get(pk=game.pk)
    played = positions.played_of(row)
    for show in (True, False):
        expected = [
            {
                "ply": m.ply,
                "seat": m.seat,
                "kind": m.kind,
                "point": m.point,
                "name": point_name(m.point),
                "choice": m.choice,
                "message": m.message if show else None,
                "message_visible": show,
                "created_at": m.created_at,  # a datetime: the renderer writes it
            }
            for m in row.moves.order_by("ply")
        ]
        assert played.moves_json(show_messages=show).encode() == JSONRenderer().render(expected)


def test_an_engine_position_pickles_small_and_plays_on_identically():
    g = EngineGame.replay("Keryo-Pente", ["L10", "A1", "M10", "A2", "N10"], rated=True)
    data = pickle.dumps(g)
    h = pickle.loads(data)
    assert len(data) < 2_000  # the shared geometry tables are not in it
    assert (h.board, h.captures, h.to_move_seat, h.plies) == (
        g.board,
        g.captures,
        g.to_move_seat,
        g.plies,
    )
    g.play("O10")
    h.play("O10")
    assert (h.board, h.outcome) == (g.board, g.outcome)
    h.pop()
    g.pop()
    assert h.board == g.board


def test_the_state_is_written_as_the_renderer_writes_it():
    """The answer and the game's event share one writing of the state (``api_json``): the same
    bytes as the API's renderer, times, Unicode and the line separators included."""
    players = [UserFactory(), UserFactory()]
    game = make_game(
        players=players,
        time_control=TimeControl.live(initial_minutes=5, increment_seconds=2),
    )
    Game.objects.filter(pk=game.pk).update(headers={"Event": "Été \u2028 \u2029 ☺", "Round": "1"})
    move_play(game_id=game.pk, user=players[1], ply=1, points=[0])
    row = Game.objects.get(pk=game.pk)
    shown = positions.Snapshot(row)
    head, _moves = selectors.game_state_head_and_moves_json(snapshot=shown, viewer=players[0])
    state = selectors.game_state(game=row, viewer=players[0], snapshot=shown)  # the same build
    del state["moves"]
    assert head + b"}" == JSONRenderer().render(state)
    assert b"\\u2028" in head and "Été".encode() in head


@pytest.mark.parametrize("locked", [False, True], ids=["from-cache", "locked"])
def test_the_answer_and_the_live_event_of_a_move_share_one_build_of_the_state(
    monkeypatch, settings, locked
):
    """The move's service returns the game as it left it (``Snapshot``); the live event, sent
    after the commit, and the answer are both written from it: the state is built once, and
    they carry the same bytes."""
    settings.REDIS_URL = ""  # the live events in the database log, where the test reads them
    table = _table(time_control=TimeControl.live(initial_minutes=10, increment_seconds=5))
    for _ in range(3):
        table.move()
    if locked:
        cache.clear()  # nothing cached: the turn is read from the database, row locked
    builds = []
    real = selectors._build_state

    def counted(**kwargs):
        builds.append(kwargs["game"].ply)
        return real(**kwargs)

    monkeypatch.setattr(selectors, "_build_state", counted)
    with TestCase.captureOnCommitCallbacks(execute=True):
        _sql, body = table.move()
    assert builds.count(body["ply"]) == 1, builds  # (the read before the move built its own)
    event = Event.objects.filter(channel=f"game:{table.game.pk}").last()
    assert event.kind == "move" and event.data["state"]["ply"] == body["ply"]
    event.data["state"].pop("server_time")
    assert event.data["state"] == {k: v for k, v in body.items() if k != "moves"}
