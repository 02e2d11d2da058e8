"""``manage.py replay``: one JSON line per record, non-zero exit on illegal moves, no database."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).parent / "data"

GOOD = """\
[Game "Pente"]
[Rated "Y"]
[Result "0-1"]

1. K10 A1 2. K13 A3 3. K12 A5 4. K11 A7 5. K14 0-1

[Game "Keryo-Pente"]
[Rated "N"]

1. K10 J10 2. L10 A1 3. M10 N10 *
"""

ILLEGAL = """\
[Game "Pente"]
[Rated "Y"]

1. K10 J10 2. L10 M10 *

[Game "Gomoku"]

1. K10 L11 *
"""


def run(*args: str, stdin: str | None = None) -> tuple[list[dict], CommandError | None]:
    out = io.StringIO()
    error = None
    options = {"stdout": out}
    if stdin is not None:
        options["stdin"] = io.StringIO(stdin)
    try:
        call_command("replay", *args, **options)
    except CommandError as exc:
        error = exc
    return [json.loads(line) for line in out.getvalue().splitlines()], error


def test_prints_one_json_line_per_record_from_a_file(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text(GOOD)
    lines, error = run(str(path))
    assert error is None
    assert [line["game"] for line in lines] == ["Pente", "Keryo-Pente"]
    pente, keryo = lines
    assert pente["plies"] == 9
    assert pente["status"] == "finished"
    assert pente["winner"] == 1  # from the moves; the Result header says 0-1
    assert pente["captures"] == [0, 0]
    assert len(pente["board"]) == 19 and all(len(row) == 19 for row in pente["board"])
    assert pente["board"][9][9] == "1"  # K10
    assert keryo["captures"] == [0, 3]
    assert keryo["status"] == "in_progress"
    assert keryo["winner"] is None


def test_reads_standard_input_with_a_dash():
    lines, error = run("-", stdin=GOOD)
    assert error is None
    assert len(lines) == 2


def test_illegal_move_prints_an_error_object_and_exits_non_zero_after_all_records(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(ILLEGAL)
    lines, error = run(str(path))
    assert error is not None and error.returncode != 0
    assert lines[0] == {
        "game": "Pente",
        "error": {
            "ply": 3,
            "move": "L10",
            "code": "tournament_rule",
            "detail": lines[0]["error"]["detail"],
        },
    }
    assert lines[1]["game"] == "Gomoku" and "error" not in lines[1]


def test_malformed_text_prints_the_parse_error_and_fails(tmp_path):
    path = tmp_path / "broken.txt"
    path.write_text('[Game "Pente"]\n[Site Pente.org]\n')
    lines, error = run(str(path))
    assert error is not None and error.returncode == 2
    assert lines == [
        {"error": {"code": "bad_header", "detail": lines[0]["error"]["detail"], "line": 2}}
    ]


def test_missing_file_fails_cleanly(tmp_path):
    _, error = run(str(tmp_path / "nope.txt"))
    assert error is not None and error.returncode == 2


def test_sample_data_file_replays_cleanly():
    lines, error = run(str(DATA / "games.txt"))
    assert error is None, lines
    assert len(lines) >= 8


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_subprocess_runs_without_a_database(tmp_path, source):
    path = tmp_path / "games.txt"
    path.write_text(GOOD + "\n" + ILLEGAL)
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "pente_site.settings",
        # Nothing listens here: a command that touched the database would fail.
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
    }
    args = [sys.executable, "manage.py", "replay", str(path) if source == "file" else "-"]
    proc = subprocess.run(
        args,
        cwd=ROOT,
        env=env,
        input=None if source == "file" else path.read_text(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["game"] for line in lines] == ["Pente", "Keryo-Pente", "Pente", "Gomoku"]
    assert "error" in lines[2]
    assert proc.returncode != 0
    assert "could not be replayed" in proc.stderr


@pytest.mark.parametrize("text", ["", "\n  \n", "% only a comment\n"])
def test_input_without_records_is_an_error_with_status_2(text):
    lines, error = run("-", stdin=text)
    assert lines == []
    assert error is not None and error.returncode == 2
    assert "no records found" in str(error)


def _subprocess_env() -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "pente_site.settings",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
    }


def test_empty_file_prints_no_records_found_on_stderr_and_exits_2(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("")
    proc = subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "no records found" in proc.stderr


def test_reader_closing_the_pipe_early_stops_quietly(tmp_path):
    # Far more output than a pipe buffer holds, so the command is still writing when the
    # reader goes away (like ``replay games.txt | head -1``).
    path = tmp_path / "many.txt"
    path.write_text((GOOD + "\n") * 200)
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        env=_subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert json.loads(first)["game"] == "Pente"
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
    assert stderr == ""
    assert proc.returncode == 141
