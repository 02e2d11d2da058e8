"""``python manage.py explorer_rebuild``: empty the explorer's position index and index every
game over (finished here or imported) again, with a progress bar. Needed after a change of the
position keys (``games.engine.positionkey.KEY_VERSION``); the sweeper indexes games that are
merely missing without it."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from explorer import indexing
from pente_site.processes import bulk_jobs, progress_bar, side_by_side


class Command(BaseCommand):
    help = "Rebuild the explorer's position index from every game over."

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch-size",
            type=int,
            default=indexing.BATCH_SIZE,
            help=f"Games per transaction ({indexing.BATCH_SIZE}).",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=None,
            help="Processes indexing batches side by side (PostgreSQL: 2; SQLite: 1).",
        )
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")

    def handle(self, *args, batch_size: int, jobs: int | None, no_progress: bool, **options):
        jobs = bulk_jobs(batch_size=batch_size, jobs=jobs)
        started = time.monotonic()
        done = 0
        total = indexing.games_over_count()
        with progress_bar(self, total=total, unit="games", disable=no_progress) as bar:

            def on_batch(indexed: int) -> None:
                nonlocal done
                done += indexed
                bar.update(indexed)

            indexing.index_clear()
            batches = indexing.game_batches(batch_size=batch_size)
            side_by_side(indexing.index_batch, batches, jobs=jobs, on_result=on_batch)
        seconds = time.monotonic() - started
        self.stdout.write(f"{done} games indexed in {seconds:.1f} s.")
