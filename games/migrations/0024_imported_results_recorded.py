"""Imported records whose moves end before the game does were stored with no result (end_reason
"", no winner) even when their Result header states one: they get it now, as an import does
(``games.engine.records.result.record_outcome``): the winning seats, end_reason ``recorded``
(or the record's End Reason), finished when the record is dated. The stored headers are the
record's, so nothing is guessed; a header an import would now refuse leaves the game as it was.
Their explorer positions are indexed again (``positions_indexed``), with the result, by the
explorer's sweeper. A batch of games per transaction."""

from collections import defaultdict

from django.db import migrations, transaction

from games.engine import EngineError, Record, Replay, record_outcome, replay_game
from games.play.positions import engine_options, move_action

BATCH_SIZE = 500


def _outcome(game, actions):
    """The outcome an import keeps of the stored record, or None."""
    headers = tuple((str(name), str(value)) for name, value in (game.headers or {}).items())
    try:
        position = replay_game(game.variant, actions, **engine_options(game))
        return record_outcome(Record(headers=headers), Replay(position))
    except EngineError:
        return None


def fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    pending = Game.objects.filter(imported=True, end_reason="", headers__has_key="Result")
    after = 0
    while ids := list(
        pending.filter(pk__gt=after).order_by("pk").values_list("pk", flat=True)[:BATCH_SIZE]
    ):
        with transaction.atomic():
            actions = defaultdict(list)
            moves = (
                Move.objects.filter(game_id__in=ids)
                .order_by("game_id", "ply")
                .values_list("game_id", "kind", "point", "choice")
            )
            for game_id, kind, point, choice in moves:
                actions[game_id].append(move_action(kind, point, choice))
            changed = []
            for game in Game.objects.filter(pk__in=ids).order_by("pk"):
                outcome = _outcome(game, actions[game.pk])
                if outcome is None:
                    continue
                game.end_reason = outcome.termination.value
                game.winner_seats = list(outcome.winners)
                game.finished_at = game.started_at
                game.positions_indexed = False
                changed.append(game)
            fields = ["end_reason", "winner_seats", "finished_at", "positions_indexed"]
            Game.objects.bulk_update(changed, fields, batch_size=BATCH_SIZE)
        after = ids[-1]


def unfill(apps, schema_editor):
    """Back to no result: the results the Result header states and does not say how."""
    Game = apps.get_model("games", "Game")
    Game.objects.filter(imported=True, end_reason="recorded").update(
        end_reason="", winner_seats=[], finished_at=None, positions_indexed=False
    )


class Migration(migrations.Migration):
    atomic = False  # one transaction per batch

    dependencies = [
        ("games", "0023_end_reason_recorded"),
    ]

    operations = [migrations.RunPython(fill, unfill)]
