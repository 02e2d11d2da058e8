"""The candidate search of one bracket (Art. 3-4): depth first in the rules' generation order,
pruned against a bound of the criteria vector (``REACH`` and ``BEST`` modes; ``checked`` for
the hard brackets). The method: docs/swiss-pairing.md, "How a bracket is paired".
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import NamedTuple

from .bounds import (
    COLOUR_CLASSES,
    ColourTally,
    colour_class,
    pairs_everyone,
    pool_colours_fit,
    split_colours_fit,
)
from .bracket import Bracket
from .criteria import ADDITIVE, ADDITIVE_PLACES, BracketScore, Criteria, PairCost, padded
from .transposition import (
    SearchBudgetExceeded,
    each_paired_above,
    each_pairs_below,
    exchanges,
    ranked_below,
)

REACH, BEST = "reach", "best"

# Criteria built straight from a tuple: the NamedTuple's own __new__ is a Python-level call, and
# the search builds one vector a node.
_new_criteria = tuple.__new__
_ADDITIVE_RANGE = range(len(ADDITIVE))
_C12 = ADDITIVE.index("c12_preferences_not_granted")
_C13 = ADDITIVE.index("c13_strong_preferences_not_granted")
_C12_PLACE, _C13_PLACE = ADDITIVE_PLACES[_C12], ADDITIVE_PLACES[_C13]
#: Checked search in brackets of more than _FULL_CHECK_SIZE players: the matchings are checked
#: for the last _FULL_CHECK_WINDOW movers of S1 only (and at its first), the counts everywhere.
_FULL_CHECK_SIZE = 200
_FULL_CHECK_WINDOW = 60


class _CandidateFound(Exception):
    """The search has its answer."""


class Candidate(NamedTuple):
    """A bracket's pairing: its criteria vector, its pairs (ranks) and its downfloaters."""

    criteria: Criteria
    pairs: list[tuple[int, int]]
    floaters: list[int]


def search(
    bracket: Bracket,
    pairs: int,
    chosen: tuple[int, ...],
    *,
    mode: str,
    bound: Criteria | None = None,
    floor: Criteria | None = None,
    budget: int | None = None,
    checked: bool = False,
) -> tuple[Candidate | None, bool]:
    """Search the candidates with ``pairs`` pairs and MDP set ``chosen`` (positions in
    ``bracket.mdps``), in generation order.

    mode REACH: the first candidate whose vector is <= ``bound`` (a lower bound: so it equals
    it). mode BEST: the first candidate with the smallest vector below ``bound`` (None: any);
    it stops early at one reaching ``floor``. ``checked``: test at every level of S1 that the
    rest can still be paired within the bound, the players who may not float included (see
    :meth:`CandidateSearch.transposable`). Returns (the candidate or None, budget hit?)."""
    paired, limbo = bracket.split(chosen)
    remainder_pairs = pairs - len(paired)
    state = CandidateSearch(
        bracket,
        paired,
        limbo,
        remainder_pairs,
        mode,
        bound,
        floor,
        budget or bracket.budget,
        checked=checked,
    )
    exhausted = state.run()
    bracket.ctx.nodes += state.nodes
    return state.found, exhausted


class CandidateSearch:
    """The mutable state of one candidate search."""

    def __init__(
        self,
        bracket: Bracket,
        paired_mdps: list[int],
        limbo: list[int],
        remainder_pairs: int,
        mode: str,
        bound: Criteria | None,
        floor: Criteria,
        budget: int,
        *,
        checked: bool = False,
    ):
        self.bracket = bracket
        self.ctx = bracket.ctx
        self.players = players = self.ctx.players
        self.paired_mdps = paired_mdps
        self.limbo = limbo
        self.remainder_pairs = remainder_pairs
        self.pair_count = len(paired_mdps) + remainder_pairs
        self.downfloaters = bracket.size - 2 * self.pair_count
        self.mode = mode
        self.bound = bound
        self.floor = floor  # the bracket's lower bound: fixed parts of every node's bound
        self.found: Candidate | None = None
        self.nodes = 0
        self.budget = budget
        self.used: set[int] = set()
        self.pairs: list[tuple[int, int]] = []
        self.totals = [0] * len(ADDITIVE)  # the additive criteria so far (PairCost order)
        self.c19_differences: list[int] = []
        self.c21_differences: list[int] = []
        # the pool of players still to place (to be paired, or to float)
        pool = paired_mdps + bracket.residents
        self.floaters_to_choose = self.downfloaters - len(limbo)
        self.colours = ColourTally([players[x] for x in pool])
        self.absolutes_may_meet = bracket.ctx.absolutes_may_meet(pool)
        # C18 / C20 of the Limbo players, as every node below bounds them
        down_last = [players[x].score for x in limbo if players[x].downfloated_last_round]
        down_before = [players[x].score for x in limbo if players[x].downfloated_two_rounds_ago]
        self.limbo_c18_floor = padded(down_last, self.downfloaters, -1)
        self.limbo_c20_floor = padded(down_before, self.downfloaters, -1)
        self.s2: list[int] | None = None  # the remainder's S2 (who may float), once known
        self.s2_unpaired = 0
        self.s2_repeaters = [0, 0]  # unpaired players of S2 who would count for C14 / C16
        self.resident_score = bracket.resident_score
        # check at every level that S1 can still be paired (in reach mode: without exceeding a
        # criterion that has reached its bound), not only at the first
        self.checked = checked
        self.check_every_level = (
            checked or bracket.size <= 24 or (mode == REACH and bracket.size <= 64)
        )
        # reach mode, one resident to float: which residents may be that floater (their own
        # criteria C9, C14, C16, C18, C20 -- and in the last bracket the PAB -- as the bound's)
        self._may_float: dict[int, bool] = {}
        self.floater_must_match = checked and mode == REACH and self.floaters_to_choose == 1
        # checked reach mode, in the remainder's transpositions: the colour classes of the
        # movers of S1 not yet paired and of S2's free players (allowed floaters / others)
        self.count_colours = checked and mode == REACH
        self.split: tuple[list[int], list[int], list[int]] | None = None
        # in big brackets the matchings are checked in the last levels of S1 only (and at the
        # first); the counts, at every level
        self.full_check_window = _FULL_CHECK_WINDOW if bracket.size > _FULL_CHECK_SIZE else None

    def run(self) -> bool:
        """Search; True if the node budget ran out."""
        try:
            self._depth_first(
                self.paired_mdps,
                self.bracket.residents,
                below_only=False,
                expand=lambda level: True,
                complete=self._pair_remainder,
            )
        except _CandidateFound:
            pass
        except SearchBudgetExceeded:
            return True
        return False

    # --- bounds -------------------------------------------------------------------------------
    def _criteria(self, next_score: BracketScore, floater_criteria: tuple, colours=(0, 0)):
        """The vector from the pairs so far, the downfloaters' criteria (C9, C14, C16, C18,
        C20) and extra C12/C13 still to come."""
        unplayed, down_last, down_before, scores_last, scores_before = floater_criteria
        c10, c11, c12, c13, c15, c17 = self.totals
        return _new_criteria(
            Criteria,
            (
                next_score,
                unplayed,
                c10,
                c11,
                c12 + colours[0],
                c13 + colours[1],
                down_last,
                c15,
                down_before,
                c17,
                scores_last,
                padded(self.c19_differences, self.pair_count, 0),
                scores_before,
                padded(self.c21_differences, self.pair_count, 0),
            ),
        )

    def node_floor(self) -> Criteria:
        """A lower bound of the vector of every candidate below this node."""
        floor = self.floor
        to_float = self.floaters_to_choose
        down_last = down_before = 0
        if self.s2 is not None and to_float:
            down_last = max(0, to_float - (self.s2_unpaired - self.s2_repeaters[0]))
            down_before = max(0, to_float - (self.s2_unpaired - self.s2_repeaters[1]))
        floater_criteria = (
            floor.c9_pab_unplayed_games,
            down_last,
            down_before,
            self.limbo_c18_floor,
            self.limbo_c20_floor,
        )
        colours = self.colours.bounds(to_float, self.absolutes_may_meet)
        return self._criteria(floor.c8_next_bracket, floater_criteria, colours)

    def pruned(self) -> bool:
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetExceeded
        if self.bound is None:
            return False
        node_floor = self.node_floor()
        if self.mode == REACH:
            # A candidate reaching the bound (a lower bound) equals it in every criterion, so a
            # node is pruned as soon as any one criterion's floor is beyond the bound's: not only
            # when the vector as a whole is (a later criterion over its bound would otherwise go
            # unnoticed below an earlier one still under it).
            return any(map(operator.gt, node_floor, self.bound))
        return node_floor >= self.bound

    # --- pairing steps ------------------------------------------------------------------------
    def _repeats(self, player: int) -> tuple[bool, bool]:
        """Would this resident floating count for C14 / C16?"""
        card = self.players[player]
        resident = card.score == self.resident_score
        return (
            resident and card.downfloated_last_round,
            resident and card.downfloated_two_rounds_ago,
        )

    def _add(self, mover: int, partner: int) -> tuple[PairCost, tuple | None]:
        cost = self.ctx.pair_cost(mover, partner)
        totals = self.totals
        for which in _ADDITIVE_RANGE:
            totals[which] += cost[which]
        if cost.c15_upfloated_last_round:
            self.c19_differences.append(cost.c19_score_difference)
        if cost.c17_upfloated_two_rounds_ago:
            self.c21_differences.append(cost.c21_score_difference)
        self.pairs.append((mover, partner))
        self.used.add(mover)
        self.used.add(partner)
        players = self.players
        self.colours.count(players[mover], -1)
        self.colours.count(players[partner], -1)
        repeats = None
        if self.s2 is not None:  # the partner is of S2: it can no longer float
            repeats = self._repeats(partner)
            self.s2_unpaired -= 1
            self.s2_repeaters[0] -= repeats[0]
            self.s2_repeaters[1] -= repeats[1]
            if self.split is not None:
                self._count_split(mover, partner, -1)
        return cost, repeats

    def _remove(self, mover: int, partner: int, added: tuple[PairCost, tuple | None]) -> None:
        cost, repeats = added
        totals = self.totals
        for which in _ADDITIVE_RANGE:
            totals[which] -= cost[which]
        if cost.c15_upfloated_last_round:
            self.c19_differences.pop()
        if cost.c17_upfloated_two_rounds_ago:
            self.c21_differences.pop()
        self.pairs.pop()
        self.used.discard(mover)
        self.used.discard(partner)
        players = self.players
        self.colours.count(players[mover], 1)
        self.colours.count(players[partner], 1)
        if repeats is not None:
            self.s2_unpaired += 1
            self.s2_repeaters[0] += repeats[0]
            self.s2_repeaters[1] += repeats[1]
            if self.split is not None:
                self._count_split(mover, partner, 1)

    def _count_split(self, mover: int, partner: int, sign: int) -> None:
        movers, allowed, others = self.split
        players = self.players
        movers[colour_class(players[mover])] += sign
        floats = not self.floater_must_match or self.may_float(partner)
        (allowed if floats else others)[colour_class(players[partner])] += sign

    def _split_counts(self, s1: list[int], s2: list[int]) -> tuple[list, list, list]:
        """The colour classes of S1's movers not yet paired and of S2's free players (allowed
        floaters, others)."""
        players, used = self.players, self.used
        movers, allowed, others = [0] * COLOUR_CLASSES, [0] * COLOUR_CLASSES, [0] * COLOUR_CLASSES
        for x in s1:
            if x not in used:
                movers[colour_class(players[x])] += 1
        must_match = self.floater_must_match
        for y in s2:
            if y not in used:
                floats = not must_match or self.may_float(y)
                (allowed if floats else others)[colour_class(players[y])] += 1
        return movers, allowed, others

    def _depth_first(
        self,
        movers: list[int],
        partners: list[int],
        *,
        below_only: bool,
        expand: Callable[[int], bool],
        complete: Callable[[], None],
    ) -> None:
        """Pair ``movers`` one after another, each with every allowed player of ``partners`` in
        turn (``below_only``: those ranked below the mover), depth first with an explicit stack.
        A pairing the bounds do not prune leads on to the next mover, if ``expand(level)``
        agrees, and once every mover is paired to ``complete()``."""
        depth = len(movers)
        if not depth:
            complete()
            return
        if not expand(0):
            return
        compatible = self.ctx.compatible
        used = self.used
        # per level: the partners left to try (lists of partners are in rank order) and the
        # pairing in place
        untried: list = [None] * depth
        added: list = [None] * depth  # (partner, what _add did)
        level = 0
        untried[0] = self._partners(movers[0], partners, below_only)
        while level >= 0:
            mover = movers[level]
            if added[level] is not None:
                partner, done = added[level]
                self._remove(mover, partner, done)
                added[level] = None
            for partner in untried[level]:
                if partner not in used and compatible(mover, partner):
                    break
            else:
                level -= 1
                continue
            added[level] = (partner, self._add(mover, partner))
            if self.pruned():
                continue
            if level + 1 == depth:
                complete()
            elif expand(level + 1):
                level += 1
                untried[level] = self._partners(movers[level], partners, below_only)

    @staticmethod
    def _partners(mover: int, partners: list[int], below_only: bool) -> Iterator[int]:
        if below_only:
            return ranked_below(partners, mover)
        return iter(partners)

    def _pair_remainder(self) -> None:
        """The remainder: exchanges in order, each followed by its transpositions."""
        remainder = [r for r in self.bracket.residents if r not in self.used]
        if self.checked and self.mode == REACH and not self._remainder_fits(remainder):
            return
        s1, s2 = remainder[: self.remainder_pairs], remainder[self.remainder_pairs :]
        self._transpositions(s1, s2)
        if self.remainder_pairs and s2:
            base = self._split_counts(s1, s2) if self.count_colours else None
            for down, up in exchanges(len(s1), len(s2)):
                self.nodes += 1
                if self.nodes > self.budget:
                    raise SearchBudgetExceeded
                moved_down = [remainder[k] for k in down]
                moved_up = [remainder[k] for k in up]
                if base is not None and not self._exchange_fits(base, moved_down, moved_up):
                    continue  # its S1 and S2 cannot reach the bound, whatever the transposition
                self._transpositions(
                    sorted([x for x in s1 if x not in moved_down] + moved_up),
                    sorted([x for x in s2 if x not in moved_up] + moved_down),
                )
        self.s2 = None
        self.split = None

    def _exchange_fits(self, base: tuple, moved_down: list[int], moved_up: list[int]) -> bool:
        """The colour counts of an exchange's S1 and S2 (from those before any exchange)."""
        movers, allowed, others = (list(counts) for counts in base)
        players = self.players
        must_match = self.floater_must_match
        for x, sign in [(x, 1) for x in moved_down] + [(y, -1) for y in moved_up]:
            klass = colour_class(players[x])
            movers[klass] -= sign
            floats = not must_match or self.may_float(x)
            (allowed if floats else others)[klass] += sign
        return self._colours_fit((movers, allowed, others))

    def _transpositions(self, s1: list[int], s2: list[int]) -> None:
        self.s2 = s2
        if self.count_colours:
            self.split = self._split_counts(s1, s2)
        free = [y for y in s2 if y not in self.used]
        self.s2_unpaired = len(free)
        repeats = [self._repeats(y) for y in free]
        self.s2_repeaters = [sum(r[0] for r in repeats), sum(r[1] for r in repeats)]

        def expand(level: int) -> bool:
            if level and not self.check_every_level:
                return True
            return self.transposable(s1, s2, level)

        self._depth_first(
            s1,
            s2,
            below_only=True,
            expand=expand,
            complete=lambda: self.leaf([y for y in s2 if y not in self.used]),
        )

    def _within_bound(self) -> Callable[[int, int], bool]:
        """Compatibility, and in reach mode: the bound is a lower bound, so a hit equals it in
        every criterion; once a per-pair criterion has reached its bound, a pair costing it
        more cannot be used."""
        ctx = self.ctx
        if self.mode != REACH:
            return ctx.compatible
        full = [
            which
            for which, place in enumerate(ADDITIVE_PLACES)
            if self.totals[which] >= self.bound[place]
        ]
        if not full:
            return ctx.compatible

        def compatible(first: int, second: int) -> bool:
            if not ctx.compatible(first, second):
                return False
            cost = ctx.pair_cost(first, second)
            return not any(cost[which] for which in full)

        return compatible

    def _remainder_fits(self, remainder: list[int]) -> bool:
        """Checked reach mode, before the remainder's exchanges: can the remainder be paired
        within the bound at all, whatever the exchange -- an allowed floater among it, the
        colour preferences it can grant (counted over the remainder as a whole), and a
        maximum matching with the pairs the bound still allows (a dummy vertex per floater)?
        If not, none of its (possibly very many) exchanges is tried."""
        floaters = self.floaters_to_choose
        players = self.players
        allowed, others = [0] * COLOUR_CLASSES, [0] * COLOUR_CLASSES
        may_float = self.may_float if self.floater_must_match else None
        for x in remainder:
            counts = others if may_float and not may_float(x) else allowed
            counts[colour_class(players[x])] += 1
        if sum(allowed) < floaters:
            return False
        bound, totals = self.bound, self.totals
        if not pool_colours_fit(
            allowed,
            others,
            floaters,
            bound[_C12_PLACE] - totals[_C12],
            bound[_C13_PLACE] - totals[_C13],
            self.absolutes_may_meet,
        ):
            return False
        compatible = self._within_bound()
        dummies = list(range(-2, -2 - floaters, -1))  # -1 is the PAB's vertex

        def adjacent(first: int, second: int) -> bool:
            if first < 0 or second < 0:
                player = max(first, second)
                return player >= 0 and (may_float is None or may_float(player))
            return compatible(first, second)

        return pairs_everyone(remainder + dummies, adjacent)

    def transposable(self, s1: list[int], s2: list[int], level: int) -> bool:
        """Can S1[level:] still all get distinct compatible partners of higher BSN in S2?
        Checked reach mode: within the bound (see :meth:`_colours_fit`), and leaving over a
        player allowed to float."""
        if self.split is not None and not self._colours_fit(self.split):
            return False
        window = self.full_check_window
        if level and window is not None and len(s1) - level > window:
            return True  # a big bracket, far from the end of S1: the counts only
        compatible = self._within_bound()
        free = [y for y in s2 if y not in self.used]
        movers = s1[level:]
        if not each_pairs_below(movers, free, compatible):
            return False
        if self.floater_must_match:
            # One player of S2 floats, and it must be one of those allowed: the others must all
            # be paired. A matching pairing every mover and one pairing every such player imply
            # one pairing both (Mendelsohn-Dulmage), which leaves an allowed floater.
            must = [y for y in free if not self.may_float(y)]
            if must and not each_paired_above(must, movers, compatible):
                return False
        return True

    def _colours_fit(self, split: tuple[list[int], list[int], list[int]]) -> bool:
        """Can the movers of S1 (counts per colour class) be paired with S2's free players, the
        allowed floaters left over, denying exactly the colour preferences the bound leaves
        (C12, and at most its C13)? S1 players meet S2 players only, which a count over the
        whole bracket does not see."""
        movers, allowed, others = split
        bound, totals = self.bound, self.totals
        return split_colours_fit(
            movers,
            allowed,
            others,
            sum(allowed) + sum(others) - sum(movers),
            bound[_C12_PLACE] - totals[_C12],
            bound[_C13_PLACE] - totals[_C13],
            self.absolutes_may_meet,
        )

    def may_float(self, player: int) -> bool:
        """Reach mode, one resident floating: may ``player`` be it? Its own criteria (C9, C14,
        C16, C18, C20 with the Limbo players; in the last bracket, the PAB) must be the
        bound's, since a candidate reaching the bound equals it."""
        known = self._may_float.get(player)
        if known is None:
            floaters = sorted([*self.limbo, player])
            bound = self.bound
            known = self.bracket.floater_criteria(floaters) == (
                bound.c9_pab_unplayed_games,
                bound.c14_downfloated_last_round,
                bound.c16_downfloated_two_rounds_ago,
                bound.c18_scores_downfloated_last_round,
                bound.c20_scores_downfloated_two_rounds_ago,
            ) and (not self.bracket.is_last or self.bracket.floaters_ok(floaters))
            self._may_float[player] = known
        return known

    def leaf(self, free: list[int]) -> None:
        floaters = sorted(self.limbo + free)
        if len(floaters) != self.downfloaters:
            return
        self.nodes += 1
        bracket = self.bracket
        if not bracket.floaters_ok(floaters):
            return
        vector = self._criteria(
            bracket.next_bracket_score(floaters), bracket.floater_criteria(floaters)
        )
        if self.mode == REACH:
            if vector <= self.bound:
                self.found = Candidate(vector, list(self.pairs), floaters)
                raise _CandidateFound
            return
        if self.bound is None or vector < self.bound:
            self.found = Candidate(vector, list(self.pairs), floaters)
            self.bound = vector
            if vector <= self.floor:
                raise _CandidateFound
