"""``python manage.py import_records FILE``: import a file of Pente.org game records (100,000 and
more; ``-`` for standard input; an SGF file is one game) into the game database in batches, with
a progress bar. Options, duplicates, refusals and ``--jobs``: docs/records.md, "Importing
archives".
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from typing import TextIO

from django.core.management.base import BaseCommand, CommandError

from games.records.imports import (
    DUPLICATE,
    Batch,
    RecordText,
    is_sgf,
    parsed_records,
    records_import,
    sgf_as_records,
    split_records,
)
from games.records.imports import (
    batches as records_batches,
)
from pente_site.errors import DomainError
from pente_site.processes import bulk_jobs, progress_bar, side_by_side, write_above

BATCH_SIZE = 500


class Command(BaseCommand):
    help = "Import a file of Pente.org game records (or - for standard input), in batches."

    def add_arguments(self, parser):
        parser.add_argument("path", help="File of records, or - for standard input.")
        parser.add_argument(
            "--batch-size",
            type=int,
            default=BATCH_SIZE,
            help=f"Records per transaction ({BATCH_SIZE}).",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=None,
            help="Processes importing batches side by side (PostgreSQL: 2; SQLite: 1, as it "
            "takes one writer at a time).",
        )
        parser.add_argument("--encoding", default="utf-8", help="The file's encoding (utf-8).")
        parser.add_argument(
            "--no-progress", action="store_true", help="No progress bar (for logs and scripts)."
        )

    def handle(self, *args, path: str, batch_size: int, encoding: str, jobs: int | None, **options):
        jobs = bulk_jobs(batch_size=batch_size, jobs=jobs)
        total = None if path == "-" else self._count(path, encoding)
        started = time.monotonic()
        counts = {"imported": 0, "duplicates": 0, "refused": 0}
        bar = progress_bar(self, total=total, unit="records", disable=options["no_progress"])

        def on_batch(batch: Batch) -> None:
            counts["imported"] += len(batch.game_ids)
            for refusal in batch.refusals:
                if refusal.code == DUPLICATE:
                    counts["duplicates"] += 1
                    continue
                counts["refused"] += 1
                write_above(
                    self,
                    f"record {refusal.record} (line {refusal.line}): {refusal.code}: "
                    f"{refusal.detail}",
                )
            bar.update(batch.records)

        with bar, self._lines(path, encoding) as lines:
            batches = records_batches(split_records(lines), batch_size)
            side_by_side(import_batch, batches, jobs=jobs, on_result=on_batch)
        seconds = time.monotonic() - started
        done = sum(counts.values())
        rate = done / seconds if seconds else 0.0
        self.stdout.write(
            f"{done} records in {seconds:.1f} s ({rate:.0f}/s): {counts['imported']} imported, "
            f"{counts['duplicates']} duplicates skipped, {counts['refused']} refused."
        )

    def _count(self, path: str, encoding: str) -> int:
        with self._lines(path, encoding) as lines:
            return sum(1 for _ in split_records(lines))

    @contextmanager
    def _lines(self, path: str, encoding: str) -> Iterator[Iterator[str]]:
        """The file's lines without their ends (an SGF file: its game as one record)."""
        try:
            handle: TextIO = (
                sys.stdin if path == "-" else open(path, encoding=encoding, errors="replace")  # noqa: SIM115
            )
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from None
        try:
            lines = (line.rstrip("\n") for line in handle)
            head: list[str] = []
            for line in lines:
                head.append(line)
                if line.strip():
                    break
            if is_sgf("\n".join(head)):
                text = "\n".join(chain(head, lines))
                try:
                    yield iter(sgf_as_records(text).splitlines())
                except DomainError as exc:
                    raise CommandError(f"{exc.code}: {exc.detail}") from None
                return
            yield chain(head, lines)
        finally:
            if handle is not sys.stdin:
                handle.close()


def import_batch(texts: list[RecordText]) -> Batch:
    """Import one batch of record texts in one transaction (in a worker process, or here)."""
    report = records_import(records=parsed_records(texts), batch_size=max(1, len(texts)))
    return Batch(records=report.records, game_ids=report.game_ids, refusals=report.refusals)
