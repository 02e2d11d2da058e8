"""Foreign keys to the user model follow it from ``games.User`` to ``accounts.User``.

State only: the model kept its table (``games_user``), so the columns and their constraints
already point at the right rows; ``games`` 0031 forgets ``games.User`` once every app has moved.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_double_forfeit'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='entry',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tournament_entries', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='player1',
                    field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='player2',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='winner',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='plannedbye',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='tournament',
                    name='organiser',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='organised_tournaments', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='tournament',
                    name='winner',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tournaments_won', to=settings.AUTH_USER_MODEL),
                ),
            ],
            database_operations=[],
        ),
    ]
