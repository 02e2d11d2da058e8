"""Django's ``migrate``, which first records the user model's move on an older database
(``accounts.history``)."""

from django.core.management.commands import migrate
from django.db import connections

from accounts.history import record_user_model_moved


class Command(migrate.Command):
    def handle(self, *args, **options):
        if record_user_model_moved(connection=connections[options["database"]]):
            self.stdout.write("Recorded accounts.0001_initial (the user model's move) as applied.")
        return super().handle(*args, **options)
