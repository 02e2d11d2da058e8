"""Replay every stored set result and compare with the stored ratings.

    manage.py recompute_ratings           # report differences
    manage.py recompute_ratings --check   # ... and exit 1 when there is any
    manage.py recompute_ratings --fix     # write the replayed ratings and history

Sets are replayed in (finished_at, id) order; sets already applied keep the order in which they
were applied (it differs only when two finishing transactions of the same player raced).
The replay rates exactly the sets ``rating_apply_set`` rates (``ratings.services.set_is_rateable``):
a set in which no game was played (every game forfeited before a stone beyond the automatic
centre stone) changes no rating.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ratings.replay import ratings_fix, ratings_replay


class Command(BaseCommand):
    help = "Replay every rated set in memory and report (or --fix) differences from stored ratings."

    def add_arguments(self, parser):
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--check", action="store_true", help="exit 1 if anything differs")
        mode.add_argument("--fix", action="store_true", help="write the replayed values")
        parser.add_argument(
            "--tolerance", type=float, default=1e-6, help="rating difference ignored (default 1e-6)"
        )
        parser.add_argument("--limit", type=int, default=50, help="differences to print")

    def handle(self, *args, check: bool, fix: bool, tolerance: float, limit: int, **options):
        replay = ratings_replay(tolerance=tolerance)
        differences = replay.differences
        self.stdout.write(
            f"Replayed {replay.sets} sets into {len(replay.records)} ratings: "
            f"{len(differences)} difference(s)."
        )
        for difference in differences[:limit]:
            self.stdout.write(f"  {difference}")
        if len(differences) > limit:
            self.stdout.write(f"  ... and {len(differences) - limit} more")
        if fix and differences:
            ratings_fix(replay=replay)
            self.stdout.write(self.style.SUCCESS("Stored ratings and history rewritten."))
        elif check and differences:
            raise CommandError("Stored ratings differ from the replay.", returncode=1)
