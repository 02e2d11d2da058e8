"""Start windows and aborts: Game.on_absence (abort by default), the seats awaiting their first
action and the absent ones (both empty for existing games, whose clocks keep running as they
are), the end reason ``aborted`` (cancelled games only) and User.aborts."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0024_imported_results_recorded'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='game',
            name='game_end_reason_valid',
        ),
        migrations.AddField(
            model_name='game',
            name='absent_seats',
            field=models.JSONField(blank=True, db_default=[], default=list),
        ),
        migrations.AddField(
            model_name='game',
            name='awaiting_seats',
            field=models.JSONField(blank=True, db_default=[], default=list),
        ),
        migrations.AddField(
            model_name='game',
            name='on_absence',
            field=models.CharField(choices=[('abort', 'Abort'), ('forfeit', 'Forfeit'), ('none', 'None')], db_default='abort', default='abort', max_length=8),
        ),
        migrations.AddField(
            model_name='user',
            name='aborts',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.AlterField(
            model_name='game',
            name='end_reason',
            field=models.CharField(blank=True, choices=[('', 'none'), ('five', 'Five'), ('six', 'Six'), ('captures', 'Captures'), ('draw', 'Draw'), ('score', 'Score'), ('resign', 'Resign'), ('timeout', 'Timeout'), ('forfeit', 'Forfeit'), ('recorded', 'Recorded'), ('aborted', 'Aborted')], default='', max_length=10),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('end_reason__in', ('', 'five', 'six', 'captures', 'draw', 'score', 'resign', 'timeout', 'forfeit', 'recorded', 'aborted'))), name='game_end_reason_valid'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('on_absence__in', ('abort', 'forfeit', 'none'))), name='game_on_absence_valid'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('end_reason', 'aborted'), _negated=True), ('status', 'cancelled'), _connector='OR'), name='game_aborted_is_cancelled'),
        ),
    ]
