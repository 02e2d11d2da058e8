"""The README and the API guide, followed as a newcomer would: the README's two commands are the
ones the tests and CI run; then start the embedded default with ``manage.py serve`` (SQLite and a
folder broker, with a real Celery worker and beat) and run the curl walkthroughs of
``docs/api.md`` as written against it."""

from __future__ import annotations

import ast
import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.servers import run_walkthrough, start_embedded, stop_server
from tests.walkthroughs import API_GUIDE, walkthrough

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SETUP = "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && "


def readme_commands() -> list[str]:
    """The shell blocks of the README's section "The two commands", in order."""
    section = re.search(r"^## The two commands\n(.*?)(?=^## )", README, re.S | re.M)
    assert section, "README has no section 'The two commands'"
    return re.findall(r"```sh\n(.*?)\n```", section.group(1), re.S)


def test_readme_first_command_sets_up_and_serves_the_embedded_default():
    first = readme_commands()[0]
    assert first == SETUP + ".venv/bin/python manage.py serve"
    # The server the walkthroughs below run against is started the same way.
    assert '"manage.py", "serve"' in (ROOT / "tests" / "servers.py").read_text()


def test_readme_second_command_is_the_test_suite_ci_runs():
    second = readme_commands()[1]
    assert second.startswith(SETUP + ".venv/bin/python -m pytest"), second
    test_command = second.removeprefix(SETUP)
    ci = (ROOT / ".ci" / "run").read_text()
    # CI may add reporting options (``--durations``) after it, nothing that selects tests.
    assert re.search(rf"^{re.escape(test_command)}( --durations=\d+)?$", ci, re.M), (
        f"CI does not run the README's test command {test_command!r}"
    )


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory):
    if shutil.which("curl") is None:  # pragma: no cover - curl is on every CI machine
        pytest.skip("curl is not installed")
    var_dir = tmp_path_factory.mktemp("var")
    # Fresh: the README's first command migrates an empty folder before it serves.
    proc, site = start_embedded(
        var_dir, fresh=True, SWEEP_INTERVAL_SECONDS="2", PYTHONUNBUFFERED="1"
    )
    base = f"{site}/api"
    yield {"base": base, "workdir": var_dir, "proc": proc}
    stop_server(proc)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


SECTIONS = ("play", "timed", "ratings", "tournament", "trf", "go", "computer", "analysis", "live")


def test_every_walkthrough_of_the_api_guide_is_run_here():
    assert re.findall(r"<!-- walkthrough:(\w+) -->", API_GUIDE) == list(SECTIONS)


@pytest.fixture(scope="module")
def walkthrough_output(embedded_server) -> dict[str, str]:
    """Run every walkthrough of the API guide, in order, in one shell (later ones reuse the variables of
    the first), and split what it prints by section."""
    script = "\n".join(f"echo '=== {name}'\n{walkthrough(name)}" for name in SECTIONS)
    out = run_walkthrough(
        script, base=embedded_server["base"], workdir=embedded_server["workdir"], timeout=300
    )
    parts = re.split(r"^=== (\w+)$", out, flags=re.M)
    return {name: text.strip() for name, text in zip(parts[1::2], parts[2::2], strict=True)}


def test_api_guide_play_walkthrough_plays_a_game_to_five(walkthrough_output, embedded_server):
    out = walkthrough_output["play"]
    assert "stale_ply" in out
    assert "A7 is already taken" in out
    assert "finished five ['alice']" in out
    assert '[Game "Pente"]' in out and "O10" in out and '[Result "1-0"]' in out
    svg = (embedded_server["workdir"] / "board.svg").read_text()
    assert "<svg" in svg


def test_api_guide_timed_walkthrough_loses_on_time_by_the_embedded_worker(walkthrough_output):
    out = walkthrough_output["timed"]
    # The timer rule: no clock runs before Bob's first stone; his start window is the deadline.
    assert out.splitlines()[0].startswith("speed [3000, 3000] False True")
    assert "finished timeout ['alice']" in out


def test_api_guide_ratings_walkthrough_shows_the_rankings(walkthrough_output):
    out = walkthrough_output["ratings"]
    assert "finished alice" in out
    assert "[(1, 'alice', 1800.0), (2, 'bob', 1400.0)]" in out.replace("1800,", "1800.0,").replace(
        "1400)", "1400.0)"
    )
    assert "rating.svg written" in out


def test_api_guide_tournament_walkthrough_runs_to_its_final_standings(walkthrough_output):
    out = walkthrough_output["tournament"]
    # Started: round 1 of the knockout is in play, its two matches listed from the rounds page.
    assert re.search(r"^running 1$", out, re.M), out
    assert re.search(r"^\[\('W1-1', '\w+', '\w+'\), \('W1-2', '\w+', '\w+'\)\]$", out, re.M), out
    champion = re.search(r"^finished (\w+)$", out, re.M)
    assert champion, out
    # The standings page: the final flag, then the rows (the champion first with 2 wins).
    assert f"True [(1, '{champion.group(1)}', 2.0), " in out
    assert "bracket.svg written" in out


def test_api_guide_trf_walkthrough_imports_exports_and_finishes_an_event(walkthrough_output):
    out = walkthrough_output["trf"].splitlines()
    assert out[0] == "True running 2 3"
    assert out[1] == "exported as imported"
    assert out[2] == "3"  # round 3 paired here
    beaten = [line for line in out if " beat " in line]
    assert len(beaten) == 3  # six players present: three games; Leo Faure is left out
    assert not any("Faure" in line for line in beaten)
    assert out[3 + len(beaten)] == "finished"
    assert out[-2].startswith("[(1, '") and out[-1] == "7"


def test_api_guide_go_walkthrough_counts_a_9x9_game_and_writes_its_sgf(walkthrough_output):
    out = walkthrough_output["go"]
    assert "preview 36.0 43.5 ['B5']" in out, out  # the count previewed while marking
    assert "finished score 36.0 43.5 ['B5']" in out.replace(" 36 ", " 36.0 "), out
    assert "RE[W+7.5]" in out


def test_api_guide_computer_walkthrough_gets_replies_ratings_and_filled_seats(walkthrough_output):
    lines = walkthrough_output["computer"].splitlines()
    assert lines[0] == "2 alice computer1"
    assert lines[1] == "2 1", "the hint is for alice (seat 1) at ply 2"
    lines.pop(1)
    # Against alice (1800 after the rated set): a new computer's win counts (1600 + 1800) / 2 + 200.
    assert lines[1] == "[('computer1', 1900.0)]", "the resigned game moved computer1's rating"
    assert lines[-1] == "accepted ['bob', 'computer2', 'computer3']"


def test_api_guide_analysis_walkthrough_judges_every_move_of_a_finished_game(walkthrough_output):
    status, last_plies, summary = walkthrough_output["analysis"].splitlines()
    assert status in ("pending", "running", "done")
    assert ast.literal_eval(last_plies)[-1][0] == 9, walkthrough_output["analysis"]
    assert ast.literal_eval(summary)[0][0] == "alice"


def test_api_guide_live_walkthrough_follows_a_challenge_and_a_move_as_they_happen(
    walkthrough_output,
):
    bob, game, online, chat = walkthrough_output["live"].splitlines()
    # Bob's three-player game with the computers goes on meanwhile: its your_turn events may
    # come first. Of this challenge's events, the invitation comes first.
    kinds = bob.split()
    assert [k for k in kinds if k.startswith("challenge_")][0] == "challenge_received"
    assert {"your_turn", "challenge_accepted", "game_started"} <= set(kinds)
    assert game == "move A1 alice"
    assert online == "['bob']"
    assert chat == "alice hello room"


def test_stopping_serve_with_sigterm_stops_its_celery_worker_too(
    embedded_server, walkthrough_output
):
    """Runs last: a process manager's SIGTERM to ``serve`` alone must not orphan the worker."""
    proc = embedded_server["proc"]
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    deadline = time.monotonic() + 20
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _group_alive(proc.pid), "the Celery worker outlived manage.py serve"
