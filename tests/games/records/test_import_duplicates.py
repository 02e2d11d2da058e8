"""A record of a game already in the database (played here and exported, or imported before) is
refused as ``duplicate`` naming that game, and the rest of the import goes on. The same game:
the same kind, moves, players (names as recorded) and result, and the same date where both
have one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import transaction
from django.test import TestCase

from games.engine import Outcome, Termination
from games.play.actions import game_resign, move_play
from games.play.finish import game_cancel_finish, game_finish
from games.play.models import Game
from games.records import imports
from games.records.fingerprints import fingerprints_fill
from games.records.imports import games_import
from tests.clients import client_for
from tests.explorer.support import explore, record
from tests.factories import UserFactory, make_game
from tests.games.records.importing import import_job

pytestmark = pytest.mark.django_db

STARTED = datetime(2024, 3, 5, 14, 30, tzinfo=UTC)


def _played(*, points: tuple[str, ...] = ("L11", "M12", "N13")) -> Game:
    """A Pente game played here by ann and bob, started on 5 March 2024, with ``points`` after
    the centre stone, still in progress."""
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    game = make_game(players=[ann, bob])
    Game.objects.filter(pk=game.pk).update(started_at=STARTED)
    users = [ann, bob]
    for i, point in enumerate(points):
        game.refresh_from_db()
        move_play(game_id=game.pk, user=users[(i + 1) % 2], ply=game.ply, points=[point])
    game.refresh_from_db()
    return game


def _resigned() -> Game:
    """``_played``, then bob (to move) resigns: ann wins."""
    game = _played()
    game_resign(game_id=game.pk, user=game.seat_rows.get(seat=2).user)
    return game


def _ended(game: Game, how) -> Game:
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        how(locked)
    return locked


def _exported(game: Game) -> str:
    return client_for().get(f"/api/games/{game.pk}/record").content.decode()


def _refused(report: imports.ImportReport) -> list[tuple[int, str, str]]:
    return [(r.record, r.code, r.detail) for r in report.refusals]


def test_a_game_played_here_exported_and_imported_again_is_refused_naming_it():
    game = _resigned()
    other = record("K10 L11 M12 Resign 1-0", p1="cy", p2="dee", Date="2024.03.05")
    job = import_job(client_for(UserFactory()), _exported(game) + "\n" + other)
    assert (job["status"], job["imported"], job["refused"]) == ("done", 1, 1)
    ((refusal),) = job["refusals"]
    assert (refusal["record"], refusal["code"]) == (1, imports.DUPLICATE)
    assert refusal["detail"].startswith(f"Game {game.pk} is this game already")
    assert Game.objects.count() == 2  # the game played here and the other record
    assert explore(game="Pente", moves="K10,L11")["games"] == 1


def test_a_game_lost_on_time_exported_and_imported_again_is_refused():
    game = _ended(
        _played(), lambda g: game_finish(game=g, outcome=Outcome(Termination.TIMEOUT, (1,)))
    )
    report = games_import(text=_exported(game))
    assert report.game_ids == []
    assert _refused(report)[0][2].startswith(f"Game {game.pk} ")


def test_a_cancelled_game_exported_and_imported_again_is_refused():
    game = _ended(_played(), lambda g: game_cancel_finish(game=g, now=STARTED))
    report = games_import(text=_exported(game))
    assert report.game_ids == []
    assert _refused(report)[0][2].startswith(f"Game {game.pk} ")


def test_a_game_in_progress_exported_imports_as_a_game_of_its_own():
    game = _played()
    report = games_import(text=_exported(game))
    assert report.refusals == [] and len(report.game_ids) == 1
    assert Game.objects.get(pk=game.pk).fingerprint is None


def test_a_record_imported_before_is_refused_naming_its_game_whatever_its_other_headers():
    (first,) = games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.05")).game_ids
    again = record("K10 L11 M12 Resign 1-0", r1=1700, Site="elsewhere", Date="03/05/2024")
    report = games_import(text=again)
    assert report.game_ids == []
    ((number, code, detail),) = _refused(report)
    assert (number, code) == (1, imports.DUPLICATE)
    assert detail.startswith(f"Game {first} is this game already")


def test_an_imported_record_exported_and_imported_again_is_refused():
    # Its moves do not end the game: the result is its Result header's, which the export keeps.
    text = record("K10 L11 M12", Result="0-1", Date="2024.03.05")
    (first,) = games_import(text=text).game_ids
    exported = client_for().get(f"/api/games/{first}/record").content.decode()
    assert '[Result "0-1"]' in exported and exported.rstrip().endswith("0-1")
    report = games_import(text=exported)
    assert report.game_ids == []
    assert _refused(report)[0][2].startswith(f"Game {first} ")


def test_the_same_record_twice_in_one_upload_imports_once():
    text = record("K10 L11 M12 Resign 1-0", Date="2024.03.05")
    job = import_job(client_for(UserFactory()), f"{text}\n{text}")
    assert (job["imported"], job["refused"]) == (1, 1)
    assert job["refusals"][0]["record"] == 2
    assert job["refusals"][0]["code"] == imports.DUPLICATE
    assert job["refusals"][0]["detail"] == "Record 1 of this text is the same game: imported once."


def test_a_record_differing_only_in_its_result_imports():
    games_import(text=record("K10 L11 M12", Result="1-0", Date="2024.03.05"))
    report = games_import(text=record("K10 L11 M12", Result="0-1", Date="2024.03.05"))
    assert report.refusals == [] and len(report.game_ids) == 1


def test_a_record_differing_only_in_one_move_imports():
    games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.05"))
    report = games_import(text=record("K10 L11 M13 Resign 1-0", Date="2024.03.05"))
    assert report.refusals == [] and len(report.game_ids) == 1


def test_a_record_differing_only_in_a_player_imports():
    games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.05"))
    report = games_import(text=record("K10 L11 M12 Resign 1-0", p2="bo", Date="2024.03.05"))
    assert report.refusals == [] and len(report.game_ids) == 1


def test_a_record_of_another_day_imports():
    games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.05"))
    report = games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.06"))
    assert report.refusals == [] and len(report.game_ids) == 1


def test_a_record_without_a_date_is_the_same_game_as_a_dated_one_here():
    (first,) = games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.05")).game_ids
    report = games_import(text=record("K10 L11 M12 Resign 1-0", Date="?"))
    assert report.game_ids == []
    assert _refused(report)[0][2].startswith(f"Game {first} ")


def test_a_dated_record_is_the_same_game_as_one_here_without_a_date():
    (first,) = games_import(text=record("K10 L11 M12 Resign 1-0")).game_ids
    report = games_import(text=record("K10 L11 M12 Resign 1-0", Date="2024.03.05"))
    assert report.game_ids == []
    assert _refused(report)[0][2].startswith(f"Game {first} ")


def test_a_game_over_gets_its_fingerprint_when_its_transaction_commits():
    game = _played()
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_resign(game_id=game.pk, user=game.seat_rows.get(seat=2).user)
    assert Game.objects.get(pk=game.pk).fingerprint
    assert fingerprints_fill() == 0  # nothing left for an import to catch up


def test_an_import_first_fingerprints_the_games_over_whose_job_was_lost():
    game = _resigned()  # the job of its fingerprint is never run: no commit in this test
    assert Game.objects.get(pk=game.pk).fingerprint is None
    games_import(text=record("K10 L11 M12 Resign 1-0"))
    assert Game.objects.get(pk=game.pk).fingerprint
