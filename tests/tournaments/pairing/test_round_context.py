"""One round's context (``dutch/context.py``) against brute force and the independent reference
(``tests/tournaments/dutch_oracle.py``) on small random rounds: the facts read from each card,
compatibility (C1, C3, the PAB's C2/C5), completion (C4), the lowest PAB score (C5), the colours
of a pair (Art. 5.2) and a pair's share of the per-pair criteria. The whole-tournament tests
reach most of these only through the pairings they decide, where many a wrong answer is hidden
by another criterion. Written to kill the mutants ``bench/mutation.py`` left alive."""

from __future__ import annotations

import random
from bisect import bisect_left

import pytest

from tests.tournaments.dutch_oracle import Oracle
from tests.tournaments.pairing.random_rounds import completable_by_brute_force, random_cards
from tournaments.pairing.dutch.cards import BLACK, STRONG, WHITE, SwissPlayer
from tournaments.pairing.dutch.context import PAB, RoundContext
from tournaments.pairing.dutch.criteria import PairCost

SIDE = {"w": WHITE, "b": BLACK, None: 0}


def random_round(rng: random.Random, size: int, **options):
    """(cards, round_number, total_rounds) of a random round."""
    played = rng.randint(0, 4)
    round_number = played + 1
    total_rounds = round_number + rng.choice([-1, 0, 0, 1])
    return random_cards(rng, size, played, **options), round_number, total_rounds


def test_each_card_is_read_into_the_facts_of_its_rank():
    rng = random.Random(1)
    for _ in range(300):
        cards, round_number, total_rounds = random_round(rng, rng.randint(1, 9))
        used = {card.tpn for card in cards}
        idle = rng.sample([t for t in range(1, 30) if t not in used], rng.randint(0, 4))
        initial = rng.choice([WHITE, BLACK])
        ctx = RoundContext(
            cards,
            round_number=round_number,
            total_rounds=total_rounds,
            initial_colour=initial,
            idle_tpns=idle,
        )
        oracle = Oracle(cards, round_number=round_number, total_rounds=total_rounds)
        rank = {card.id: k for k, card in enumerate(cards)}
        assert ctx.size == len(cards)
        assert ctx.initial_colour == initial
        assert (ctx.relaxed, ctx.nodes, ctx.hard_brackets) == (False, 0, 0)
        final = round_number >= total_rounds
        for k, (card, player) in enumerate(zip(cards, ctx.players, strict=True)):
            preference, strength, difference = oracle.info[k]
            topscorer = final and card.points2 > round_number - 1
            assert player.score == card.points2
            assert player.tpn == card.tpn
            assert player.pairing_number == card.tpn - sum(1 for t in idle if t < card.tpn)
            assert player.topscorer == topscorer
            assert player.preference == SIDE[preference]
            assert player.strength == strength
            assert player.colour_difference == difference
            assert player.played_colours == tuple(c for c in card.colours if c)
            assert player.unplayed_games == card.colours.count(None)
            last, before = oracle.fl(k, 1), oracle.fl(k, 2)
            assert player.downfloated_last_round == (last == "down")
            assert player.upfloated_last_round == (last == "up")
            assert player.downfloated_two_rounds_ago == (before == "down")
            assert player.upfloated_two_rounds_ago == (before == "up")
            assert player.pab_eligible == (not card.had_bye)
            assert player.opponents == {rank[o] for o in card.opponents if o in rank}
            absolute = strength == 3 and not topscorer
            assert player.c3_colour == (SIDE[preference] if absolute else 0)
            assert player.pab_allowed is False


def scored_cards() -> list[SwissPlayer]:
    """Six random cards after two rounds, on 2, 1.5, 1, 1, 0.5 and 0 points."""
    cards = random_cards(random.Random(2), 6, 2)
    return [
        type(card)(card.id, card.tpn, points2, card.colours, card.opponents)
        for card, points2 in zip(cards, [4, 3, 2, 2, 1, 0], strict=True)
    ]


def test_the_topscorers_of_the_final_round_score_more_than_half_the_maximum():
    # Round 3 of 3: the maximum so far is 2 points (4 half points), half of it 1 point.
    cards = scored_cards()
    final = RoundContext(cards, round_number=3, total_rounds=3)
    assert [p.topscorer for p in final.players] == [True, True, False, False, False, False]
    earlier = RoundContext(cards, round_number=3, total_rounds=4)
    assert not any(p.topscorer for p in earlier.players)
    beyond = RoundContext(cards, round_number=4, total_rounds=3)
    assert [p.topscorer for p in beyond.players] == [True, False, False, False, False, False]


def test_absolutes_may_meet_in_the_relaxed_pass_or_beside_a_topscorer():
    # Round 3 of 3: the first two are topscorers (more than 1 point), the others are not.
    ctx = RoundContext(scored_cards(), round_number=3, total_rounds=3)
    assert ctx.absolutes_may_meet([0, 4]) and ctx.absolutes_may_meet([5, 1])
    assert not ctx.absolutes_may_meet([2, 3, 4, 5]) and not ctx.absolutes_may_meet([])
    ctx.relaxed = True
    assert ctx.absolutes_may_meet([2, 3, 4, 5]) and ctx.absolutes_may_meet([])


@pytest.mark.parametrize("relaxed", [False, True])
def test_two_players_are_compatible_exactly_as_the_rules_say(relaxed):
    rng = random.Random(3 + relaxed)
    for _ in range(200):
        cards, round_number, total_rounds = random_round(rng, rng.randint(2, 9), density=0.4)
        ctx = RoundContext(cards, round_number=round_number, total_rounds=total_rounds)
        ctx.relaxed = relaxed
        oracle = Oracle(cards, round_number=round_number, total_rounds=total_rounds)
        for player in ctx.players:
            player.pab_allowed = rng.random() < 0.5
        everyone = range(len(cards))
        for first in everyone:
            for second in everyone:
                if first == second:
                    expected = False
                elif relaxed:
                    expected = cards[second].id not in cards[first].opponents
                else:
                    expected = oracle.legal(first, second)
                assert ctx.compatible(first, second) == expected, (first, second)
            allowed = ctx.players[first].pab_allowed
            assert ctx.compatible(PAB, first) == allowed
            assert ctx.compatible(first, PAB) == allowed


def test_completion_is_exactly_an_exhaustive_pairing_with_the_pab_to_an_allowed_player():
    rng = random.Random(5)
    seen = set()
    for _ in range(250):
        cards, round_number, total_rounds = random_round(rng, rng.randint(1, 9), density=0.5)
        ctx = RoundContext(cards, round_number=round_number, total_rounds=total_rounds)
        ctx.relaxed = rng.random() < 0.3
        for player in ctx.players:
            player.pab_allowed = rng.random() < 0.4
        allowed = [player.pab_allowed for player in ctx.players]
        for _ in range(6):
            players = rng.sample(range(len(cards)), rng.randint(0, len(cards)))
            expected = completable_by_brute_force(players, ctx.compatible, allowed.__getitem__)
            assert ctx.completable(players) == expected, players
            assert ctx.completable(players) == expected  # the remembered answer
            seen.add((len(players) % 2, expected))
    assert seen == {(0, True), (0, False), (1, True), (1, False)}


def test_completions_are_remembered_until_forgotten():
    # 0 met 1 and 1 met 2: only 0-2 may meet, so the PAB must go to 1.
    cards = [
        SwissPlayer("a", 1, opponents=frozenset({"b"})),
        SwissPlayer("b", 2, opponents=frozenset({"a", "c"})),
        SwissPlayer("c", 3, opponents=frozenset({"b"})),
    ]
    ctx = RoundContext(cards, round_number=2, total_rounds=3)
    everyone = [0, 1, 2]
    assert not ctx.completable(everyone)  # nobody may take the PAB
    ctx.players[1].pab_allowed = True
    assert not ctx.completable(everyone)  # remembered
    ctx.forget_completions()
    assert ctx.completable(everyone)
    ctx.players[1].pab_allowed = False
    ctx.players[0].pab_allowed = True
    ctx.forget_completions()
    assert not ctx.completable(everyone)  # 1 and 2 cannot meet
    ctx.players[1].pab_allowed = True
    assert not ctx.completable(everyone)  # remembered
    ctx.forget_completions()
    assert ctx.completable(everyone)


def test_the_pab_score_limit_is_the_lowest_that_lets_the_round_be_completed():
    rng = random.Random(7)
    limits = set()
    for _ in range(250):
        size = rng.choice([1, 3, 5, 7, 9, 4])
        cards, round_number, total_rounds = random_round(rng, size, density=0.5, bye_rate=0.5)
        ctx = RoundContext(cards, round_number=round_number, total_rounds=total_rounds)
        expected, allowed = None, None
        for limit in sorted({card.points2 for card in cards}):
            allowed = [not card.had_bye and card.points2 <= limit for card in cards]
            if completable_by_brute_force(list(range(size)), ctx.compatible, allowed.__getitem__):
                expected = limit
                break
        assert ctx.limit_pab_score() == expected
        assert [p.pab_allowed for p in ctx.players] == allowed
        limits.add(expected is None)
    assert limits == {True, False}


@pytest.mark.parametrize("initial", [WHITE, BLACK])
def test_the_colours_of_a_pair_follow_article_5_2(initial):
    rng = random.Random(8 + initial)
    for _ in range(300):
        cards, round_number, total_rounds = random_round(rng, rng.randint(2, 8))
        ctx = RoundContext(
            cards, round_number=round_number, total_rounds=total_rounds, initial_colour=initial
        )
        oracle = Oracle(
            cards,
            round_number=round_number,
            total_rounds=total_rounds,
            initial_colour="w" if initial == WHITE else "b",
        )
        for first in range(len(cards)):
            for second in range(len(cards)):
                if first != second:
                    assert ctx.colours(first, second) == oracle.colours(first, second)


def test_the_pairing_numbers_that_decide_the_colours_skip_the_idle_players():
    rng = random.Random(10)
    for _ in range(300):
        cards, round_number, total_rounds = random_round(rng, rng.randint(2, 7))
        used = {card.tpn for card in cards}
        idle = sorted(rng.sample([t for t in range(1, 30) if t not in used], rng.randint(1, 5)))
        initial = rng.choice([WHITE, BLACK])
        ctx = RoundContext(
            cards,
            round_number=round_number,
            total_rounds=total_rounds,
            initial_colour=initial,
            idle_tpns=idle,
        )
        renumbered = [
            type(card)(
                card.id,
                card.tpn - bisect_left(idle, card.tpn),
                card.points2,
                card.colours,
                card.opponents,
                card.had_bye,
                card.floats,
            )
            for card in cards
        ]
        oracle = Oracle(
            renumbered,
            round_number=round_number,
            total_rounds=total_rounds,
            initial_colour="w" if initial == WHITE else "b",
        )
        for first in range(len(cards)):
            for second in range(first + 1, len(cards)):
                assert ctx.colours(first, second) == oracle.colours(first, second)


def expected_cost(oracle: Oracle, first: int, second: int) -> PairCost:
    """A pair's share of C10-C13, C15, C17, C19 and C21, as the reference counts them."""
    white, black = oracle.colours(first, second)
    c10 = c11 = c12 = c13 = 0
    if oracle.top(first) or oracle.top(second):
        for player, colour, step in ((white, "w", 1), (black, "b", -1)):
            c10 += abs(oracle.info[player][2] + step) > 2
            c11 += oracle.games[player][-2:] == [colour, colour]
    for player, denied in ((white, "b"), (black, "w")):
        if oracle.info[player][0] == denied:
            c12 += 1
            c13 += oracle.info[player][1] == STRONG
    c15 = c17 = c19 = c21 = 0
    if oracle.sc(first) != oracle.sc(second):
        lower = first if oracle.sc(first) < oracle.sc(second) else second
        difference = abs(oracle.sc(first) - oracle.sc(second))
        if oracle.fl(lower, 1) == "up":
            c15, c19 = 1, difference
        if oracle.fl(lower, 2) == "up":
            c17, c21 = 1, difference
    return PairCost(c10, c11, c12, c13, c15, c17, c19, c21)


def test_a_pairs_cost_counts_its_colours_and_upfloats_as_the_reference_does():
    rng = random.Random(11)
    nonzero = [0] * 8
    for _ in range(300):
        cards, round_number, total_rounds = random_round(rng, rng.randint(2, 8))
        ctx = RoundContext(cards, round_number=round_number, total_rounds=total_rounds)
        oracle = Oracle(cards, round_number=round_number, total_rounds=total_rounds)
        for first in range(len(cards)):
            for second in range(len(cards)):
                if first != second:
                    cost = ctx.pair_cost(first, second)
                    assert cost == expected_cost(oracle, first, second), (first, second)
                    nonzero = [n + bool(c) for n, c in zip(nonzero, cost, strict=True)]
    assert all(nonzero)


def test_a_pairs_cost_is_the_same_whichever_player_is_named_first():
    rng = random.Random(12)
    for _ in range(200):
        cards, round_number, total_rounds = random_round(rng, rng.randint(2, 8))
        ctx = RoundContext(cards, round_number=round_number, total_rounds=total_rounds)
        oracle = Oracle(cards, round_number=round_number, total_rounds=total_rounds)
        for first in reversed(range(len(cards))):
            for second in range(first):
                assert ctx.pair_cost(first, second) == expected_cost(oracle, first, second)


def test_both_players_of_a_topscorers_pair_may_get_one_colour_three_times_running():
    # b,b,b,b,w,w: an absolute preference for white (colour difference -2) after two whites;
    # its mirror prefers black after two blacks. Both get their preference: both streaks run on.
    cards = [
        SwissPlayer("w", 1, points2=10, colours=tuple("bbbbww")),
        SwissPlayer("b", 2, points2=10, colours=tuple("wwwwbb")),
    ]
    ctx = RoundContext(cards, round_number=7, total_rounds=7)
    assert ctx.colours(0, 1) == (0, 1)
    assert ctx.pair_cost(0, 1) == PairCost(0, 2, 0, 0, 0, 0, 0, 0)
