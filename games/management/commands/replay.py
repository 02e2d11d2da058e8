"""``python manage.py replay PATH``: replay Pente.org game records (the Pente family's and Go's)
through the engine.

PATH is a file of one or more records, or ``-`` for standard input. Prints one JSON object per
record per line (see ``games.engine.records.replay_summary``); exits non-zero, after printing
every record, when a record has an illegal move, and with status 2 at once when the text cannot
be read as records or holds none ("no records found"). When the reader of the output goes away
(``replay games.txt | head -1``) it stops quietly with status 141 (128 + SIGPIPE, as a shell
tool killed by SIGPIPE would). Needs no database.
"""

from __future__ import annotations

import json
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from games.engine.errors import BadRecord
from games.engine.records import parse_records, replay_summary

EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


class Command(BaseCommand):
    help = "Replay game records (a file, or - for stdin) and print one JSON line per record."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("path", help="File of records, or - for standard input.")

    def handle(self, *args, path: str, **options):
        text = self._read(path)
        try:
            records = parse_records(text)
        except BadRecord as exc:
            error = {"code": exc.code, "detail": exc.detail, "line": exc.line}
            self._write(json.dumps({"error": error}))
            raise CommandError(f"{path}: {exc}", returncode=2) from exc
        if not records:
            raise CommandError(f"{path}: no records found", returncode=2)
        failed = 0
        for record in records:
            summary = replay_summary(record)
            if "error" in summary:
                failed += 1
            self._write(json.dumps(summary))
        self._write(None)
        if failed:
            raise CommandError(f"{failed} of {len(records)} records could not be replayed.")

    def _write(self, line: str | None) -> None:
        """Write a line (None: flush), ending the command quietly if stdout's reader is gone."""
        try:
            if line is None:
                self.stdout.flush()
            else:
                self.stdout.write(line)
        except BrokenPipeError:
            self._stdout_gone()

    def _stdout_gone(self) -> None:
        # Point the closed stdout at /dev/null so that the flush at interpreter exit does not
        # raise (and print) a second BrokenPipeError, then stop without a traceback.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stdout._out.fileno())
            os.close(devnull)
        except (AttributeError, OSError, ValueError):
            pass
        raise SystemExit(EXIT_BROKEN_PIPE)

    def _read(self, path: str) -> str:
        if path == "-":
            stdin = getattr(self, "stdin", None) or sys.stdin
            return stdin.read()
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}", returncode=2) from exc

    def execute(self, *args, **options):
        stdin = options.pop("stdin", None)
        if stdin is not None:
            self.stdin = stdin
        return super().execute(*args, **options)
