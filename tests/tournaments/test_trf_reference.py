"""The TRF export read as is by the reference FIDE Dutch engine (bbpPairings), with players who
withdrew and players who entered late: each round it pairs from the history before it must be
the round this server paired. Needs the engine's binary: set ``BBPPAIRINGS`` to its path."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from tests.factories import UserFactory
from tests.tournaments.support import finish_match_games, jobs_run, make_tournament
from tournaments import selectors, services
from tournaments.models import Entry, Match
from tournaments.trf_import import tournament_import_trf

ENGINE = os.environ.get("BBPPAIRINGS", "")

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not (ENGINE and Path(ENGINE).is_file()),
        reason="set BBPPAIRINGS to a bbpPairings binary to compare with the reference engine",
    ),
]


def reference_pairing(text: str, tmp_path: Path) -> list[tuple[int, int]]:
    """The reference engine's pairing of the round after the report: (white, black) by
    starting rank, (player, 0) for the PAB."""
    source, out = tmp_path / "in.trf", tmp_path / "out.txt"
    source.write_text(text)
    subprocess.run([ENGINE, "--dutch", str(source), "-p", str(out)], check=True, timeout=60)
    lines = out.read_text().split()
    pairs = list(zip(map(int, lines[1::2]), map(int, lines[2::2]), strict=True))
    return sorted(pairs)


def our_pairing(t, number: int) -> list[tuple[int, int]]:
    rank = {e.user_id: e.seed for e in Entry.objects.filter(tournament=t)}
    rows = Match.objects.filter(tournament=t, round__number=number)
    return sorted(
        (rank[m.player1_id], rank[m.player2_id] if m.player2_id else 0)
        for m in rows
        if m.player2_id is not None or m.result == "bye"
    )


@pytest.mark.parametrize("seed", range(30))
def test_every_round_paired_from_the_export_by_the_reference_engine_is_ours(seed, tmp_path):
    rng = random.Random(seed)
    t = make_tournament(
        players=rng.randrange(9, 21),
        rounds=6,
        late_entries=True,
        late_entry_points=rng.choice([0, 0.5, 1]),
        initial_colour=rng.choice(["white", "black"]),
    )
    for _ in range(1, 7):
        t.refresh_from_db()
        if t.status != "running":
            break
        if rng.random() < 0.5 and services.late_entry_open(t):  # someone enters late
            services.tournament_join(tournament_id=t.pk, user=UserFactory())
        if rng.random() < 0.3:  # someone leaves
            active = Entry.objects.filter(tournament=t, status="active").order_by("?").first()
            services.tournament_withdraw(tournament_id=t.pk, user=active.user)
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, rng.choice(["player1", "player2", "draw"]))
        services.sweep()
    t.refresh_from_db()
    for number in range(2, t.current_round + 1):
        text = selectors.trf_text(t, after_round=number - 1)
        assert reference_pairing(text, tmp_path) == our_pairing(t, number), f"round {number}"


@pytest.mark.parametrize("seed", range(1, 21))
def test_events_the_reference_engine_generates_import_check_and_continue_as_it_pairs(
    seed, tmp_path
):
    """Its random events (forfeits, double forfeits, byes, absences) are imported; exported
    again, its checker finds every round right; the history before each round, imported, is
    paired here as the reference engine pairs it."""
    generated = tmp_path / "generated.trf"
    subprocess.run(
        [ENGINE, "--dutch", "-g", "-o", str(generated), "-s", str(seed)], check=True, timeout=60
    )
    organiser = UserFactory()
    event = tournament_import_trf(organiser=organiser, text=generated.read_text())
    assert event.status == "finished"
    exported = tmp_path / "exported.trf"
    exported.write_text(selectors.trf_text(event))
    check = subprocess.run(
        [ENGINE, "--dutch", str(exported), "-c"], capture_output=True, text=True, timeout=60
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert all("Round #" in line for line in check.stdout.splitlines() if line.strip()), (
        check.stdout
    )
    for after in range(1, event.rounds):
        text = selectors.trf_text(event, after_round=after)
        part = tournament_import_trf(organiser=organiser, text=text)
        with jobs_run():  # the pairing job runs as a worker runs it
            services.tournament_next_round(tournament_id=part.pk, user=organiser)
        assert our_pairing(part, after + 1) == reference_pairing(text, tmp_path), f"round {after}"
