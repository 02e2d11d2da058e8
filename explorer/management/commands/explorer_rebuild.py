"""``python manage.py explorer_rebuild``: empty the explorer's position index and index every
game over (finished here or imported) again, with a progress bar. Needed after a change of the
position keys (``games.engine.positionkey.KEY_VERSION``); the sweeper indexes games that are
merely missing without it."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from explorer import indexing


class Command(BaseCommand):
    help = "Rebuild the explorer's position index from every game over."

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch-size",
            type=int,
            default=indexing.BATCH_SIZE,
            help=f"Games per transaction ({indexing.BATCH_SIZE}).",
        )
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")

    def handle(self, *args, batch_size: int, no_progress: bool, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        started = time.monotonic()
        done = 0
        with tqdm(
            total=indexing.games_over_count(),
            unit="games",
            disable=no_progress,
            file=self.stderr._out,
            dynamic_ncols=True,
        ) as bar:
            for indexed in indexing.index_rebuild(batch_size=batch_size):
                done += indexed
                bar.update(indexed)
        seconds = time.monotonic() - started
        self.stdout.write(f"{done} games indexed in {seconds:.1f} s.")
