from django.db import migrations


def make_main_room(apps, schema_editor):
    Room = apps.get_model("live", "Room")
    Room.objects.get_or_create(name="main", defaults={"title": "Main room"})


class Migration(migrations.Migration):
    dependencies = [("live", "0002_rooms_chat_presence")]

    operations = [migrations.RunPython(make_main_room, migrations.RunPython.noop)]
