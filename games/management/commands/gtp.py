"""``python manage.py gtp --game Pente --level 8``: our engine over GTP version 2 on standard
input and output, for GUIs and match tools (see ``games.bots.gtp`` for the commands and the
extensions). Needs no database."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from games.bots.go_search import warm
from games.bots.gtp import GtpEngine
from games.engine import UnknownGame


class Command(BaseCommand):
    help = "Speak GTP version 2 on stdin/stdout for one game (--game, --level, --budget)."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("--game", default="Pente", help="The game, e.g. Pente, 'Go (9x9)'.")
        parser.add_argument(
            "--level", type=int, default=8, choices=range(1, 9), help="Strength, 1..8."
        )
        parser.add_argument(
            "--budget", type=float, default=None, help="Seconds per move (default: level/8*5)."
        )

    def handle(self, *args, game: str, level: int, budget: float | None, **options):
        if budget is None:
            budget = level / 8 * 5
        if budget <= 0:
            raise CommandError("--budget must be a positive number of seconds")
        try:
            engine = GtpEngine(game, level, budget)
        except UnknownGame as exc:
            raise CommandError(str(exc)) from exc
        if engine.is_go:
            warm()  # the compiled playouts ready before the first genmove
        engine.run(options.get("stdin") or sys.stdin, self.stdout)
