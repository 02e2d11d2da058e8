"""The user model and API tokens leave the games app (``accounts`` 0001 took them over).

State only: the foreign keys follow the model to ``accounts.User``, and ``games.User`` and
``games.ApiToken`` are forgotten, their tables (``games_user``, ``games_apitoken``, and the
user's ``games_user_groups`` and ``games_user_user_permissions``) now belonging to
``accounts``. Then the two content types are renamed, so permissions, groups' rights and the
admin's log keep pointing at the same models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("user", "apitoken")


def rename_content_types(apps, schema_editor, *, source: str, target: str, replace: bool) -> None:
    """Give the content types of ``MOVED`` the app label ``target``, keeping their ids (and so
    the permissions and admin log entries pointing at them)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        rows = ContentType.objects.using(db).filter(app_label=source, model=model)
        if not rows.exists():
            continue  # a new database: its content types are made after the migrations
        existing = ContentType.objects.using(db).filter(app_label=target, model=model)
        if existing.exists():
            if not replace:
                continue
            # Forwards after a rollback: ``post_migrate`` made fresh rows for ``accounts``
            # meanwhile; the old rows, which permissions and log entries point at, win.
            existing.delete()
        rows.update(app_label=target)


def forwards(apps, schema_editor):
    rename_content_types(apps, schema_editor, source="games", target="accounts", replace=True)


def backwards(apps, schema_editor):
    rename_content_types(apps, schema_editor, source="accounts", target="games", replace=False)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        ('admin', '0003_logentry_add_action_flag_choices'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0028_user_is_guest'),
        ('live', '0004_user_moved_to_accounts'),
        ('ratings', '0006_user_moved_to_accounts'),
        ('tournaments', '0009_user_moved_to_accounts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='user',
                    name='groups',
                ),
                migrations.RemoveField(
                    model_name='user',
                    name='user_permissions',
                ),
                migrations.AlterField(
                    model_name='challenge',
                    name='created_by',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='challenges_made', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='challengeentry',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='challenge_entries', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='idempotencykey',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='idempotency_keys', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='analysis',
                    name='requested_by',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='analyses', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='gameset',
                    name='player1',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sets_as_player1', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='importjob',
                    name='owner',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='import_jobs', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='gameset',
                    name='player2',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sets_as_player2', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='turnnotice',
                    name='user',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='turn_notices', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='challenge',
                    name='invitee',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='challenges_received', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='user',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='gameset',
                    name='winner',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='sets_won', to=settings.AUTH_USER_MODEL),
                ),
                migrations.DeleteModel(
                    name='ApiToken',
                ),
                migrations.DeleteModel(
                    name='User',
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
