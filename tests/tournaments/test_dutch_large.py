"""The FIDE Dutch engine on big fields: rounds whose search used to run out of its node budget
(and silently fell back to the best pairing found so far) are paired exactly and quickly, and a
search that cannot finish raises PairingTooHard instead of approximating.

The events are built from a seed: a 1,001-player Swiss in which some players enter late (their
first rounds unplayed), paired round by round by the engine with random results.
"""

from __future__ import annotations

import random

import pytest

from tournaments.pairing import PairingError
from tournaments.pairing.dutch import (
    BLACK,
    WHITE,
    PairingTooHard,
    PlayedPair,
    RoundRecord,
    colour_preference,
    pair_round,
    players_from_history,
)

ROUNDS = 9


def late_entrant_event(players, late, join_round, upto, seed, *, late_points=0, last_tpns=True):
    """The pairing cards of round ``upto`` of a ``players``-player event in which ``late``
    players (the last TPNs, or TPNs drawn from the seed) miss the rounds before ``join_round``
    (``late_points`` each: 0 for an absence, 1 for a half-point bye); the rounds before are
    paired by the engine and played with random results."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    latecomers = set(ids[-late:]) if last_tpns else set(rng.sample(ids, late))
    entrants = [(i, i) for i in ids]
    history: list[RoundRecord] = []
    for number in range(1, upto + 1):
        cards = [
            card
            for card in players_from_history(entrants, history)
            if number >= join_round or card.id not in latecomers
        ]
        if number == upto:
            return cards
        result = pair_round(cards, round_number=number, total_rounds=ROUNDS)
        pairs = []
        for white, black in result.pairs:
            x = rng.random()
            pairs.append(PlayedPair(white, black, 2 if x < 0.4 else 0 if x < 0.8 else 1))
        byes = ((result.bye, 2),) if result.bye is not None else ()
        if number < join_round:
            byes += tuple((pid, late_points) for pid in sorted(latecomers))
        history.append(RoundRecord(tuple(pairs), byes, result.bye))
    raise AssertionError("upto must be at least 1")


def check_round(cards, result):
    """Everybody paired once (one PAB for an odd field), no rematch, no second PAB."""
    by_id = {card.id: card for card in cards}
    seen = [player for pair in result.pairs for player in pair]
    if result.bye is not None:
        seen.append(result.bye)
        assert not by_id[result.bye].had_bye
    assert sorted(seen) == sorted(by_id)
    for white, black in result.pairs:
        assert black not in by_id[white].opponents


def denied(cards, result, score):
    """Pairs of two players on ``score`` (half points) whose colour preferences are not both
    granted."""
    by_id = {card.id: card for card in cards}
    count = 0
    for white, black in result.pairs:
        if by_id[white].points2 == by_id[black].points2 == score:
            white_wants = colour_preference(by_id[white].colours)[0]
            black_wants = colour_preference(by_id[black].colours)[0]
            count += white_wants == BLACK or black_wants == WHITE
    return count


@pytest.fixture(scope="module")
def late_entrants_round_2():
    # 976 players pair round 1; 25 more (the last TPNs) enter in round 2 with round 1 unplayed:
    # 1,001 players, so one gets the PAB. It goes to the lowest bracket (415 players on 0
    # points), and by C9 to a player without an unplayed round -- the late entrants sit at the
    # bottom of it, where the search used to look first and run out of nodes (250,000 nodes,
    # several seconds, then the PAB to a late entrant: "approximate").
    return late_entrant_event(1001, 25, 2, 2, seed=2)


def test_a_1000_player_round_gives_the_pab_to_a_player_without_an_unplayed_round(
    late_entrants_round_2,
):
    cards = late_entrants_round_2
    result = pair_round(cards, round_number=2, total_rounds=ROUNDS)
    assert not result.approximate and not result.relaxed
    check_round(cards, result)
    pab = next(card for card in cards if card.id == result.bye)
    assert pab.colours == ("b",) or pab.colours == ("w",)  # played round 1: no unplayed round
    assert pab.points2 == 0 and not pab.had_bye
    # the colour preferences can all be granted in that bracket (C12), and are
    assert denied(cards, result, 0) == 0
    # it is a hard bracket (the quick search ran out), settled in a few thousand nodes
    assert result.hard_brackets >= 1
    assert result.search_nodes < 50_000


def test_the_search_guard_raises_pairing_too_hard_instead_of_approximating(
    late_entrants_round_2,
):
    with pytest.raises(PairingTooHard, match="search nodes") as raised:
        pair_round(late_entrants_round_2, round_number=2, total_rounds=ROUNDS, node_budget=500)
    assert isinstance(raised.value, PairingError)  # callers that catch PairingError see it


def test_a_big_homogeneous_bracket_grants_every_colour_preference_it_can():
    # Round 8: 161 players on 3 points (80 prefer white, 81 black, one floater). Every pair can
    # grant both preferences, and the floater must be neither of the two who floated down in
    # the rounds before (C14, C16). The search used to run out of nodes here and keep a
    # pairing that denied 38 preferences.
    cards = late_entrant_event(1001, 40, 3, 8, seed=2, late_points=1, last_tpns=False)
    result = pair_round(cards, round_number=8, total_rounds=ROUNDS)
    assert not result.approximate
    check_round(cards, result)
    assert denied(cards, result, 6) == 0
    assert result.search_nodes < 50_000


def test_the_pab_goes_past_late_entrants_holding_the_bottom_of_a_heterogeneous_bracket():
    # Round 7: the last bracket has an MDP and 18 residents, 15 of them late entrants with four
    # unplayed rounds; only the three others may take the PAB (C9), and the one who does must
    # leave the colours fit (C12). This needs an exchange between S1 and S2.
    cards = late_entrant_event(1001, 101, 5, 7, seed=1)
    result = pair_round(cards, round_number=7, total_rounds=ROUNDS)
    assert not result.approximate
    check_round(cards, result)
    pab = next(card for card in cards if card.id == result.bye)
    assert None not in pab.colours
    assert result.search_nodes < 50_000
