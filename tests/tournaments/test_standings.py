"""Points and tie-breaks."""

from __future__ import annotations

from tournaments.pairing.standings import Bye, Result, round_robin_standings, swiss_standings


def test_swiss_tiebreaks_buchholz_cut1_buchholz_sonneborn_berger():
    rounds = [
        [Result("a", "b", 1), Result("c", "d", 0.5)],
        [Result("a", "c", 0), Result("b", "d", 1)],
    ]
    rows = {r.player: r for r in swiss_standings(["a", "b", "c", "d"], rounds)}
    assert rows["c"].points == 1.5 and rows["a"].points == 1
    # a: opponents b (1) and c (1.5): Buchholz 2.5, cut 1 = 1.5, SB = 1 (beat b)
    assert rows["a"].tiebreaks == {
        "buchholz_cut1": 1.5,
        "buchholz": 2.5,
        "sonneborn_berger": 1.0,
        "wins": 1,
    }
    ranking = [r.player for r in swiss_standings(["a", "b", "c", "d"], rounds)]
    assert ranking[0] == "c"
    assert ranking[1:3] == ["a", "b"]  # a and b tied on 1 point; a has the better cut-1


def test_bye_counts_own_score_as_virtual_opponent():
    rows = {
        r.player: r for r in swiss_standings(["a", "b", "c"], [[Result("a", "b", 1), Bye("c")]])
    }
    assert rows["c"].points == 1 and rows["c"].tiebreaks["buchholz"] == 1


def test_round_robin_head_to_head_breaks_a_tie():
    rounds = [
        [Result("a", "b", 1), Result("c", "d", 1)],
        [Result("a", "c", 0), Result("b", "d", 1)],
        [Result("a", "d", 1), Result("b", "c", 1)],
    ]
    rows = round_robin_standings(["a", "b", "c", "d"], rounds)
    assert [r.points for r in rows] == [2, 2, 2, 0]
    assert rows[-1].player == "d" and rows[-1].rank == 4
    # one number type for everyone, tied or not (d is tied with nobody: 0.0)
    assert all(type(r.tiebreaks["head_to_head"]) is float for r in rows)


def test_equal_players_share_a_rank():
    rows = swiss_standings(["a", "b"], [[Result("a", "b", 0.5)]])
    assert [r.rank for r in rows] == [1, 1]
