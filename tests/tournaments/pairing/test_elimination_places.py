"""Places of a finished double elimination: two losses put a player out, later exits rank
higher (the grand final, then the losers' rounds from the last, then the winners' rounds), and
a double forfeit puts both players out at once, wherever it is; and the state of each match
as the bracket is resolved (waiting, ready, walkover, void). Written to kill the mutants
``bench/mutation.py`` found alive in ``tournaments/pairing/elimination.py``."""

from __future__ import annotations

import pytest

from tournaments.pairing.double_elimination import (
    double_elimination,
    drop_mask,
    drop_order,
    ordering_mask,
)
from tournaments.pairing.elimination import (
    BYE,
    BracketState,
    Slot,
    bracket_size,
    elimination_places,
    resolve,
    seed_order,
    single_elimination,
)


def favourites_win(n: int, **decided: str) -> BracketState:
    """A double elimination of ``n`` seeds played out, the better seed winning every match but
    those of ``decided`` (match key -> winner, or BYE for a double forfeit)."""
    matches = double_elimination(n)
    seeds = {s: f"p{s}" for s in range(1, n + 1)}
    winners = dict(decided)
    while ready := resolve(matches, seeds, winners).ready():
        for ms in ready:
            winners[ms.match.key] = min(ms.a, ms.b, key=lambda p: int(p[1:]))
    return resolve(matches, seeds, winners)


def test_in_double_elimination_a_player_is_out_after_his_second_loss_only():
    # p2 loses the winners' final to p1 and stays in; p3 and p4 lose twice in the losers'
    # bracket (p4 in L1, p3 in L2); p2 goes out at the grand final, his second loss.
    state = favourites_win(4)
    assert state.champion == "p1"
    assert elimination_places(state) == {"p1": 1, "p2": 2, "p3": 3, "p4": 4}


def test_a_double_forfeit_puts_both_out_below_every_player_knocked_out_later():
    # W1-1 (p1 v p8) is forfeited by both: they are out at once and share the last place, below
    # p7, who lost his first match in the winners' bracket and his second in L1.
    state = favourites_win(8, **{"W1-1": BYE})
    assert state.champion == "p2"
    assert elimination_places(state) == {
        "p2": 1,
        "p3": 2,  # out in the grand final
        "p4": 3,  # L4
        "p6": 4,  # L3
        "p5": 5,  # L2
        "p7": 6,  # L1
        "p1": 7,
        "p8": 7,
    }


def test_while_a_double_elimination_is_played_one_loss_gives_no_place_and_two_do():
    matches = double_elimination(4)
    seeds = {s: f"p{s}" for s in range(1, 5)}
    after_w1 = resolve(matches, seeds, {"W1-1": "p1", "W1-2": "p2"})
    assert elimination_places(after_w1) == {}  # p3 and p4 lost once: still in
    after_l1 = resolve(matches, seeds, {"W1-1": "p1", "W1-2": "p2", "L1-1": "p3"})
    assert elimination_places(after_l1) == {"p4": 4}  # his second loss; three still in


def rows(state: BracketState) -> list[tuple]:
    return [(ms.match.key, ms.a, ms.b, ms.status, ms.winner, ms.loser) for ms in state.matches]


def test_a_missing_seed_gives_a_walkover_and_two_give_a_void_match():
    state = resolve(single_elimination(4), {1: "p1"}, {})
    assert rows(state) == [
        ("W1-1", "p1", BYE, "walkover", "p1", BYE),
        ("W1-2", BYE, BYE, "void", BYE, BYE),
        ("W2-1", "p1", BYE, "walkover", "p1", BYE),
    ]
    assert state.champion == "p1" and state.finished


def test_a_match_waits_with_the_players_known_so_far_and_the_reset_waits_for_the_final():
    seeds = {s: f"p{s}" for s in range(1, 5)}
    state = resolve(double_elimination(4), seeds, {"W1-1": "p1"})
    assert rows(state) == [
        ("W1-1", "p1", "p4", "done", "p1", "p4"),
        ("W1-2", "p2", "p3", "ready", None, None),
        ("W2-1", "p1", None, "pending", None, None),
        ("L1-1", "p4", None, "pending", None, None),
        ("L2-1", None, None, "pending", None, None),
        ("GF1", None, None, "pending", None, None),
        ("GF2", None, None, "pending", None, None),
    ]
    state = resolve(double_elimination(4), seeds, {"W1-2": "p2"})
    assert rows(state)[2:4] == [
        ("W2-1", None, "p2", "pending", None, None),
        ("L1-1", None, "p3", "pending", None, None),
    ]
    played = {"W1-1": "p1", "W1-2": "p2", "W2-1": "p1", "L1-1": "p3", "L2-1": "p2"}
    state = resolve(double_elimination(4), seeds, played)
    assert rows(state)[-2:] == [
        ("GF1", "p1", "p2", "ready", None, None),
        ("GF2", None, None, "pending", None, None),
    ]
    # The winners' champion takes the final: no reset, which keeps the final's winner and loser.
    state = resolve(double_elimination(4), seeds, {**played, "GF1": "p1"})
    assert rows(state)[-1] == ("GF2", None, None, "void", "p1", "p2")


def test_the_final_decides_the_champion_and_whether_the_bracket_is_over():
    def outcome(matches, seeds, winners):
        state = resolve(matches, seeds, winners)
        return state.champion, state.finished

    two = {1: "p1", 2: "p2"}
    assert outcome([], {}, {}) == (None, False)  # no match: nothing decided
    assert outcome(single_elimination(2), two, {}) == (None, False)  # the final is to be played
    assert outcome(single_elimination(2), two, {"W1-1": "p2"}) == ("p2", True)
    assert outcome(single_elimination(2), {1: "p1"}, {}) == ("p1", True)  # a walkover
    # Nobody turns up for the final (both seeds missing, or a double forfeit): over, no champion.
    assert outcome(single_elimination(2), {}, {}) == (BYE, True)
    assert outcome(single_elimination(2), two, {"W1-1": BYE}) == (BYE, True)
    # Double elimination: the losers' champion p2 takes the first final, so the reset decides.
    seeds = {s: f"p{s}" for s in range(1, 5)}
    played = {"W1-1": "p1", "W1-2": "p2", "W2-1": "p1", "L1-1": "p3", "L2-1": "p2", "GF1": "p2"}
    assert outcome(double_elimination(4), seeds, played) == (None, False)
    assert outcome(double_elimination(4), seeds, {**played, "GF2": "p2"}) == ("p2", True)
    assert outcome(double_elimination(4), seeds, {**played, "GF2": BYE}) == (BYE, True)
    assert outcome(double_elimination(4), seeds, {**played, "GF1": "p1"}) == ("p1", True)


def test_a_double_forfeit_keeps_its_players_and_sends_a_bye_on():
    seeds = {s: f"p{s}" for s in range(1, 5)}
    state = resolve(double_elimination(4), seeds, {"W1-1": BYE})
    assert rows(state)[0] == ("W1-1", "p1", "p4", "double_forfeit", BYE, BYE)
    assert rows(state)[2] == ("W2-1", BYE, None, "pending", None, None)


def test_a_winner_who_did_not_play_the_match_is_refused_by_name():
    with pytest.raises(ValueError, match="^W1-1: the winner is not one of the players$"):
        resolve(single_elimination(2), {1: "p1", 2: "p2"}, {"W1-1": "p3"})


def test_an_ordering_of_the_losers_is_a_mask_for_a_power_of_two_of_them():
    assert [ordering_mask(name, 1) for name in ORDERINGS] == [0, 0, 0, 0, 0]  # one loser
    assert [ordering_mask(name, 2) for name in ORDERINGS] == [0, 1, 1, 0, 1]
    assert [ordering_mask(name, 8) for name in ORDERINGS] == [0, 7, 4, 3, 1]
    for count in (0, 3, 6, 12):
        with pytest.raises(ValueError, match="^count must be a power of two$"):
            ordering_mask("natural", count)
    with pytest.raises(ValueError, match="^unknown ordering 'sideways'$"):
        ordering_mask("sideways", 4)


ORDERINGS = ("natural", "reverse", "half_shift", "reverse_half_shift", "pair_flip")


@pytest.mark.parametrize("n", [4, 8, 16, 32])
def test_every_match_is_numbered_within_its_round_as_its_key_says(n):
    numbers: dict[tuple[str, int], list[int]] = {}
    for m in double_elimination(n):
        assert m.key == (f"GF{m.round}" if m.bracket == "GF" else f"{m.bracket}{m.round}-{m.index}")
        numbers.setdefault((m.bracket, m.round), []).append(m.index)
    assert all(found == list(range(1, len(found) + 1)) for found in numbers.values())
    assert numbers[("GF", 1)] == numbers[("GF", 2)] == [1]


def test_with_two_players_the_loser_of_the_only_match_is_the_losers_champion():
    w1, gf1, gf2 = double_elimination(2)
    assert (w1.key, gf1.key, gf2.key) == ("W1-1", "GF1", "GF2")
    assert gf1.a == gf2.a == Slot("winner", "W1-1")
    assert gf1.b == gf2.b == Slot("loser", "W1-1")


def test_a_drop_sends_each_loser_to_one_losers_match():
    assert drop_order(8, 2) == [1, 0] and drop_order(8, 3) == [0]
    assert drop_order(16, 2) == [3, 2, 1, 0] and drop_order(16, 3) == [0, 1]
    with pytest.raises(ValueError, match="^size must be a power of two$"):
        drop_mask(6, 2)
    for size, wb_round in ((2, 2), (8, 1), (8, 4)):
        with pytest.raises(ValueError, match=r"^the drops are of winners' rounds 2 \.\. k$"):
            drop_mask(size, wb_round)


def test_a_bracket_is_the_smallest_power_of_two_holding_the_players():
    assert [bracket_size(n) for n in (1, 2, 3, 4, 5, 9)] == [1, 2, 4, 4, 8, 16]
    assert seed_order(1) == [1] and seed_order(2) == [1, 2]
    for size in (0, 3, 6, 12):
        with pytest.raises(ValueError, match="^size must be a power of two$"):
            seed_order(size)
    with pytest.raises(ValueError, match="^an elimination bracket needs at least two players$"):
        single_elimination(1)


@pytest.mark.parametrize("n", [2, 5, 8, 13])
def test_every_single_elimination_match_is_numbered_within_its_round(n):
    numbers: dict[int, list[int]] = {}
    for m in single_elimination(n):
        assert m.key == f"W{m.round}-{m.index}"
        numbers.setdefault(m.round, []).append(m.index)
    assert all(found == list(range(1, len(found) + 1)) for found in numbers.values())
