"""``manage.py import_records FILE``: a file imported in batches with a progress bar, duplicates
skipped, every refused record reported with its reason, the positions indexed."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from explorer.models import PositionRow
from games.play.models import Game
from tests.games.records.importing import record, records

pytestmark = pytest.mark.django_db

BAD = '[Game "Pente"]\n[Player 1 Name "zed"]\n\n1. K10 L11 2. L11 *\n'


def run(*args: str, jobs: int = 1) -> tuple[str, str]:
    """Run the command; one process unless ``jobs`` (more would import outside the test's
    transaction)."""
    out, err = io.StringIO(), io.StringIO()
    call_command("import_records", *args, "--jobs", str(jobs), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_file_is_imported_in_batches_with_duplicates_skipped_and_refusals_reported(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text(records(5) + "\n" + BAD + "\n" + record(2) + "\n" + records(2, start=6))
    out, err = run(str(path), "--batch-size", "3")
    assert Game.objects.count() == 7
    assert "9 records" in out and "7 imported, 1 duplicates skipped, 1 refused" in out
    assert "record 6 (line" in err and "occupied" in err
    assert "9/9" in err  # the progress bar's last state
    # Every game's positions are in the explorer's index.
    assert not Game.objects.filter(positions_indexed=False).exists()
    assert PositionRow.objects.values("game").distinct().count() == 7


def test_the_same_file_imported_again_imports_nothing(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text(records(4))
    run(str(path), "--no-progress")
    out, err = run(str(path), "--no-progress")
    assert "0 imported, 4 duplicates skipped, 0 refused" in out
    assert err == ""
    assert Game.objects.count() == 4


def test_windows_line_ends_and_latin1_names_are_read(tmp_path):
    path = tmp_path / "games.txt"
    text = record(1).replace("p1", "J\u00f6rg") + "\n" + record(2)
    path.write_bytes(text.replace("\n", "\r\n").encode("latin-1"))
    out, _ = run(str(path), "--no-progress", "--encoding", "latin-1")
    assert "2 imported" in out
    assert Game.objects.filter(seat_rows__name="J\u00f6rg").exists()


def test_a_missing_file_is_an_error_that_names_it(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        run(str(tmp_path / "nothing.txt"))


@pytest.mark.django_db(transaction=True)
def test_two_processes_import_every_record_once(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL pointing at PostgreSQL (SQLite takes one writer)")
    path = tmp_path / "games.txt"
    # 40 records in batches of 3, the same record in two batches and a bad one among them.
    path.write_text(records(20) + "\n" + BAD + "\n" + records(20, start=15))
    out, err = run(str(path), "--batch-size", "3", "--no-progress", jobs=2)
    assert "41 records" in out and "34 imported, 6 duplicates skipped, 1 refused" in out
    assert Game.objects.count() == 34
    assert Game.objects.values("fingerprint").distinct().count() == 34
    assert PositionRow.objects.values("game").distinct().count() == 34
    assert "record 21 (line" in err
