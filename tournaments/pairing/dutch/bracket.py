"""One bracket (1.3): its residents, the players moved down into it (MDPs), and what C4 and
C6-C8 allow it before the candidate search."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from ..matching import max_matching
from .cards import PairingTooHard
from .context import RoundContext
from .criteria import BracketScore, padded


class BracketPlan(NamedTuple):
    """The best C6/C7 class of a bracket."""

    pairs: int
    downfloater_scores: tuple[int, ...]
    mdp_sets: list[tuple[int, ...]]
    """The MDP sets (positions in ``Bracket.mdps``) for which a legal candidate exists, in
    lexicographic order."""


class Bracket:
    """A bracket: ``mdps`` (moved down, rank order) and ``residents``; ``lower`` are all the
    players below it, of which ``next_residents`` form the next scoregroup."""

    def __init__(
        self,
        ctx: RoundContext,
        mdps: Sequence[int],
        residents: Sequence[int],
        lower: Sequence[int],
        next_residents: Sequence[int],
        budget: int,
    ):
        self.ctx = ctx
        self.mdps = list(mdps)
        self.residents = list(residents)
        self.lower = list(lower)
        self.next_residents = list(next_residents)
        self.after_next = self.lower[len(self.next_residents) :]
        self.is_last = not self.lower
        self.size = len(self.mdps) + len(self.residents)
        self.budget = budget
        self._floaters_ok: dict[frozenset, bool] = {}
        self._next_scores: dict[frozenset, BracketScore] = {}
        # C9 applies when the single downfloater must be the PAB: nobody below could take it.
        self.c9_possible = ctx.size % 2 == 1 and not any(
            ctx.players[x].pab_allowed for x in self.lower
        )

    def collapse(self) -> None:
        """Make everyone a resident of one homogeneous bracket (the last bracket, when no
        pairing exists with MDPs paired to residents only)."""
        self.residents = sorted(self.mdps + self.residents)
        self.mdps = []

    @property
    def resident_score(self) -> int | None:
        return self.ctx.players[self.residents[0]].score if self.residents else None

    def legal_pairs(self, mdp_set: set[int]) -> Callable[[int, int], bool]:
        """The compatibility of the bracket's pairs when the players of ``mdp_set`` (MDPs)
        may meet residents only."""
        compatible = self.ctx.compatible

        def legal(first: int, second: int) -> bool:
            return compatible(first, second) and not (first in mdp_set and second in mdp_set)

        return legal

    # --- completion ---------------------------------------------------------------------------
    def floaters_ok(self, floaters: Sequence[int]) -> bool:
        """C4: can the round be completed below the bracket with these downfloaters?"""
        key = frozenset(floaters)
        known = self._floaters_ok.get(key)
        if known is None:
            if self.is_last:
                known = not floaters or (
                    len(floaters) == 1 and self.ctx.players[floaters[0]].pab_allowed
                )
            else:
                known = self.ctx.completable(list(floaters) + self.lower)
            self._floaters_ok[key] = known
        return known

    # --- C6 / C7: how many pairs, which MDPs ---------------------------------------------------
    def downfloater_classes(
        self, pairs: int
    ) -> Iterator[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
        """(downfloater score profile, [MDP sets in lexicographic order]) for ``pairs`` pairs,
        best profile (C7) first. MDP sets are tuples of positions in ``self.mdps``.

        A profile is the scores of the MDPs left in Limbo, then the residents' score for the
        resident downfloaters; MDPs outscore residents, so profiles go in the lexicographic
        order of how many MDPs each score level leaves in Limbo, highest level first. They are
        generated lazily in that order (however many MDPs there are)."""
        scores = [self.ctx.players[x].score for x in self.mdps]
        mdp_count, resident_count = len(scores), len(self.residents)
        resident_score = self.resident_score or 0
        downfloaters = self.size - 2 * pairs
        levels = sorted(set(scores), reverse=True)
        members = [[k for k in range(mdp_count) if scores[k] == level] for level in levels]

        def fits(limbo: int) -> bool:
            paired = mdp_count - limbo
            return (
                limbo <= downfloaters
                and paired <= min(pairs, resident_count)
                and 2 * (pairs - paired) <= resident_count - paired
            )

        totals = [limbo for limbo in range(mdp_count + 1) if fits(limbo)]
        if not totals:
            return
        room = [sum(len(group) for group in members[at:]) for at in range(len(members) + 1)]

        def counts(at: int, so_far: int) -> Iterator[tuple[int, ...]]:
            """Limbo counts per level from ``at`` on, in lexicographic order."""
            if at == len(members):
                if so_far in totals:
                    yield ()
                return
            for here in range(len(members[at]) + 1):
                low, high = so_far + here, so_far + here + room[at + 1]
                if any(low <= total <= high for total in totals):
                    for rest in counts(at + 1, so_far + here):
                        yield (here, *rest)

        for limbo_counts in counts(0, 0):
            limbo = [level for level, n in zip(levels, limbo_counts, strict=True) for _ in range(n)]
            sets = sorted(
                tuple(sorted(itertools.chain.from_iterable(picked)))
                for picked in itertools.product(
                    *(
                        itertools.combinations(group, len(group) - n)
                        for group, n in zip(members, limbo_counts, strict=True)
                    )
                )
            )
            yield padded(limbo, downfloaters, resident_score), sets

    def plan(self) -> BracketPlan | None:
        """The best C6/C7 class with a legal candidate, or None."""
        resident_count = len(self.residents)
        most_pairs = 0
        for paired_mdps in range(min(len(self.mdps), resident_count) + 1):
            most_pairs = max(most_pairs, paired_mdps + (resident_count - paired_mdps) // 2)
        if self.size <= 40:
            # An upper bound from the bracket's own graph (MDPs only meet residents).
            graph = max_matching(self.mdps + self.residents, self.legal_pairs(set(self.mdps)))
            most_pairs = min(most_pairs, len(graph) // 2)
        need = self.lower_deficiency()
        tried = 0
        for pairs in range(most_pairs, -1, -1):
            downfloaters = self.size - 2 * pairs
            if self.is_last and downfloaters > 1:
                break
            if downfloaters < need:
                continue
            for profile, sets in self.downfloater_classes(pairs):
                tried += len(sets)
                if tried > self.budget // 50:
                    raise PairingTooHard(
                        f"the bracket of {self.size} players has too many sets of MDPs to try"
                    )
                feasible = [chosen for chosen in sets if self.exists(chosen, pairs - len(chosen))]
                if feasible:
                    return BracketPlan(pairs, profile, feasible)
        return None

    def lower_deficiency(self) -> int:
        """Downfloaters needed at least: lower players left over by a maximum matching among
        themselves (the PAB can take one)."""
        if self.is_last:
            return 0
        ctx = self.ctx
        if len(self.lower) > 200:
            need = len(self.lower) % 2
        else:
            need = len(self.lower) - len(max_matching(self.lower, ctx.compatible))
        return max(0, need - ctx.size % 2)

    def split(self, chosen: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """(the MDPs of set ``chosen``, to pair; the other MDPs, left in Limbo)."""
        paired = [self.mdps[k] for k in chosen]
        limbo = [self.mdps[k] for k in range(len(self.mdps)) if k not in chosen]
        return paired, limbo

    def exists(self, chosen: tuple[int, ...], remainder_pairs: int) -> bool:
        """Is there a legal candidate with MDP set ``chosen`` and ``remainder_pairs`` pairs of
        residents? The floaters taken from the residents are tried lowest first; the rest must
        then have a perfect matching in which MDPs meet residents only."""
        paired, limbo = self.split(chosen)
        pairs = len(paired) + remainder_pairs
        resident_floaters = self.size - 2 * pairs - len(limbo)
        if resident_floaters < 0:
            return False
        residents = self.residents
        legal = self.legal_pairs(set(paired))
        tried = 0
        for picked in itertools.combinations(range(len(residents) - 1, -1, -1), resident_floaters):
            tried += 1
            if tried > self.budget // 50:
                raise PairingTooHard(
                    f"the bracket of {self.size} players has too many ways to choose its "
                    f"{resident_floaters} downfloaters to check them all"
                )
            if not self.floaters_ok(limbo + [residents[k] for k in picked]):
                continue
            taken = set(picked)
            rest = paired + [residents[k] for k in range(len(residents)) if k not in taken]
            if len(max_matching(rest, legal)) == len(rest):
                return True
        return False

    def floater_options(
        self, downfloaters: int, mdp_sets: Sequence[tuple[int, ...]], fits: Callable
    ) -> list[tuple[list[int], list[int]]] | None:
        """(MDPs paired, downfloaters) for every MDP set and every choice of resident
        downfloaters, in order; None as soon as ``fits(options so far, choices for the next
        set)`` says they are too many."""
        options = []
        for chosen in mdp_sets:
            paired, limbo = self.split(chosen)
            resident_floaters = downfloaters - len(limbo)
            if resident_floaters < 0:
                return None
            if not fits(len(options), math.comb(len(self.residents), resident_floaters)):
                return None
            for picked in itertools.combinations(self.residents, resident_floaters):
                options.append((paired, limbo + list(picked)))
        return options

    # --- C8, C9, C14, C16, C18, C20: what the downfloaters decide -------------------------------
    def next_bracket_score(self, floaters: Sequence[int]) -> BracketScore:
        """C8: the next bracket's best C6/C7 with these MDPs."""
        if self.is_last:
            return BracketScore(0, ())
        key = frozenset(floaters)
        known = self._next_scores.get(key)
        if known is None:
            following = Bracket(
                self.ctx,
                sorted(floaters),
                self.next_residents,
                self.after_next,
                self.after_next[: self.next_group_length()],
                self.budget,
            )
            plan = following.plan()
            if plan is None:  # only a collapsed last bracket can pair it
                known = BracketScore(-(following.size // 2), ())
            else:
                known = BracketScore(-plan.pairs, plan.downfloater_scores)
            self._next_scores[key] = known
        return known

    def next_group_length(self) -> int:
        """The size of the scoregroup after the next one."""
        rest = self.after_next
        if not rest:
            return 0
        players = self.ctx.players
        score = players[rest[0]].score
        length = 0
        while length < len(rest) and players[rest[length]].score == score:
            length += 1
        return length

    def floater_criteria(self, floaters: list[int]) -> tuple:
        """C9, C14, C16, C18 and C20 of a candidate with these downfloaters (sorted)."""
        players = self.ctx.players
        unplayed = 0
        if self.c9_possible and len(floaters) == 1:
            unplayed = players[floaters[0]].unplayed_games
        resident_score = self.resident_score
        down_last = [players[x] for x in floaters if players[x].downfloated_last_round]
        down_before = [players[x] for x in floaters if players[x].downfloated_two_rounds_ago]
        return (
            unplayed,
            sum(1 for player in down_last if player.score == resident_score),
            sum(1 for player in down_before if player.score == resident_score),
            padded([player.score for player in down_last], len(floaters), -1),
            padded([player.score for player in down_before], len(floaters), -1),
        )
