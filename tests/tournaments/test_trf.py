"""TRF export: fixed columns, XXR, points equal the sum of the results."""

from __future__ import annotations

import pytest

from tournaments.pairing.trf import TrfGame, dump, from_history, load


def sample():
    return from_history(
        name="Autumn Swiss",
        rounds=2,
        entrants=[(1, "alice", 1700), (2, "bob", 1600), (3, "carol", 0)],
        history=[
            {1: TrfGame(2, "w", "1"), 2: TrfGame(1, "b", "0"), 3: TrfGame(None, "-", "U")},
            {1: TrfGame(3, "b", "="), 3: TrfGame(1, "w", "="), 2: TrfGame(None, "-", "U")},
        ],
        ranks={1: 1, 3: 2, 2: 3},
    )


def test_player_lines_use_the_trf_columns():
    text = dump(sample())
    assert "XXR 2" in text.splitlines()
    line = next(ln for ln in text.splitlines() if ln.startswith("001    1"))
    assert line[14:19] == "alice"
    assert line[48:52] == "1700"
    assert line[80:84] == " 1.5"
    assert line[85:89] == "   1"
    assert line[91:99] == "0002 w 1"
    assert line[101:109] == "0003 b ="


def test_round_trip_and_scores_equal_sum_of_results():
    parsed = load(dump(sample()))
    assert parsed.rounds == 2
    assert {p.start_rank: p.points for p in parsed.players} == {1: 1.5, 2: 1.0, 3: 1.5}


def test_reader_rejects_points_that_are_not_the_sum():
    text = dump(sample()).replace(" 1.5    1", " 2.5    1")
    with pytest.raises(ValueError):
        load(text)
