"""On PostgreSQL the write of a plain turn is a statement prepared on the server (parsed and
planned once per connection), written as the unprepared one is, and unprepared when the
settings turn preparation off."""

from __future__ import annotations

import pytest

from games.clocks.timecontrol import TimeControl
from games.play.actions import move_play
from games.play.models import Game, Move
from tests.factories import UserFactory, make_game
from tests.prepared import prepared_statements, reset_prepared_statements

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

TURN_WRITE = 'WITH g AS (UPDATE "games_game"'


def _prepared_turn_writes() -> list[str]:
    return [s for s in prepared_statements() if s.startswith(TURN_WRITE)]


@pytest.fixture(autouse=True)
def _fresh_session():
    reset_prepared_statements()


def _played(variant: str, time_control: TimeControl, turns: list[list[str]]) -> tuple:
    """A game of ``variant`` after ``turns`` (the centre stone is ply 1): its row's ply, whether
    it has a deadline, and its moves."""
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players, variant=variant, time_control=time_control)
    ply = 1
    for i, turn in enumerate(turns):  # seat 2 answers the centre stone, then they alternate
        ply = move_play(game_id=game.pk, user=players[1 - i % 2], ply=ply, points=turn).game.ply
    row = Game.objects.get(pk=game.pk)
    moves = list(Move.objects.filter(game=row).values_list("ply", "seat", "kind", "point"))
    return row.ply, row.deadline is not None, moves


CASES = [
    ("Pente", TimeControl.live(5, 2), [["A1"], ["A3"], ["B7"]]),
    ("Pente", TimeControl.untimed(), [["A1"], ["A3"], ["B7"]]),
    ("Connect6", TimeControl.untimed(), [["A1", "A2"], ["B1", "B2"], ["C1", "C2"]]),
]


@pytest.mark.parametrize(("variant", "time_control", "turns"), CASES)
def test_a_turn_is_written_by_a_prepared_statement_as_the_unprepared_one(
    settings, variant, time_control, turns
):
    settings.PREPARED_STATEMENTS = False
    unprepared = _played(variant, time_control, turns)
    assert _prepared_turn_writes() == []

    settings.PREPARED_STATEMENTS = True
    prepared = _played(variant, time_control, turns)
    assert _prepared_turn_writes(), "the turn's write was not prepared"
    assert prepared[:2] == unprepared[:2]
    assert [m[1:] for m in prepared[2]] == [m[1:] for m in unprepared[2]]
