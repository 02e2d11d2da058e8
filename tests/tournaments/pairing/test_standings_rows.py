"""Standings row by row: every tie-break, the counts of wins, draws and losses, a bye of half a
point, and ranks shared only on equal tie-breaks. The figures are worked out by hand in the
comments; written to kill the mutants ``bench/mutation.py`` found alive."""

from __future__ import annotations

from tournaments.pairing.standings import Bye, Result, Row, round_robin_standings, swiss_standings


def test_a_swiss_table_row_by_row():
    rounds = [
        [Result("a", "b", 1), Result("c", "d", 0.5), Bye("e")],
        [Result("a", "c", 0), Result("b", "e", 1), Bye("d", 0.5)],
        [Result("e", "a", 0.5), Result("d", "b", 0)],
    ]
    # points: a 1.5, b 2, c 1.5, d 0.5 + 0.5 bye = 1, e 1 bye + 0.5 = 1.5
    # a met b (2), c (1.5), e (1.5): Buchholz 5, cut 1 3.5, SB 2 + 0.75 = 2.75
    # e met b (2), a (1.5) and had a bye (own 1.5): Buchholz 5, cut 1 3.5, SB 0.75
    assert swiss_standings(["a", "b", "c", "d", "e"], rounds) == [
        Row(1, "b", 2.0, {"buchholz_cut1": 3.0, "buchholz": 4.0, "sonneborn_berger": 2.5, "wins": 2}, 3, 2, 0, 1),
        Row(2, "a", 1.5, {"buchholz_cut1": 3.5, "buchholz": 5.0, "sonneborn_berger": 2.75, "wins": 1}, 3, 1, 1, 1),
        Row(3, "e", 1.5, {"buchholz_cut1": 3.5, "buchholz": 5.0, "sonneborn_berger": 0.75, "wins": 0}, 2, 0, 1, 1),
        Row(4, "c", 1.5, {"buchholz_cut1": 1.5, "buchholz": 2.5, "sonneborn_berger": 2.0, "wins": 1}, 2, 1, 1, 0),
        Row(5, "d", 1.0, {"buchholz_cut1": 3.5, "buchholz": 4.5, "sonneborn_berger": 0.75, "wins": 0}, 2, 0, 1, 1),
    ]  # fmt: skip


def test_a_round_robin_table_row_by_row():
    rounds = [
        [Result("a", "b", 1), Result("c", "d", 0.5)],
        [Result("a", "c", 0.5), Result("b", "d", 1)],
        [Result("a", "d", 0), Result("b", "c", 1)],
    ]
    # a and d tie on 1.5 points; a's SB (b 2 + c/2) 2.5 beats d's (a 1.5 + c/2) 2.0.
    assert round_robin_standings(["a", "b", "c", "d"], rounds) == [
        Row(1, "b", 2.0, {"sonneborn_berger": 2.5, "wins": 2, "head_to_head": 0.0}, 3, 2, 0, 1),
        Row(2, "a", 1.5, {"sonneborn_berger": 2.5, "wins": 1, "head_to_head": 0.0}, 3, 1, 1, 1),
        Row(3, "d", 1.5, {"sonneborn_berger": 2.0, "wins": 1, "head_to_head": 0.0}, 3, 1, 1, 1),
        Row(4, "c", 1.0, {"sonneborn_berger": 1.5, "wins": 0, "head_to_head": 0.0}, 3, 0, 2, 1),
    ]


def test_head_to_head_counts_only_games_among_the_tied():
    # a three-way cycle: 1 point, SB 1.0 and 1 point among the tied each; one shared rank.
    rounds = [[Result("a", "b", 1)], [Result("b", "c", 1)], [Result("c", "a", 1)]]
    rows = round_robin_standings(["a", "b", "c"], rounds)
    assert [(r.rank, r.player, r.tiebreaks["head_to_head"]) for r in rows] == [
        (1, "a", 1.0),
        (1, "b", 1.0),
        (1, "c", 1.0),
    ]


def test_a_head_to_head_win_ranks_the_winner_first_among_equals():
    rounds = [
        [Result("a", "b", 0), Result("c", "d", 0)],
        [Result("a", "c", 0.5), Result("b", "d", 0.5)],
        [Result("a", "d", 0), Result("b", "c", 0)],
    ]
    # b and c: 1.5 points and SB 1.75 each; c beat b, so c ranks before b though listed after.
    rows = round_robin_standings(["a", "b", "c", "d"], rounds)
    assert [(r.rank, r.player, r.tiebreaks["head_to_head"]) for r in rows] == [
        (1, "d", 0.0),
        (2, "c", 1.0),
        (3, "b", 0.0),
        (4, "a", 0.0),
    ]


def test_a_player_met_only_in_the_history_still_gets_a_row():
    rows = swiss_standings(["a"], [[Result("a", "z", 0)], [Bye("y", 0.5)]])
    assert [(r.player, r.points, r.played) for r in rows] == [
        ("z", 1.0, 1),
        ("y", 0.5, 0),
        ("a", 0.0, 1),
    ]
    assert [r.rank for r in rows] == [1, 2, 3]


def test_equal_players_keep_the_given_order_and_share_the_rank():
    rows = swiss_standings(["b", "a"], [])
    assert [(r.rank, r.player, r.points, r.played) for r in rows] == [
        (1, "b", 0.0, 0),
        (1, "a", 0.0, 0),
    ]
    assert rows[0].tiebreaks == {
        "buchholz_cut1": 0.0,
        "buchholz": 0,
        "sonneborn_berger": 0,
        "wins": 0,
    }
    rows = round_robin_standings(["b", "a"], [])
    assert [(r.rank, r.player) for r in rows] == [(1, "b"), (1, "a")]


def test_a_result_gives_the_other_side_the_rest_of_the_point():
    assert Result("a", "b", 1).score_b == 0.0
    assert Result("a", "b", 0.5).score_b == 0.5
    assert Bye("a").points == 1.0


def test_unlisted_players_on_either_side_and_with_a_bye_are_counted_from_zero():
    rounds = [[Result("x", "a", 1), Bye("y")], [Result("x", "y", 0.5), Bye("z", 0.5)]]
    rows = {r.player: r for r in swiss_standings(["a"], rounds)}
    assert rows["x"].points == 1.5 and rows["x"].played == 2
    assert rows["y"].points == 1.5 and rows["y"].played == 1
    assert rows["z"].points == 0.5 and rows["z"].played == 0
    # x met a (0) and y (1.5), no bye: Buchholz 1.5; y met x (1.5) and had a bye (own 1.5): 3.0
    assert rows["x"].tiebreaks["buchholz"] == 1.5
    assert rows["y"].tiebreaks["buchholz"] == 3.0


def test_swiss_ties_on_cut_1_are_broken_by_full_buchholz():
    # a and c: 0 points, cut 1 0.0 (a's only opponent is cut); a's full Buchholz 1.5 (b, who
    # ends on 1.5) beats c's 0.0 (no game), so a ranks before c on it alone.
    rounds = [[Result("a", "b", 0)], [Result("d", "b", 0.5)]]
    rows = swiss_standings(["c", "a", "b", "d"], rounds)
    assert [(r.rank, r.player, r.tiebreaks["buchholz_cut1"], r.tiebreaks["buchholz"]) for r in rows] == [
        (1, "b", 0.5, 0.5),
        (2, "d", 0.0, 1.5),
        (3, "a", 0.0, 1.5),
        (4, "c", 0.0, 0),
    ]  # fmt: skip


def test_wins_break_a_tie_left_by_every_other_tie_break():
    # Found by search: in each table two players tie on points and every tie-break before wins,
    # and the one with more wins is listed after the other.
    swiss = [("a", "f", 0), ("a", "b", 0.5), ("a", "e", 0.5), ("d", "f", 0.5)]
    swiss += [("b", "c", 1), ("c", "e", 0), ("c", "f", 1)]
    rows = swiss_standings(list("abcdef"), [[Result(*r)] for r in swiss])
    assert [(r.rank, r.player) for r in rows] == [
        (1, "f"),
        (2, "b"),
        (2, "e"),
        (4, "c"),
        (5, "a"),
        (6, "d"),
    ]
    rr = [("c", "e", 0.5), ("b", "e", 0.5), ("a", "b", 0.5), ("b", "d", 0.5), ("a", "c", 0)]
    rows = round_robin_standings(list("abcdef"), [[Result(*r)] for r in rr])
    assert [(r.rank, r.player) for r in rows] == [
        (1, "c"),
        (2, "b"),
        (3, "e"),
        (4, "a"),
        (4, "d"),
        (6, "f"),
    ]


def test_players_met_only_in_the_history_come_after_the_given_players_among_equals():
    # All on 0 points and equal tie-breaks: one shared rank, the given players in their order,
    # then z (a zero-point bye, unlisted). z once took the first player's place in that order
    # and so stood between a and b.
    for standings in (swiss_standings, round_robin_standings):
        rows = standings(["a", "b"], [[Bye("z", 0.0)]])
        assert [(r.rank, r.player) for r in rows] == [(1, "a"), (1, "b"), (1, "z")], standings


def test_each_bye_counts_a_virtual_opponent_with_the_players_own_score():
    # Two byes of a point: 2 points, and Buchholz counts two virtual opponents on 2 points.
    (row,) = swiss_standings(["a"], [[Bye("a")], [Bye("a")]])
    assert row.points == 2.0 and row.tiebreaks["buchholz"] == 4.0
