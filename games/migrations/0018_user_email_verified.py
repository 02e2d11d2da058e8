from django.db import migrations, models


def trust_existing_addresses(apps, schema_editor):
    """Addresses given before confirmation existed keep working for forgotten passwords, as
    they did (new and changed addresses are confirmed by a link)."""
    User = apps.get_model("games", "User")
    User.objects.exclude(email="").update(email_verified=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0017_user_deleted_at")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="email_verified",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.RunPython(trust_existing_addresses, migrations.RunPython.noop),
    ]
