"""Foreign keys to the user model follow it from ``games.User`` to ``accounts.User``.

State only: the model kept its table (``games_user``), so the columns and their constraints
already point at the right rows; ``games`` 0031 forgets ``games.User`` once every app has moved.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0005_rating_listed'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='computerrating',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='computer_ratings', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='computerratingchange',
                    name='opponent',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='computerratingchange',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='crown',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='crowns', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='opponent',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL),
                ),
            ],
            database_operations=[],
        ),
    ]
