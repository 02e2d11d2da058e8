"""One bracket (``dutch/bracket.py``) against brute force on small random rounds: its best
C6/C7 class (how many pairs, which downfloater scores, which sets of moved-down players can be
paired), the classes of downfloaters in C7 order, the next bracket's C6/C7 for a set of
downfloaters (C8), the downfloaters' own criteria (C9, C14, C16, C18, C20), the floater
options the bounds enumerate, and the guard: the plan gives up (``PairingTooHard``) exactly
when it would try more MDP sets, or more choices of resident downfloaters for one set, than a
fiftieth of the node budget. Also two small rules no whole-tournament test reaches: a last
bracket that cannot pair its moved-down players with its residents collapses into one
homogeneous bracket in rank order, and an elimination slot names where its player comes from.
Written to kill the mutants ``bench/mutation.py`` left alive."""

from __future__ import annotations

import itertools
import math
import random
from types import SimpleNamespace

import pytest

from tests.tournaments.pairing.random_rounds import (
    best_class,
    completable_by_brute_force,
    most_pairs_by_brute_force,
    perfect_matching_exists,
    random_bracket,
    scoregroups,
)
from tournaments.pairing.dutch.bracket import Bracket, BracketPlan
from tournaments.pairing.dutch.cards import PairingTooHard, SwissPlayer
from tournaments.pairing.dutch.context import RoundContext
from tournaments.pairing.dutch.criteria import BracketScore
from tournaments.pairing.elimination import Slot

BIG = 10**9


def test_a_collapsed_bracket_has_every_player_as_a_resident_in_rank_order():
    ctx = SimpleNamespace(size=4, players={})  # an even round: no C9 question asked
    bracket = Bracket(ctx, mdps=[5, 1], residents=[4, 2], lower=[], next_residents=[], budget=0)
    bracket.collapse()
    assert bracket.residents == [1, 2, 4, 5]
    assert bracket.mdps == []


def test_a_slot_says_the_seed_or_the_match_its_player_comes_from():
    assert Slot("seed", 3).label() == "seed 3"
    assert Slot("winner", "W1-2").label() == "winner of W1-2"
    assert Slot("loser", "W2-1").label() == "loser of W2-1"


def test_the_plan_is_the_best_c6_c7_class_of_the_legal_candidates():
    rng = random.Random(20)
    outcomes = set()
    for _ in range(400):
        bracket = random_bracket(rng)
        expected = best_class(bracket.ctx, bracket.mdps, bracket.residents, bracket.lower)
        plan = bracket.plan()
        if expected is None:
            assert plan is None
        else:
            assert plan == BracketPlan(*expected)
            outcomes.add((bool(bracket.mdps), len(expected[2]) > 1, bracket.is_last))
        outcomes.add((expected is None, bracket.is_last))
    assert (True, True) in outcomes and (True, False) in outcomes
    assert (True, True, False) in outcomes and (True, False, True) in outcomes


def test_a_collapsed_last_bracket_plans_its_best_homogeneous_pairing():
    rng = random.Random(21)
    collapsed = 0
    while collapsed < 40:
        bracket = random_bracket(rng)
        if not bracket.is_last or not bracket.mdps or bracket.plan() is not None:
            continue
        collapsed += 1
        bracket.collapse()
        expected = best_class(bracket.ctx, [], bracket.residents, [])
        plan = bracket.plan()
        if expected is None:
            assert plan is None
        else:
            assert (plan.pairs, plan.mdp_sets) == (expected[0], [()])


def expected_next_score(bracket: Bracket, floaters: list[int]) -> BracketScore:
    """C8 by exhaustion: the next bracket's best class with these MDPs; a next bracket with no
    candidate (only a collapsed last bracket pairs it) counts all its players paired."""
    if bracket.is_last:
        return BracketScore(0, ())
    following = best_class(
        bracket.ctx, sorted(floaters), bracket.next_residents, bracket.after_next
    )
    if following is None:
        return BracketScore(-((len(floaters) + len(bracket.next_residents)) // 2), ())
    return BracketScore(-following[0], following[1])


def test_the_next_brackets_score_is_its_best_class_with_the_downfloaters_as_mdps():
    rng = random.Random(22)
    kinds = set()
    for _ in range(300):
        bracket = random_bracket(rng)
        members = bracket.mdps + bracket.residents
        for _ in range(3):
            floaters = sorted(rng.sample(members, rng.randint(0, min(len(members), 4))))
            expected = expected_next_score(bracket, floaters)
            assert bracket.next_bracket_score(floaters) == expected, floaters
            assert bracket.next_bracket_score(floaters[::-1]) == expected  # remembered
            kinds.add((bracket.is_last, bool(expected.c7_downfloater_scores)))
    assert kinds == {(True, False), (False, False), (False, True)}


def test_the_next_group_length_is_the_size_of_the_scoregroup_after_the_next():
    rng = random.Random(23)
    for _ in range(200):
        bracket = random_bracket(rng)
        groups = scoregroups(bracket.ctx)
        at = next(k for k, group in enumerate(groups) if group == bracket.residents)
        expected = len(groups[at + 2]) if at + 2 < len(groups) else 0
        assert bracket.next_group_length() == expected


def padded_scores(down: list, length: int) -> tuple[int, ...]:
    values = sorted((player.score for player in down), reverse=True)
    return tuple(values + [-1] * (length - len(values)))


def test_the_downfloaters_own_criteria_count_their_floats_and_the_pab_unplayed_games():
    rng = random.Random(24)
    seen = [0] * 5
    for _ in range(500):
        bracket = random_bracket(rng)
        ctx, players = bracket.ctx, bracket.ctx.players
        members = bracket.mdps + bracket.residents
        floaters = sorted(rng.sample(members, rng.randint(0, min(len(members), 3))))
        if rng.random() < 0.3:
            floaters = floaters[:1]
        resident_score = players[bracket.residents[0]].score
        c9 = (
            ctx.size % 2 == 1
            and len(floaters) == 1
            and not any(players[x].pab_allowed for x in bracket.lower)
        )
        last = [players[x] for x in floaters if players[x].downfloated_last_round]
        before = [players[x] for x in floaters if players[x].downfloated_two_rounds_ago]
        expected = (
            players[floaters[0]].unplayed_games if c9 else 0,
            sum(p.score == resident_score for p in last),
            sum(p.score == resident_score for p in before),
            padded_scores(last, len(floaters)),
            padded_scores(before, len(floaters)),
        )
        got = bracket.floater_criteria(floaters)
        assert got == expected, floaters
        informative = (got[0], got[1], got[2], set(got[3]) - {-1}, set(got[4]) - {-1})
        seen = [n + bool(value) for n, value in zip(seen, informative, strict=True)]
    assert min(seen) >= 5, seen


def scored_bracket(mdp_scores: list[int], residents: int, resident_score: int) -> Bracket:
    """A bracket of an even round with MDPs of these scores (ranks 0.., in rank order) and
    ``residents`` residents below them; only the scores matter to its downfloater classes."""
    scores = [*mdp_scores, *[resident_score] * residents]
    ctx = SimpleNamespace(size=2 * len(scores), players=[SimpleNamespace(score=s) for s in scores])
    mdps = list(range(len(mdp_scores)))
    return Bracket(ctx, mdps, list(range(len(mdps), len(scores))), [], [], BIG)


def expected_classes(mdp_scores: list[int], residents: int, resident_score: int, pairs: int):
    """Every MDP set that leaves room for ``pairs`` pairs (its MDPs each paired to a resident,
    the other residents paired among themselves or downfloating), grouped by the scores of the
    downfloaters it implies, lowest scores (the best C7) first."""
    size = len(mdp_scores) + residents
    downfloaters = size - 2 * pairs
    classes: dict[tuple, list] = {}
    for count in range(len(mdp_scores) + 1):
        for chosen in itertools.combinations(range(len(mdp_scores)), count):
            limbo = [s for k, s in enumerate(mdp_scores) if k not in chosen]
            resident_floaters = downfloaters - len(limbo)
            resident_pairs = pairs - count
            if (
                resident_floaters < 0
                or resident_pairs < 0
                or count + 2 * resident_pairs + resident_floaters != residents
            ):
                continue
            profile = tuple(sorted(limbo, reverse=True)) + (resident_score,) * resident_floaters
            classes.setdefault(profile, []).append(chosen)
    return [(profile, sorted(sets)) for profile, sets in sorted(classes.items())]


def test_the_downfloater_classes_are_every_feasible_mdp_set_in_c7_order():
    rng = random.Random(25)
    shapes = set()
    for _ in range(500):
        resident_score = rng.randint(0, 3)
        mdp_scores = sorted(
            (rng.randint(resident_score + 1, resident_score + 4) for _ in range(rng.randint(0, 6))),
            reverse=True,
        )
        residents = rng.randint(1, 7)
        bracket = scored_bracket(mdp_scores, residents, resident_score)
        for pairs in range(bracket.size // 2 + 2):
            expected = expected_classes(mdp_scores, residents, resident_score, pairs)
            assert list(bracket.downfloater_classes(pairs)) == expected, (mdp_scores, pairs)
            shapes.add(min(len(expected), 3))
    assert shapes == {0, 1, 2, 3}


def test_the_floater_options_are_each_mdp_sets_resident_choices_in_order():
    rng = random.Random(26)
    for _ in range(300):
        bracket = random_bracket(rng)
        mdps, residents = bracket.mdps, bracket.residents
        downfloaters = rng.randint(0, bracket.size)
        sets = sorted(
            {
                tuple(sorted(rng.sample(range(len(mdps)), rng.randint(0, len(mdps)))))
                for _ in range(rng.randint(1, 3))
            }
        )
        limit = rng.choice([0, 1, 3, 10, BIG])
        asked = []

        def fits(so_far, more, limit=limit, asked=asked):
            asked.append((so_far, more))
            return so_far + more <= limit

        expected, calls = [], []
        for chosen in sets:
            paired = [mdps[k] for k in chosen]
            limbo = [x for k, x in enumerate(mdps) if k not in chosen]
            taken = downfloaters - len(limbo)
            if taken < 0:
                expected = None
                break
            calls.append((len(expected), math.comb(len(residents), taken)))
            if len(expected) + calls[-1][1] > limit:
                expected = None
                break
            expected += [
                (paired, limbo + list(c)) for c in itertools.combinations(residents, taken)
            ]
        assert bracket.floater_options(downfloaters, sets, fits) == expected
        assert asked == calls


def floaters_allowed(bracket: Bracket, floaters: list[int]) -> bool:
    ctx = bracket.ctx
    if bracket.is_last:
        return not floaters or (len(floaters) == 1 and ctx.players[floaters[0]].pab_allowed)
    return completable_by_brute_force(
        floaters + bracket.lower, ctx.compatible, lambda k: ctx.players[k].pab_allowed
    )


def choices_tried(bracket: Bracket, chosen: tuple[int, ...], pairs: int) -> tuple[bool, int]:
    """(a candidate exists, resident downfloater choices tried): the choices go lowest
    residents first, up to the first with which the round completes below and the rest pair."""
    mdps, residents = bracket.mdps, bracket.residents
    paired = [mdps[k] for k in chosen]
    limbo = [x for k, x in enumerate(mdps) if k not in chosen]
    taken = bracket.size - 2 * pairs - len(limbo)
    tried = 0
    for picked in itertools.combinations(range(len(residents) - 1, -1, -1), taken):
        tried += 1
        floaters = limbo + [residents[k] for k in picked]
        rest = paired + [x for k, x in enumerate(residents) if k not in picked]
        if floaters_allowed(bracket, floaters) and perfect_matching_exists(
            rest,
            lambda a, b: bracket.ctx.compatible(a, b) and not (a in paired and b in paired),
        ):
            return True, tried
    return False, tried


def guard_count(bracket: Bracket) -> int:
    """The most the plan's guard counts before the plan is known: MDP sets tried (class by
    class, C6 then C7 order, from the bracket graph's maximum matching down, skipping the pair
    counts that leave fewer downfloaters than the players below need, and in the last bracket
    stopping beyond one downfloater), or resident downfloater choices tried for one set."""
    ctx = bracket.ctx
    members = bracket.mdps + bracket.residents
    moved = set(bracket.mdps)
    most = most_pairs_by_brute_force(
        members, lambda a, b: ctx.compatible(a, b) and not (a in moved and b in moved)
    )
    need = 0
    if not bracket.is_last:
        lower = bracket.lower
        left_over = len(lower) - 2 * most_pairs_by_brute_force(lower, ctx.compatible)
        need = max(0, left_over - ctx.size % 2)
    mdp_scores = [ctx.players[x].score for x in bracket.mdps]
    sets_tried = most_choices = 0
    for pairs in range(most, -1, -1):
        downfloaters = bracket.size - 2 * pairs
        if bracket.is_last and downfloaters > 1:
            break
        if downfloaters < need:
            continue
        for _, sets in expected_classes(
            mdp_scores, len(bracket.residents), bracket.resident_score, pairs
        ):
            sets_tried += len(sets)
            found = False
            for chosen in sets:
                exists, tried = choices_tried(bracket, chosen, pairs)
                most_choices = max(most_choices, tried)
                found = found or exists
            if found:
                return max(sets_tried, most_choices)
    return max(sets_tried, most_choices)


TOO_HARD = "too many (sets of MDPs to try|ways to choose its [0-9]+ downfloaters)"


def test_the_plan_gives_up_exactly_when_it_would_try_more_than_a_fiftieth_of_the_budget():
    rng = random.Random(27)
    counts = set()
    for _ in range(300):
        model = random_bracket(rng)
        count = guard_count(model)
        counts.add(min(count, 4))
        expected = best_class(model.ctx, model.mdps, model.residents, model.lower)

        def bracket(budget, model=model):
            return Bracket(
                model.ctx, model.mdps, model.residents, model.lower, model.next_residents, budget
            )

        plan = bracket(50 * count).plan()
        assert plan == (BracketPlan(*expected) if expected else None)
        assert bracket(50 * count + 49).plan() == plan
        if count:
            with pytest.raises(PairingTooHard, match=TOO_HARD):
                bracket(50 * count - 1).plan()
    assert counts == {0, 1, 2, 3, 4}


def context_of(scores: list[int], loners: list[int], *, among: range) -> RoundContext:
    """Players ranked 0.. with these scores (highest first); each of ``loners`` has met every
    other player of ``among`` (the rest have met nobody)."""
    met = {rank: set() for rank in range(len(scores))}
    for loner in loners:
        for other in among:
            if other != loner:
                met[loner].add(other)
                met[other].add(loner)
    cards = [
        SwissPlayer(rank, rank + 1, score, opponents=frozenset(met[rank]))
        for rank, score in enumerate(scores)
    ]
    return RoundContext(cards, round_number=3, total_rounds=5)


def test_beyond_200_players_below_only_their_parity_forces_downfloaters():
    ctx = context_of([4, 4] + [0] * 202, [], among=range(0))
    lower = list(range(2, 204))
    bracket = Bracket(ctx, [], [0, 1], lower, lower, BIG)
    assert bracket.plan() == BracketPlan(1, (), [()])


def test_up_to_200_players_below_their_maximum_matching_says_how_many_must_come_down():
    # The two lowest have met everyone below: two residents must come down for them, and the
    # plan tries no pairing of the residents (one set tried: a budget of 50 is enough).
    ctx = context_of([4, 4] + [0] * 200, [200, 201], among=range(2, 202))
    lower = list(range(2, 202))
    bracket = Bracket(ctx, [], [0, 1], lower, lower, 50)
    assert bracket.plan() == BracketPlan(0, (4, 4), [()])


def test_beyond_200_players_below_the_plan_first_tries_to_pair_every_resident():
    # 201 below, three of whom have met everyone below: one takes the PAB, but the parity
    # alone does not show that the other two need residents, so pairing both residents is
    # tried first (two sets tried: a budget of 50 is not enough).
    ctx = context_of([4, 4] + [0] * 201, [200, 201, 202], among=range(2, 203))
    for player in ctx.players:
        player.pab_allowed = True
    lower = list(range(2, 203))
    with pytest.raises(PairingTooHard, match="too many sets of MDPs"):
        Bracket(ctx, [], [0, 1], lower, lower, 50).plan()
    assert Bracket(ctx, [], [0, 1], lower, lower, 100).plan() == BracketPlan(0, (4, 4), [()])


def test_up_to_40_players_the_bracket_graph_bounds_the_pairs_tried():
    # Two of 40 residents have met all the others: 19 pairs at most, the first count tried.
    ctx = context_of([2] * 40 + [0] * 2, [38, 39], among=range(40))
    bracket = Bracket(ctx, [], list(range(40)), [40, 41], [40, 41], 50)
    assert bracket.plan() == BracketPlan(19, (2, 2), [()])


def test_beyond_40_players_only_the_bracket_structure_bounds_the_pairs_tried():
    # Two of 41 residents have met all the others: 20 pairs are tried first, every one of the
    # 41 choices of one downfloater (the guard counts them), before 19 pairs succeed.
    ctx = context_of([2] * 41 + [0] * 3, [39, 40], among=range(41))
    residents, lower = list(range(41)), [41, 42, 43]
    with pytest.raises(PairingTooHard, match="ways to choose its 1 downfloaters"):
        Bracket(ctx, [], residents, lower, lower, 50 * 41 - 1).plan()
    plan = Bracket(ctx, [], residents, lower, lower, 50 * 41).plan()
    assert plan == BracketPlan(19, (2, 2, 2), [()])
