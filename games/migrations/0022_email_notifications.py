# E-mail notifications (accounts.notifications): each account's three choices, with their
# defaults for the accounts already here (db_default), and the turns still to be told by e-mail.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_fill_game_fingerprints'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='email_on_challenge',
            field=models.BooleanField(db_default=True, default=True, help_text='E-mail me when someone challenges me.'),
        ),
        migrations.AddField(
            model_name='user',
            name='email_on_game_over',
            field=models.BooleanField(db_default=False, default=False, help_text='E-mail me when a turn-based game of mine ends.'),
        ),
        migrations.AddField(
            model_name='user',
            name='email_on_turn',
            field=models.BooleanField(db_default=True, default=True, help_text='E-mail me when it is my turn in a turn-based game.'),
        ),
        migrations.CreateModel(
            name='TurnNotice',
            fields=[
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='turn_notice', serialize=False, to='games.game')),
                ('ply', models.PositiveIntegerField()),
                ('seat', models.PositiveSmallIntegerField()),
                ('due_at', models.DateTimeField()),
                ('site_url', models.CharField(blank=True, default='', max_length=200)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='turn_notices', to='games.user')),
            ],
            options={
                'indexes': [models.Index(fields=['due_at'], name='turn_notice_due')],
            },
        ),
    ]
