"""The candidate search of one bracket (``dutch/search.py``) against the brute-force reference
(``tests/tournaments/dutch_oracle.py``), bracket by bracket, and against itself.

- The exhaustive search (``BEST`` mode) finds, over the bracket's MDP sets, the reference's
  choice: the smallest criteria vector, the first in the rules' generation order among equals;
  and the vector it reports for it is the reference's (C8 to C21).
- Given that optimum as its bound, every other way of searching finds the very same candidate:
  ``REACH`` mode, checked or not (the engine's search of a hard bracket prunes by colour counts
  of S1 against S2 before every exchange and at every level of S1: a count saying "cannot
  fit" wrongly would prune the right candidate), and the checked ``BEST`` mode.
- The node budget: every pair tried, every leaf with the right number of downfloaters and every
  exchange counts one node, added to the round's count; the search given exactly the nodes it
  needs finds its answer, and one given half as many reports that it ran out.

The brackets are those of small random Swiss tournaments (6 to 10 players, a few rounds, the
reference's own pairings played with random results, so that the last round lets topscorers'
absolute preferences meet). Written to kill the mutants ``bench/mutation.py`` found surviving
in ``tournaments/pairing/dutch/search.py``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.tournaments.dutch_oracle import Oracle
from tournaments.pairing.dutch import PlayedPair, RoundRecord, SwissPlayer, players_from_history
from tournaments.pairing.dutch import search as search_module
from tournaments.pairing.dutch.bounds import root_lower_bound
from tournaments.pairing.dutch.bracket import Bracket
from tournaments.pairing.dutch.context import RoundContext
from tournaments.pairing.dutch.search import BEST, REACH, CandidateSearch, search

BUDGET = 10**6


def reference_brackets(seed: int) -> Iterator[tuple[Bracket, Oracle, int]]:
    """(bracket, reference, its index) for every bracket of every round of a random tournament
    paired by the reference; the tournament stops at a round the reference cannot pair."""
    rng = random.Random(seed)
    n = rng.randint(6, 10)
    rounds = rng.randint(3, 5)
    entrants = [(f"p{i}", i) for i in range(1, n + 1)]
    history: list[RoundRecord] = []
    for number in range(1, rounds + 1):
        cards = sorted(players_from_history(entrants, history), key=lambda p: (-p.points2, p.tpn))
        oracle = Oracle(cards, round_number=number, total_rounds=rounds)
        expected = oracle.pair()
        if expected is None:
            return
        ctx = RoundContext(cards, round_number=number, total_rounds=rounds)
        if n % 2:
            ctx.limit_pab_score()  # the PAB's score limit, as the engine sets it first
        groups = oracle.groups
        for g, (carry, residents, *_) in enumerate(oracle.trace):
            lower = oracle.lower_of(g)
            following = groups[g + 1] if g + 1 < len(groups) else []
            yield Bracket(ctx, sorted(carry), residents, lower, following, BUDGET), oracle, g
        _, bye, coloured = expected
        games = []
        for white, black in sorted(coloured):
            x = rng.random()
            games.append(PlayedPair(white, black, 2 if x < 0.4 else 0 if x < 0.8 else 1))
        byes = ((bye, 2),) if bye is not None else ()
        history.append(RoundRecord(tuple(games), byes, bye))


def plan_of(bracket: Bracket):
    """The bracket's C6/C7 plan, the last bracket collapsed if need be (as the engine does)."""
    plan = bracket.plan()
    if plan is None and bracket.is_last:
        bracket.collapse()
        plan = bracket.plan()
    return plan


def check_against_reference(bracket: Bracket, oracle: Oracle, g: int) -> None:
    """The exhaustive search's choice is the reference's, and so is its vector; every other
    search mode, given the optimum as its bound, finds the same candidate."""
    _, _, vector, pairs, floaters = oracle.trace[g]
    plan = plan_of(bracket)
    assert plan is not None
    floor = root_lower_bound(bracket, plan.pairs, plan.mdp_sets)
    chosen_best = None
    for chosen in plan.mdp_sets:
        best, exhausted = search(bracket, plan.pairs, chosen, mode=BEST, floor=floor)
        assert not exhausted and best is not None
        if chosen_best is None or best.criteria < chosen_best.criteria:
            chosen_best = best
        assert search(bracket, plan.pairs, chosen, mode=BEST, floor=floor, checked=True)[0] == best
        for checked in (False, True):
            reached, exhausted = search(
                bracket,
                plan.pairs,
                chosen,
                mode=REACH,
                bound=best.criteria,
                floor=best.criteria,
                checked=checked,
            )
            assert not exhausted
            assert reached == best, (checked, bracket.mdps, bracket.residents, chosen)
            if floor < best.criteria:  # a bound no candidate reaches: nothing is found
                missed = search(
                    bracket,
                    plan.pairs,
                    chosen,
                    mode=REACH,
                    bound=floor,
                    floor=floor,
                    checked=checked,
                )
                assert missed == (None, False)
    assert sorted(tuple(sorted(pair)) for pair in chosen_best.pairs) == sorted(pairs)
    assert chosen_best.floaters == floaters
    assert tuple(chosen_best.criteria) == vector[2:]  # C8 to C21; C6 and C7 are the plan's


@pytest.mark.parametrize("seeds", [range(0, 20), range(20, 40), range(40, 60)])
def test_the_search_finds_the_reference_choice_of_every_bracket_in_every_mode(seeds):
    brackets = 0
    for seed in seeds:
        for bracket, oracle, g in reference_brackets(seed):
            check_against_reference(bracket, oracle, g)
            brackets += 1
    assert brackets > 100


@pytest.mark.parametrize(
    "seed",
    [
        60,  # a checked search with more than one resident to float
        73,  # last round: topscorers of the same absolute colour preference may meet
        106,  # an exchange rejected by its colour counts, before one that holds the answer
    ],
)
def test_the_search_finds_the_reference_choice_in_the_rarer_brackets(seed):
    # Tournaments picked among the first few hundred, by trying, for brackets the seeds of the
    # test above do not reach.
    for bracket, oracle, g in reference_brackets(seed):
        check_against_reference(bracket, oracle, g)


def counting_nodes(monkeypatch) -> dict[str, int]:
    """Counts, while the search runs, what makes its nodes: the pairs it tries, the leaves
    with as many downfloaters as the bracket needs, and the remainder's exchanges."""
    counts = {"pairs": 0, "leaves": 0, "exchanges": 0}
    add, leaf, exchanges = CandidateSearch._add, CandidateSearch.leaf, search_module.exchanges

    def counted_add(self, mover, partner):
        counts["pairs"] += 1
        return add(self, mover, partner)

    def counted_leaf(self, free):
        counts["leaves"] += len(self.limbo) + len(free) == self.downfloaters
        return leaf(self, free)

    def counted_exchanges(*args):
        for exchange in exchanges(*args):
            counts["exchanges"] += 1
            yield exchange

    monkeypatch.setattr(CandidateSearch, "_add", counted_add)
    monkeypatch.setattr(CandidateSearch, "leaf", counted_leaf)
    monkeypatch.setattr(search_module, "exchanges", counted_exchanges)
    return counts


def searches_of(seeds: range) -> Iterator[tuple[Bracket, int, tuple, dict]]:
    """(bracket, pairs, MDP set, search arguments) for the searches the engine makes of each
    bracket: the exhaustive one, and reaching the optimum with and without the checks."""
    for seed in seeds:
        for bracket, _, _ in reference_brackets(seed):
            plan = plan_of(bracket)
            floor = root_lower_bound(bracket, plan.pairs, plan.mdp_sets)
            for chosen in plan.mdp_sets:
                best, _ = search(bracket, plan.pairs, chosen, mode=BEST, floor=floor)
                yield bracket, plan.pairs, chosen, {"mode": BEST, "floor": floor}
                for checked in (False, True):
                    bound = {"bound": best.criteria, "floor": best.criteria}
                    yield bracket, plan.pairs, chosen, {"mode": REACH, **bound, "checked": checked}


def test_every_pair_tried_every_full_leaf_and_every_exchange_is_one_node_of_the_round(
    monkeypatch,
):
    counts = counting_nodes(monkeypatch)
    searches = 0
    for bracket, pairs, chosen, arguments in searches_of(range(0, 12)):
        for key in counts:
            counts[key] = 0
        bracket.ctx.nodes = 1000  # the nodes of the brackets before: the search adds its own
        search(bracket, pairs, chosen, **arguments)
        assert bracket.ctx.nodes == 1000 + sum(counts.values()), arguments
        searches += 1
    assert searches > 300


def test_a_search_given_the_nodes_it_needs_finds_its_answer_and_with_half_runs_out():
    ran_out = exact = 0
    for bracket, pairs, chosen, arguments in searches_of(range(0, 12)):
        before = bracket.ctx.nodes
        found, exhausted = search(bracket, pairs, chosen, budget=BUDGET, **arguments)
        needed = bracket.ctx.nodes - before
        assert not exhausted
        assert search(bracket, pairs, chosen, budget=needed, **arguments) == (found, False)
        exact += 1
        if needed >= 4:
            assert search(bracket, pairs, chosen, budget=needed // 2, **arguments)[1]
            ran_out += 1
    assert exact > 300 and ran_out > 100


def test_the_checked_search_tries_no_more_nodes_than_the_plain_one_and_fewer_in_some():
    # Its checks only prune (each is necessary for a candidate within the bound): the same
    # candidate is found (the test above), never after more nodes, in some brackets after fewer.
    fewer = 0
    for bracket, pairs, chosen, arguments in searches_of(range(0, 12)):
        if not arguments.get("checked"):
            continue
        nodes = []
        for checked in (False, True):
            before = bracket.ctx.nodes
            search(bracket, pairs, chosen, **{**arguments, "checked": checked})
            nodes.append(bracket.ctx.nodes - before)
        plain, pruned = nodes
        assert pruned <= plain, (bracket.mdps, bracket.residents, chosen)
        fewer += pruned < plain
    assert fewer >= 3


def round_one_bracket(n: int) -> Bracket:
    """The one bracket of a first round of ``n`` players."""
    cards = [SwissPlayer(f"p{tpn}", tpn) for tpn in range(1, n + 1)]
    ctx = RoundContext(cards, round_number=1, total_rounds=5)
    if n % 2:
        ctx.limit_pab_score()
    return Bracket(ctx, [], list(range(n)), [], [], BUDGET)


@pytest.mark.parametrize(
    ("n", "mode", "checked"),
    [(26, BEST, False), (66, REACH, False), (202, REACH, True), (202, BEST, True)],
)
def test_a_big_bracket_is_searched_down_to_its_last_level(n, mode, checked):
    # Past 24 players (past 64 in reach mode) the unchecked search checks S1 at its first level
    # only, and past 200 the checked one matches S1 in its last 60 levels only: the levels
    # between are still gone down, not cut off. Round 1: the first candidate is the answer.
    bracket = round_one_bracket(n)
    plan = bracket.plan()
    floor = root_lower_bound(bracket, plan.pairs, plan.mdp_sets)
    bound = {"bound": floor} if mode == REACH else {}
    found, exhausted = search(
        bracket, plan.pairs, (), mode=mode, floor=floor, budget=1000, checked=checked, **bound
    )
    assert not exhausted
    assert found.pairs == [(k, n // 2 + k) for k in range(n // 2)]
    assert found.criteria == floor


def best_of_one_bracket(ctx: RoundContext):
    """The whole field as one bracket: the bracket, its plan's pairs and its best candidate."""
    bracket = Bracket(ctx, [], list(range(len(ctx.players))), [], [], BUDGET)
    plan = bracket.plan()
    floor = root_lower_bound(bracket, plan.pairs, plan.mdp_sets)
    best, _ = search(bracket, plan.pairs, (), mode=BEST, floor=floor)
    return bracket, plan.pairs, best


def reach(bracket: Bracket, pairs: int, best, *, checked: bool):
    """The reach-mode search for ``best``'s vector: (the candidate, budget hit?)."""
    return search(
        bracket, pairs, (), mode=REACH, bound=best.criteria, floor=best.criteria, checked=checked
    )


def test_in_a_collapsed_last_bracket_only_players_of_the_first_residents_score_count_for_c14():
    # The last bracket collapsed: one player on 2 points, four on 1 who all floated down last
    # round. The floater (the PAB) is on 1 point: not of the bracket's resident score, so it
    # does not count for C14, and no branch may be pruned as if it did.
    cards = [SwissPlayer("a", 1, 4)] + [
        SwissPlayer(name, tpn, 2, floats=("down",)) for tpn, name in enumerate("bcde", start=2)
    ]
    ctx = RoundContext(cards, round_number=3, total_rounds=5)
    ctx.limit_pab_score()
    bracket, pairs, best = best_of_one_bracket(ctx)
    assert best.criteria.c14_downfloated_last_round == 0
    assert (best.pairs, best.floaters) == ([(0, 2), (1, 3)], [4])
    for checked in (False, True):
        assert reach(bracket, pairs, best, checked=checked)[0] == best


def test_a_paired_player_who_may_not_float_leaves_the_allowed_floaters_count_alone():
    # Five players on one score, one bracket (the last): c and d had a PAB and may not float,
    # so e (the only one allowed) takes it. Once a is paired with c, the players left in S2
    # that may float are still e alone: the colour count must take c from the others.
    cards = [SwissPlayer(name, tpn, 2, had_bye=name in "cd") for tpn, name in enumerate("abcde", 1)]
    ctx = RoundContext(cards, round_number=2, total_rounds=5)
    ctx.limit_pab_score()
    bracket, pairs, best = best_of_one_bracket(ctx)
    assert (best.pairs, best.floaters) == ([(0, 2), (1, 3)], [4])
    assert reach(bracket, pairs, best, checked=True) == (best, False)


def test_topscorers_of_the_same_absolute_preference_meet_without_denying_a_strong_one():
    # The last round: four topscorers who all had black twice and must have white. Each pair
    # denies one preference (C12 = 2) but, both being absolute, no strong one (C13 = 0): no
    # bound of the search (the node floor, the colour counts of S1 against S2 or of the whole
    # remainder) may count those pairs as denying a strong preference.
    cards = [SwissPlayer(name, tpn, 4, ("b", "b")) for tpn, name in enumerate("abcd", 1)]
    ctx = RoundContext(cards, round_number=3, total_rounds=3)
    bracket, pairs, best = best_of_one_bracket(ctx)
    assert best.pairs == [(0, 2), (1, 3)]
    assert best.criteria.c12_preferences_not_granted == 2
    assert best.criteria.c13_strong_preferences_not_granted == 0
    for checked in (False, True):
        assert reach(bracket, pairs, best, checked=checked)[0] == best
