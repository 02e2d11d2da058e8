"""Record the reference FIDE Dutch engine's answers that ``test_trf_reference_recorded.py``
replays: TRF reports of Swiss events in progress, each with the pairing bbpPairings makes of
the round after it. Needs the engine (built from its public source); from the repository root:

    BBPPAIRINGS=/path/to/bbpPairings.exe env -u DATABASE_URL -u REDIS_URL .venv/bin/python \\
        -m pytest -q -s -p no:randomly tests/tournaments/data/record_reference.py

It rewrites ``reference_pairings.jsonl.gz`` here, one case a line: ``case`` (its name), ``trf``
(the report, as this server exports it) and ``pairs`` (the reference engine's pairing of the
next round: ``[white, black]`` by starting rank, ``[player, 0]`` for the PAB).

The events are of two kinds. *generated*: the engine's own random events (its ``-g`` mode,
with random player counts, rounds, draws, forfeits, withdrawals and half-point byes), imported
here and exported as they stood before each round. *played*: events played on this server
(late entries with 0, 0.5 or 1 point, withdrawals that forfeit games in progress, byes asked
for ahead of time, round 1's too, either initial colour), exported before each round; the
recorder also lists the rounds that the reference engine pairs otherwise than this server did
as the event went on (none, since round 1's colours count the players taking part, as the
engine does: the cases that showed it are the test's ``EFFECTIVE_NUMBERS``). Recorded with bbpPairings v6.0.0 (commit 16a000f, its 2025 Dutch rules);
the same engine records the same cases (only the dates in the reports change).
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from tests.factories import UserFactory
from tests.tournaments.reference_cases import REFERENCE_PAIRINGS
from tests.tournaments.support import (
    finish_match_games,
    make_tournament,
    pairing_by_rank,
)
from tournaments import selectors, services
from tournaments.models import Entry, Match, Tournament
from tournaments.trf_import import tournament_import_trf

ENGINE = os.environ.get("BBPPAIRINGS", "")
GENERATED_EVENTS = 36
PLAYED_EVENTS = 24

pytestmark = pytest.mark.django_db


def reference_pairing(text: str, work: Path) -> list[list[int]]:
    """The reference engine's pairing of the round after the report, sorted."""
    source, out = work / "in.trf", work / "out.txt"
    source.write_text(text)
    subprocess.run([ENGINE, "--dutch", str(source), "-p", str(out)], check=True, timeout=60)
    numbers = list(map(int, out.read_text().split()))
    return sorted([w, b] for w, b in zip(numbers[1::2], numbers[2::2], strict=True))


def generator_config(rng: random.Random) -> tuple[int, str]:
    """Players and the engine's random-event settings: each kind of incident at a random
    rate, or none of it."""
    players = rng.randrange(5, 41)
    rounds = rng.randint(3, min(11, players - 1))
    lines = [f"PlayersNumber={players}", f"RoundsNumber={rounds}"]
    lines.append(f"DrawPercentage={rng.choice([0, 10, 25, 40, 60])}")
    for key, low, high in (
        ("ForfeitRate", 4, 40),
        ("RetiredRate", 3, 20),
        ("HalfPointByeRate", 3, 20),
    ):
        if rng.random() < 0.6:
            lines.append(f"{key}={rng.randint(low, high)}")
    return players, "\n".join(lines) + "\n"


def generated_cases(seed: int, work: Path) -> list[dict]:
    rng = random.Random(seed)
    organiser = UserFactory()
    for attempt in range(20):  # a setting the engine cannot pair to the end: another one
        players, config = generator_config(rng)
        (work / "config.txt").write_text(config)
        generated = work / "generated.trf"
        run = subprocess.run(
            [ENGINE, "--dutch", "-g", str(work / "config.txt"), "-o", str(generated)]
            + ["-s", str(seed * 100 + attempt)],
            capture_output=True,
            timeout=60,
        )
        if run.returncode == 0:
            break
    else:
        raise AssertionError(f"seed {seed}: the engine generated no event")
    event = tournament_import_trf(organiser=organiser, text=generated.read_text())
    assert event.status == "finished"
    cases = []
    for after in range(event.rounds):
        text = selectors.trf_text(event, after_round=after)
        cases.append(
            {
                "case": f"generated-{seed}-p{players}-r{after + 1}",
                "trf": text,
                "pairs": reference_pairing(text, work),
            }
        )
    return cases


def play(seed: int):
    """A Swiss played here with random incidents between and during its rounds."""
    rng = random.Random(10_000 + seed)
    rounds = rng.randint(3, 9)
    t = make_tournament(
        players=rng.randrange(max(5, rounds), 41),
        rounds=rounds,
        late_entries=rng.random() < 0.7,
        late_entry_points=rng.choice([0, 0.5, 1]),
        initial_colour=rng.choice(["white", "black"]),
        start=False,
    )
    Tournament.objects.filter(pk=t.pk).update(seed=seed)  # its draws (ties in seeding) too
    entries = list(Entry.objects.filter(tournament=t).order_by("pk"))
    for entry in rng.sample(entries, k=rng.choice([0, 0, 0, 1, 2])):  # byes in round 1
        services.bye_request(tournament_id=t.pk, user=entry.user, round_number=1)
    services.tournament_start(tournament_id=t.pk, user=t.organiser)
    for _ in range(rounds):
        t.refresh_from_db()
        if t.status != "running":
            break
        for _ in range(rng.choice([0, 0, 1, 2])):
            if services.late_entry_open(t):
                services.tournament_join(tournament_id=t.pk, user=UserFactory())
        active = list(Entry.objects.filter(tournament=t, status="active").order_by("seed"))
        for entry in rng.sample(active, k=min(len(active), rng.choice([0, 0, 1, 2]))):
            ahead = t.current_round + rng.randint(1, 2)
            if ahead <= t.rounds and not t.planned_byes.filter(user=entry.user).exists():
                services.bye_request(tournament_id=t.pk, user=entry.user, round_number=ahead)
        if rng.random() < 0.3:  # someone leaves: their game in progress is forfeited
            services.tournament_withdraw(tournament_id=t.pk, user=rng.choice(active).user)
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, rng.choice(["player1", "player2", "draw"]))
        services.sweep()
    t.refresh_from_db()
    return t


def played_cases(seed: int, work: Path, differences: list[str]) -> list[dict]:
    """The event's reports before each round; where the reference engine pairs the round
    otherwise than this server did while it was played, a line in ``differences``."""
    t = play(seed)
    players = Entry.objects.filter(tournament=t).count()
    cases = []
    for number in range(1, t.current_round + 1):
        text = selectors.trf_text(t, after_round=number - 1)
        pairs = reference_pairing(text, work)
        name = f"played-{seed}-p{players}-r{number}"
        if pairs != pairing_by_rank(t, number):
            differences.append(f"{name}: {pairing_by_rank(t, number)} here, {pairs} reference")
        cases.append({"case": name, "trf": text, "pairs": pairs})
    return cases


@pytest.mark.skipif(not ENGINE, reason="set BBPPAIRINGS to a bbpPairings binary")
def test_record(tmp_path):
    cases, differences = [], []
    for seed in range(1, GENERATED_EVENTS + 1):
        cases += generated_cases(seed, tmp_path)
    for seed in range(1, PLAYED_EVENTS + 1):
        cases += played_cases(seed, tmp_path, differences)
    with gzip.GzipFile(REFERENCE_PAIRINGS, "wb", mtime=0) as out:
        for case in cases:
            out.write(json.dumps(case, separators=(",", ":")).encode() + b"\n")
    print(f"{len(cases)} cases written to {REFERENCE_PAIRINGS}")
    if differences:
        print("The reference engine pairs these rounds otherwise than this server did:")
        print("\n".join(differences))
