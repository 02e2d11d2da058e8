"""Every game over (finished, cancelled, or an imported record) gets its fingerprint, a batch of
games per transaction (``games.records.fingerprints.fingerprints_of``: each game replayed once
through the engine), so that a stop half way keeps the batches done and a second run goes on
from there."""

from django.db import migrations, transaction

from games.records.fingerprints import fingerprints_of

BATCH_SIZE = 500


def fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    Seat = apps.get_model("games", "Seat")
    pending = Game.objects.filter(fingerprint__isnull=True).exclude(status="in_progress")
    after = 0
    while ids := list(
        pending.filter(pk__gt=after).order_by("pk").values_list("pk", flat=True)[:BATCH_SIZE]
    ):
        with transaction.atomic():
            games = list(Game.objects.filter(pk__in=ids).order_by("pk"))
            found = fingerprints_of(
                games,
                move_rows=Move.objects.filter(game_id__in=ids)
                .order_by("game_id", "ply")
                .values_list("game_id", "kind", "point", "choice"),
                seat_rows=Seat.objects.filter(game_id__in=ids).values_list(
                    "game_id", "seat", "name"
                ),
            )
            for game in games:
                game.fingerprint = found[game.pk]
            Game.objects.bulk_update(games, ["fingerprint"], batch_size=BATCH_SIZE)
        after = ids[-1]


class Migration(migrations.Migration):
    atomic = False  # one transaction per batch

    dependencies = [
        ("games", "0020_game_fingerprint"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
