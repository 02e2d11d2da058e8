"""Foreign keys to the user model follow it from ``games.User`` to ``accounts.User``.

State only: the model kept its table (``games_user``), so the columns and their constraints
already point at the right rows; ``games`` 0031 forgets ``games.User`` once every app has moved.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('live', '0003_main_room'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='chatline',
                    name='author',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_lines', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='ignore',
                    name='ignored',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ignored_by', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='ignore',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ignoring', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='presence',
                    name='user',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='presences', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='report',
                    name='reporter',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_reports', to=settings.AUTH_USER_MODEL),
                ),
            ],
            database_operations=[],
        ),
    ]
