"""The user model and API tokens, moved from the games app with their tables kept.

State only: ``games.User`` and ``games.ApiToken`` (tables ``games_user``, ``games_apitoken``)
become ``accounts.User`` and ``accounts.ApiToken`` without a row copied or a column touched;
``games`` 0031 then forgets the old models and renames their content types.

It depends on ``games`` 0001 alone (the table exists from then on), so a database migrated
before the move can have it recorded as applied before anything else runs: ``admin`` 0001 now
depends on it through ``AUTH_USER_MODEL``, and Django refuses a history where an applied
migration's dependency is not applied. ``accounts.management.commands.migrate`` records it.
"""

import accounts.models
import django.contrib.auth.models
import django.contrib.auth.validators
import django.db.models.deletion
import django.db.models.functions.text
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        ('games', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='User',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('password', models.CharField(max_length=128, verbose_name='password')),
                        ('last_login', models.DateTimeField(blank=True, null=True, verbose_name='last login')),
                        ('is_superuser', models.BooleanField(default=False, help_text='Designates that this user has all permissions without explicitly assigning them.', verbose_name='superuser status')),
                        ('username', models.CharField(error_messages={'unique': 'A user with that username already exists.'}, help_text='Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.', max_length=150, unique=True, validators=[django.contrib.auth.validators.UnicodeUsernameValidator()], verbose_name='username')),
                        ('first_name', models.CharField(blank=True, max_length=150, verbose_name='first name')),
                        ('last_name', models.CharField(blank=True, max_length=150, verbose_name='last name')),
                        ('email', models.EmailField(blank=True, max_length=254, verbose_name='email address')),
                        ('is_staff', models.BooleanField(default=False, help_text='Designates whether the user can log into this admin site.', verbose_name='staff status')),
                        ('is_active', models.BooleanField(default=True, help_text='Designates whether this user should be treated as active. Unselect this instead of deleting accounts.', verbose_name='active')),
                        ('date_joined', models.DateTimeField(default=django.utils.timezone.now, verbose_name='date joined')),
                        ('time_zone', models.CharField(default='UTC', max_length=64)),
                        ('weekend_days', models.JSONField(default=accounts.models.default_weekend)),
                        ('is_computer', models.BooleanField(default=False)),
                        ('bot_level', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('vacation_hours_left', models.PositiveIntegerField(default=240)),
                        ('vacation_year', models.PositiveIntegerField(default=0)),
                        ('email_verified', models.BooleanField(db_default=False, default=False)),
                        ('email_on_turn', models.BooleanField(db_default=True, default=True, help_text='E-mail me when it is my turn in a turn-based game.')),
                        ('email_on_challenge', models.BooleanField(db_default=True, default=True, help_text='E-mail me when someone challenges me.')),
                        ('email_on_game_over', models.BooleanField(db_default=False, default=False, help_text='E-mail me when a turn-based game of mine ends.')),
                        ('deleted_at', models.DateTimeField(blank=True, null=True)),
                        ('is_guest', models.BooleanField(db_default=False, default=False)),
                        ('aborts', models.PositiveIntegerField(db_default=0, default=0)),
                        ('groups', models.ManyToManyField(blank=True, help_text='The groups this user belongs to. A user will get all permissions granted to each of their groups.', related_name='user_set', related_query_name='user', to='auth.group', verbose_name='groups')),
                        ('user_permissions', models.ManyToManyField(blank=True, help_text='Specific permissions for this user.', related_name='user_set', related_query_name='user', to='auth.permission', verbose_name='user permissions')),
                    ],
                    options={
                        'db_table': 'games_user',
                    },
                    managers=[
                        ('objects', django.contrib.auth.models.UserManager()),
                    ],
                ),
                migrations.CreateModel(
                    name='ApiToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(blank=True, default='', max_length=100)),
                        ('prefix', models.CharField(max_length=8)),
                        ('key_hash', models.CharField(max_length=64, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('last_used_at', models.DateTimeField(blank=True, null=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_apitoken',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.AddIndex(
                    model_name='user',
                    index=models.Index(django.db.models.functions.text.Upper('username'), name='user_username_upper'),
                ),
                migrations.AddConstraint(
                    model_name='user',
                    constraint=models.CheckConstraint(condition=models.Q(('time_zone__gt', '')), name='user_time_zone_not_empty'),
                ),
                migrations.AddConstraint(
                    model_name='user',
                    constraint=models.CheckConstraint(condition=models.Q(('bot_level__isnull', True), models.Q(('bot_level__gte', 1), ('bot_level__lte', 8), ('is_computer', True)), _connector='OR'), name='user_bot_level_is_a_computer_level'),
                ),
                migrations.AddConstraint(
                    model_name='user',
                    constraint=models.CheckConstraint(condition=models.Q(('deleted_at__isnull', True), ('is_active', False), _connector='OR'), name='user_deleted_is_inactive'),
                ),
                migrations.AddConstraint(
                    model_name='user',
                    constraint=models.CheckConstraint(condition=models.Q(('is_guest', False), models.Q(('is_computer', False), ('is_staff', False)), _connector='OR'), name='user_guest_is_a_person_without_rights'),
                ),
            ],
            database_operations=[],
        ),
    ]
