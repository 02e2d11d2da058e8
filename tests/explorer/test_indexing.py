"""How games get into the index: a game finished here (on commit, by a task), an imported
record (in the import's own transaction), the sweeper for any game missed, and the rebuild."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import TestCase

from accounts.guests import guest_create
from explorer import indexing, tasks
from explorer.models import PositionRow
from games.clocks.timecontrol import TimeControl
from games.engine import Outcome, Termination
from games.play.actions import game_decide, game_mark_dead, game_resign, move_play
from games.play.finish import game_finish
from games.play.models import Game
from games.records import imports
from games.records.imports import games_import
from ratings.models import Rating
from tests.explorer.support import explore, record, store
from tests.factories import UserFactory, make_game
from tests.tournaments.support import finish_match_games, make_tournament
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def played(moves: list[str], *, resign_seat: int = 2) -> Game:
    """A game played here by two new players (named p1-..., p2-...), then resigned."""
    one, two = UserFactory(), UserFactory()
    game = make_game(players=[one, two])
    users = {1: one, 2: two}
    for ply, point in enumerate(moves, start=1):
        move_play(game_id=game.pk, user=users[1 + ply % 2], ply=ply, points=[point])
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_resign(game_id=game.pk, user=users[resign_seat])
    game.refresh_from_db()
    return game


def test_a_game_finished_here_is_indexed_when_it_commits():
    game = played(["L11", "N13"])
    assert game.positions_indexed
    # Positions before L11, N13 and the resignation's position: three rows.
    assert PositionRow.objects.filter(game=game).count() == 3
    body = explore(game="Pente", moves="K10 L11")
    assert body["games"] == 1 and body["wins"] == [1, 0]
    assert [g["id"] for g in body["game_list"]["results"]] == [game.pk]
    assert explore(game="Pente", moves="K10", imported="false")["games"] == 1


def test_games_finished_together_are_indexed_by_jobs_of_a_batch_each(monkeypatch):
    """The timeout sweeper may finish thousands of games in one transaction: one job per
    ``BATCH_SIZE`` of them, in the order they finished."""
    jobs = []
    monkeypatch.setattr(indexing, "enqueue", lambda name, *, args: jobs.append(args[0]))
    finished = list(range(1, 2 * indexing.BATCH_SIZE + 2))
    indexing._enqueue_index(finished)
    assert [len(ids) for ids in jobs] == [indexing.BATCH_SIZE, indexing.BATCH_SIZE, 1]
    assert [i for ids in jobs for i in ids] == finished


def test_the_players_ratings_of_a_game_played_here_are_counted():
    one, two = UserFactory(), UserFactory()
    Rating.objects.create(user=two, variant="Pente", category="normal", rating=1720.4)
    game = make_game(players=[one, two], time_control=TimeControl.live(10, 0))
    with TestCase.captureOnCommitCallbacks(execute=True):
        move_play(game_id=game.pk, user=two, ply=1, points=["L11"])
        game_resign(game_id=game.pk, user=one)
    (move,) = explore(game="Pente", moves="K10")["moves"]
    assert move["average_rating"] == 1720.0


def test_a_draw_counts_as_a_draw():
    game = make_game()
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_finish(game=game, outcome=Outcome(Termination.DRAW, ()))
    body = explore(game="Pente", moves="K10")
    assert (body["games"], body["wins"], body["draws"]) == (1, [0, 0], 1)


def test_a_guests_game_is_in_no_statistics():
    guest = guest_create()
    game = make_game(players=[guest, UserFactory()])
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_resign(game_id=game.pk, user=guest)
    game.refresh_from_db()
    assert game.positions_indexed
    assert not PositionRow.objects.filter(game=game).exists()
    assert explore(game="Pente", moves="K10")["games"] == 0


def test_a_game_in_progress_or_cancelled_is_not_in_the_index():
    make_game()
    assert indexing.index_sweep() == 0
    assert explore(game="Pente", moves="K10")["games"] == 0


def test_the_tournament_filter_counts_that_tournaments_games():
    t = make_tournament(players=2, name="Winter Open")
    match = Match.objects.get(tournament=t)
    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_match_games(match, "player1")
    other = played(["L11"])
    assert explore(game="Pente", moves="K10")["games"] == 2
    assert explore(game="Pente", moves="K10", tournament=t.pk)["games"] == 1
    assert explore(game="Pente", moves="K10", event="winter open")["games"] == 1
    body = explore(game="Pente", moves="K10", tournament=t.pk + 1000)
    assert body["games"] == 0 and other.pk
    assert explore(game="Pente", moves="K10", event="Summer Open")["games"] == 0


def test_the_sweeper_indexes_the_games_missed_and_a_second_run_changes_nothing():
    game = played(["L11", "N13"])
    PositionRow.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(positions_indexed=False)
    assert tasks.sweep() == 1
    rows = PositionRow.objects.filter(game=game).count()
    assert rows == 3
    assert tasks.sweep() == 0
    assert tasks.index_games([game.pk]) == 0  # a duplicate task: already indexed
    assert PositionRow.objects.filter(game=game).count() == rows


def test_the_rebuild_command_indexes_every_game_again(capsys):
    store(record("K10 L11 N13 Resign 1-0"))
    game = played(["L11"])
    before = sorted(PositionRow.objects.values_list("key", "game_id", "ply", "next_point"))
    PositionRow.objects.filter(game=game).delete()  # damaged
    call_command("explorer_rebuild", "--no-progress", "--jobs", "1")
    after = sorted(PositionRow.objects.values_list("key", "game_id", "ply", "next_point"))
    assert after == before
    assert "2 games indexed" in capsys.readouterr().out


def test_an_imported_record_and_its_positions_are_stored_together_or_not_at_all(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the index could not be written")

    monkeypatch.setattr(indexing, "copy_rows", broken)
    with pytest.raises(RuntimeError):
        games_import(text=record("K10 L11 N13 Resign 1-0"))
    assert Game.objects.count() == 0
    assert PositionRow.objects.count() == 0


def test_an_imported_record_is_indexed_in_its_import():
    (game_id,) = store(record("K10 L11 N13 Resign 1-0"))
    assert Game.objects.get(pk=game_id).positions_indexed
    # Before L11, before N13, and the last position.
    assert PositionRow.objects.filter(game_id=game_id).count() == 3


def test_the_same_record_is_not_imported_twice_however_it_is_spaced():
    text = record("1. K10 L11 2. N13 Resign 1-0")
    (first,) = store(text)
    again = games_import(text=text.replace("1. K10 L11 2. N13", "1.  K10\nL11 2.N13"))
    assert again.game_ids == []
    ((number, code, detail),) = [(r.record, r.code, r.detail) for r in again.refusals]
    assert (number, code) == (1, imports.DUPLICATE)
    assert detail.startswith(f"Game {first} is this game already")
    assert explore(game="Pente", moves="K10")["games"] == 1


def test_a_record_twice_in_one_text_is_imported_once():
    text = record("K10 L11 N13 Resign 1-0")
    report = games_import(text=f"{text}\n{text}")
    assert len(report.game_ids) == 1
    assert [r.code for r in report.refusals] == [imports.DUPLICATE]


def _go_game_marked_rejected_and_counted() -> Game:
    """Go 9x9 played here: walls on columns D and F, a white stone at B5 that cannot live, two
    passes, B5 marked and the marking rejected, two more passes (the stones as they were
    before: the game reaches those positions again), B5 marked again and accepted."""
    black, white = UserFactory(), UserFactory()
    game = make_game(players=[black, white], variant="Go (9x9)")
    seats = {1: black, 2: white}
    walls = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]

    def act(seat: int, action, **kwargs) -> None:
        game.refresh_from_db()
        action(game_id=game.pk, user=seats[seat], ply=game.ply, **kwargs)

    for i, point in enumerate([*walls, "PASS", "B5", "PASS", "PASS"]):
        act(1 + i % 2, move_play, points=[point])
    act(1, game_mark_dead, points=["B5"])
    act(2, game_decide, choice="reject")
    act(1, move_play, points=["PASS"])
    act(2, move_play, points=["PASS"])
    act(1, game_mark_dead, points=["B5"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        act(2, game_decide, choice="accept")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_go_game_that_reaches_a_position_twice_counts_there_once():
    game = _go_game_marked_rejected_and_counted()
    walls = ",".join(p for row in range(1, 10) for p in (f"D{row}", f"F{row}"))
    for moves in (f"{walls},pass,B5", f"{walls},pass,B5,pass", f"{walls},pass,B5,pass,pass"):
        body = explore(game="Go (9x9)", moves=moves)
        assert (body["games"], body["wins"], body["draws"]) == (1, [0, 1], 0), moves
        assert [g["id"] for g in body["game_list"]["results"]] == [game.pk], moves
        assert all(m["games"] == 1 for m in body["moves"]), moves
