"""``manage.py bots_create``: create (or bring up to date) the computer opponents."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.bots.accounts import bots_ensure
from games.bots.selectors import bot_think_seconds
from games.bots.warmup import warm


class Command(BaseCommand):
    help = "Create or update the computer opponents computer1 .. computer8 (levels 1 to 8)."

    def handle(self, *args, **options):
        for user in bots_ensure():
            seconds = bot_think_seconds(level=user.bot_level)
            self.stdout.write(f"{user.username}: level {user.bot_level}, {seconds:g} s a move")
        # The compiled search built once here (numba's on-disk cache), not during a first move
        compiled = "compiled" if warm() else "pure Python (numba is not installed)"
        self.stdout.write(f"Search: {compiled}")
