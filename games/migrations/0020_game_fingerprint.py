# The record digest (an imported record's text hashed) gives way to the game's fingerprint (its
# kind, actions, players and result hashed, for every game over: games.records.fingerprints),
# filled for the games already stored by 0021.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_plural_names'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='game',
            name='game_unique_record_digest',
        ),
        migrations.RemoveField(
            model_name='game',
            name='record_digest',
        ),
        migrations.AddField(
            model_name='game',
            name='fingerprint',
            field=models.CharField(blank=True, max_length=32, null=True),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('fingerprint__isnull', False)), fields=['fingerprint'], name='game_fingerprint'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('fingerprint__isnull', True), ('status__in', ('finished', 'cancelled'))), fields=['id'], name='game_fingerprint_missing'),
        ),
    ]
