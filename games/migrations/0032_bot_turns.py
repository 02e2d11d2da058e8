"""The computers' turns waiting for their move (``BotTurn``), the due index of the resend
sweeper that replaces the old 30-second bots sweeper.

Every game in progress against a computer gets a row due at once, so the first sweep sends its
move task again: the task plays if a computer is to act, else it deletes the row. After that the
rows are written with the actions that start a computer's turn.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def fill_turns(apps, schema_editor) -> None:
    Game = apps.get_model("games", "Game")
    BotTurn = apps.get_model("games", "BotTurn")
    db = schema_editor.connection.alias
    now = timezone.now()
    waiting = Game.objects.using(db).filter(against_computer=True, status="in_progress")
    BotTurn.objects.using(db).bulk_create(
        (
            BotTurn(game_id=pk, ply=ply, resend_at=now)
            for pk, ply in waiting.values_list("pk", "ply")
        ),
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_user_moved_to_accounts"),
    ]

    operations = [
        migrations.CreateModel(
            name="BotTurn",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="bot_turn",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("ply", models.PositiveIntegerField()),
                ("resend_at", models.DateTimeField()),
                ("claimed_at", models.DateTimeField(blank=True, null=True)),
                ("sends", models.PositiveIntegerField(default=1)),
            ],
            options={
                "indexes": [models.Index(fields=["resend_at"], name="bot_turn_resend_at")],
            },
        ),
        migrations.RunPython(fill_turns, migrations.RunPython.noop, elidable=True),
    ]
