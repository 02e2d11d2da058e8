"""Go's passes become next moves of the index (``positionkey.pass_point``): the Go games'
rows are dropped and the games marked not indexed, so that the index sweeper indexes them
again, passes included, a batch at a time (nothing is replayed here)."""

from django.db import migrations

GO_VARIANTS = ("Go", "Go (13x13)", "Go (9x9)")


def reindex_go(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    PositionRow = apps.get_model("explorer", "PositionRow")
    go_games = Game.objects.filter(variant__in=GO_VARIANTS, positions_indexed=True)
    PositionRow.objects.filter(game__in=go_games.values("pk")).delete()
    go_games.update(positions_indexed=False)


class Migration(migrations.Migration):
    dependencies = [
        ("explorer", "0001_initial"),
        ("games", "0019_plural_names"),
    ]

    operations = [migrations.RunPython(reindex_go, migrations.RunPython.noop)]
