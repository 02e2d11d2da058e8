"""The move pipeline's one write, the claim: a plain turn is played from the cached row and
position and claimed with a conditional write, so that a move is the token's query and one
statement (PostgreSQL). Whenever the cached row is not the row any more, the claim writes
nothing and the turn is played again from the database, locked, which gives the answer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.clocks.timecontrol import TimeControl
from games.play import actions, positions
from games.play.actions import move_play
from games.play.claim import claim_turn, row_values
from games.play.models import Game, Move
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


def _statements(captured) -> list[str]:
    return [
        q["sql"]
        for q in captured.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"))
    ]


def _started(**options) -> tuple[Game, list]:
    """A game at ply 2 (centre stone, then seat 2's move), its row and position cached."""
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players, **options)
    move_play(game_id=game.pk, user=players[1], ply=1, points=["A1"])
    return game, players


def _locked_reads(monkeypatch) -> list[int]:
    """The games the pipeline read again from the database, locked (the cache was not enough)."""
    reads: list[int] = []
    real = actions.lock_game

    def spy(game_id):
        reads.append(int(game_id))
        return real(game_id)

    monkeypatch.setattr(actions, "lock_game", spy)
    return reads


def test_a_plain_move_is_played_from_the_cache_without_the_lock(monkeypatch):
    game, players = _started(time_control=TimeControl.live(initial_minutes=5, increment_seconds=2))
    reads = _locked_reads(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        after = move_play(game_id=game.pk, user=players[0], ply=2, points=["A3"]).game
    sql = _statements(captured)
    assert reads == []
    assert not any("FOR UPDATE" in q or 'FROM "games_game"' in q for q in sql), sql
    assert all('"games_game"' in q or '"games_move"' in q for q in sql), sql
    stored = Game.objects.get(pk=game.pk)
    assert stored.ply == 3 and stored.updated_at == after.updated_at
    assert stored.clocks_ms == after.clocks_ms and stored.deadline == after.deadline
    assert list(Move.objects.filter(game=game).values_list("ply", "seat", "point")) == [
        (1, 1, 180),
        (2, 2, 342),
        (3, 1, 304),
    ]


@pytest.mark.postgres
def test_on_postgresql_the_write_is_one_statement(monkeypatch):
    game, players = _started()
    with CaptureQueriesContext(connection) as captured:
        move_play(game_id=game.pk, user=players[0], ply=2, points=["A3"])
    (statement,) = _statements(captured)
    assert statement.startswith('WITH g AS (UPDATE "games_game"')
    assert 'INSERT INTO "games_move"' in statement


def test_the_state_after_an_unlocked_move_is_the_state_read_afresh():
    game, players = _started(time_control=TimeControl.live(initial_minutes=5, increment_seconds=2))
    client = APIClient()
    client.force_authenticate(players[0])
    played = client.post(f"/api/games/{game.pk}/moves", {"ply": 2, "point": "A3"}).json()
    cache.clear()
    fresh = client.get(f"/api/games/{game.pk}/").json()
    played.pop("clock"), fresh.pop("clock")
    assert played == fresh


@pytest.mark.parametrize(
    "change",
    [
        # the clock's correction of a guessed deadline: the one write that keeps updated_at
        pytest.param({"deadline": "soon"}, id="deadline-only"),
        pytest.param({"updated_at": "now"}, id="any-save"),
    ],
)
def test_a_row_changed_since_it_was_cached_is_played_under_the_lock(monkeypatch, change):
    game, players = _started(time_control=TimeControl.live(initial_minutes=5, increment_seconds=2))
    now = timezone.now()
    values = {
        key: (now + timedelta(seconds=90) if value == "soon" else now)
        for key, value in change.items()
    }
    Game.objects.filter(pk=game.pk).update(**values)  # the cache does not see it
    reads = _locked_reads(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        after = move_play(game_id=game.pk, user=players[0], ply=2, points=["A3"]).game
    assert reads == [game.pk]  # the claim refused the cached row ...
    # ... and the row was read again, locked (FOR UPDATE where the database has it)
    assert any('FROM "games_seat"' in q for q in _statements(captured))
    assert after.ply == 3
    assert Move.objects.filter(game=game).count() == 3


def test_a_move_on_a_cached_row_older_than_the_game_is_a_stale_ply(monkeypatch):
    """Another ply was written without the cache seeing it: the cached row (at ply 2) must not
    accept a move for ply 2 over it."""
    game, players = _started()
    row = Game.objects.get(pk=game.pk)
    Move.objects.create(game=row, ply=3, seat=1, point=304)
    row.ply = 3
    row.save()  # the cache still holds ply 2
    reads = _locked_reads(monkeypatch)
    client = APIClient()
    client.force_authenticate(players[0])
    response = client.post(f"/api/games/{game.pk}/moves", {"ply": 2, "point": "A5"})
    assert response.status_code == 409 and response.json()["code"] == "stale_ply"
    assert reads == [game.pk]
    assert Move.objects.filter(game=game).count() == 3


def test_a_refused_move_is_answered_by_the_locked_path(monkeypatch):
    game, players = _started()
    reads = _locked_reads(monkeypatch)
    client = APIClient()
    client.force_authenticate(players[0])
    response = client.post(f"/api/games/{game.pk}/moves", {"ply": 2, "point": "A1"})
    assert response.status_code == 400 and response.json()["code"] == "occupied"
    assert reads == [game.pk]


def test_a_turn_based_game_is_played_under_the_lock(monkeypatch):
    game, players = _started(time_control=TimeControl.turn(days_per_move=3))
    reads = _locked_reads(monkeypatch)
    move_play(game_id=game.pk, user=players[0], ply=2, points=["A3"])
    assert reads == [game.pk]


def test_a_move_that_ends_the_game_is_played_under_the_lock(monkeypatch):
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players)
    # seat 1 builds K10..N10 while seat 2 plays far away; O10 is then five in a row
    moves = ["A1", "L10", "A3", "M10", "A5", "N10", "A7"]
    ply = 1
    for point in moves:
        move_play(game_id=game.pk, user=players[ply % 2], ply=ply, points=[point])
        ply += 1
    reads = _locked_reads(monkeypatch)
    after = move_play(game_id=game.pk, user=players[0], ply=ply, points=["O10"]).game
    assert reads == [game.pk]
    assert after.status == Game.Status.FINISHED and after.winner_seats == [1]


def test_a_claim_writes_nothing_when_the_row_has_moved_on():
    game, players = _started()
    mine = Game.objects.get(pk=game.pk)
    as_read = row_values(mine)
    theirs = Game.objects.get(pk=game.pk)
    theirs.status, theirs.end_reason = Game.Status.FINISHED, "resign"
    theirs.finished_at = timezone.now()
    theirs.save()
    mine.ply += 1
    moves = [Move(ply=3, seat=1, point=304)]
    assert not claim_turn(game=mine, as_read=as_read, seat=1, user_id=players[0].pk, moves=moves)
    assert Move.objects.filter(game=game).count() == 2
    assert Game.objects.get(pk=game.pk).ply == 2


def test_the_cached_row_is_the_row_as_saved():
    game, players = _started()
    cached = positions.cached_game(game.pk)
    assert cached is not None
    row, played = cached
    stored = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(row, field.attname) == getattr(stored, field.attname), field.name
    assert [(s.seat, s.user_id, s.user.username) for s in row.loaded_seats()] == [
        (1, players[0].pk, players[0].username),
        (2, players[1].pk, players[1].username),
    ]
    assert played.count == 2 and played.position.plies == 2


def test_the_cached_seats_keep_each_users_computer_level():
    human, computer = UserFactory(), UserFactory(is_computer=True, bot_level=3)
    game = make_game(players=[human, computer])
    row = Game.objects.prefetch_related("seat_rows__user").get(pk=game.pk)
    positions.played_of(row)
    row, _played = positions.cached_game(game.pk)
    assert [
        (s.user.username, s.user.is_computer, s.user.bot_level) for s in row.loaded_seats()
    ] == [
        (human.username, False, None),
        (computer.username, True, 3),
    ]


def test_a_claim_writes_nothing_for_a_seat_the_user_does_not_hold():
    """The seats the cache keeps decide nothing: the claim asks the database whose seat it is."""
    game, players = _started()
    row = Game.objects.get(pk=game.pk)
    as_read = row_values(row)
    row.ply += 1
    moves = [Move(ply=3, seat=1, point=304)]
    assert not claim_turn(game=row, as_read=as_read, seat=1, user_id=players[1].pk, moves=moves)
    assert claim_turn(game=row, as_read=as_read, seat=1, user_id=players[0].pk, moves=moves)
    assert Game.objects.get(pk=game.pk).ply == 3


def test_a_cache_that_seats_someone_else_does_not_let_them_play(monkeypatch):
    """A cache entry whose seats were wrong (or forged) loses a turn to the database, never a
    decision: the stranger's move is refused as today."""
    game, players = _started()
    stranger = UserFactory()
    cached = positions.cached_game(game.pk)
    assert cached is not None
    row, played = cached
    for seat in row.loaded_seats():
        if seat.seat == 1:
            seat.user, seat.user_id = stranger, stranger.pk
    monkeypatch.setattr(actions, "cached_game", lambda game_id: (row, played))
    reads = _locked_reads(monkeypatch)
    client = APIClient()
    client.force_authenticate(stranger)
    response = client.post(f"/api/games/{game.pk}/moves", {"ply": 2, "point": "A3"})
    assert response.status_code == 403 and response.json()["code"] == "not_a_participant"
    assert reads == [game.pk]
    assert Move.objects.filter(game=game).count() == 2


def test_a_move_played_with_the_cache_emptied_is_played_from_the_database(monkeypatch):
    game, players = _started()
    cache.clear()
    reads = _locked_reads(monkeypatch)
    after = move_play(game_id=game.pk, user=players[0], ply=2, points=["A3"]).game
    assert reads == [game.pk] and after.ply == 3
    assert positions.cached_game(game.pk) is not None  # the next turn is claimed from it


def test_a_cached_clock_the_database_does_not_hold_is_not_written_over(monkeypatch):
    """A column the turn writes is claimed at its value as read: a cached row whose clocks are
    not the database's (whatever its ``updated_at`` says) is played again from the database."""
    game, players = _started(time_control=TimeControl.live(initial_minutes=5, increment_seconds=2))
    Game.objects.filter(pk=game.pk).update(clocks_ms=[1_000, 299_000])  # unseen by the cache
    reads = _locked_reads(monkeypatch)
    after = move_play(game_id=game.pk, user=players[0], ply=2, points=["A3"]).game
    assert reads == [game.pk]
    assert after.clocks_ms[1] == 299_000
