"""Lower bounds of a bracket's criteria vector: they let the search stop at the first candidate
reaching them, and prune the branches that cannot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..matching import max_matching
from .bracket import Bracket
from .cards import ABSOLUTE, BLACK, MILD, WHITE
from .context import RankedPlayer
from .criteria import ADDITIVE_PLACES, BracketScore, Criteria, PairCost

_C12 = PairCost._fields.index("c12_preferences_not_granted")
_C13 = PairCost._fields.index("c13_strong_preferences_not_granted")


class ColourTally:
    """Colour preferences among the players still to place: lower bounds of C12 and C13."""

    __slots__ = ("absolute", "mild", "preferring")

    def __init__(self, players: Sequence[RankedPlayer] = ()):
        self.preferring = {WHITE: 0, BLACK: 0, 0: 0}  # per preference, 0 for none
        self.mild = {WHITE: 0, BLACK: 0}
        self.absolute = {WHITE: 0, BLACK: 0}
        for player in players:
            self.count(player, 1)

    def count(self, player: RankedPlayer, sign: int) -> None:
        preference = player.preference
        self.preferring[preference] += sign
        if preference:
            if player.strength == MILD:
                self.mild[preference] += sign
            elif player.strength == ABSOLUTE:
                self.absolute[preference] += sign

    def bounds(self, floaters: int, absolutes_may_meet: bool) -> tuple[int, int]:
        """(C12, C13) at least, when ``floaters`` of the players float: every pair beyond what
        the minority colour, the players without a preference and the floaters can absorb
        denies one preference; mild ones (and, where absolutes may meet, half the absolute
        ones) go first."""
        white, black = self.preferring[WHITE], self.preferring[BLACK]
        if white >= black:
            majority, minority, side = white, black, WHITE
        else:
            majority, minority, side = black, white, BLACK
        # ceil((majority - floaters - minority - no preference) / 2)
        denied = max(0, -((floaters + minority + self.preferring[0] - majority) // 2))
        absolute = self.absolute[side] // 2 if absolutes_may_meet else 0
        return denied, max(0, denied - self.mild[side] - absolute)


def root_lower_bound(bracket: Bracket, pairs: int, mdp_sets: Sequence[tuple[int, ...]]) -> Criteria:
    """A componentwise lower bound of the criteria vector over the bracket's candidates."""
    players = bracket.ctx.players
    downfloaters = bracket.size - 2 * pairs
    if bracket.is_last:
        next_score = BracketScore(0, ())
    else:
        next_size = downfloaters + len(bracket.next_residents)
        next_pairs = min(next_size // 2, len(bracket.next_residents))
        next_floaters = next_size - 2 * next_pairs
        if bracket.next_group_length() == 0 and next_floaters > 1:
            next_pairs = next_size // 2
            next_floaters = next_size - 2 * next_pairs
        next_resident_score = (
            players[bracket.next_residents[0]].score if bracket.next_residents else 0
        )
        next_score = BracketScore(-next_pairs, (next_resident_score,) * next_floaters)
        options = bracket.floater_options(
            downfloaters, mdp_sets, lambda so_far, more: so_far <= 40 and more <= 40
        )
        if options:
            next_score = min(
                bracket.next_bracket_score(sorted(floaters)) for _, floaters in options
            )
    unplayed = 0
    members = bracket.mdps + bracket.residents
    if bracket.c9_possible and downfloaters == 1:
        unplayed = min(
            (players[x].unplayed_games for x in members if players[x].pab_allowed), default=0
        )
    tally = ColourTally([players[x] for x in members])
    not_granted, strong_not_granted = tally.bounds(
        downfloaters, any(players[x].topscorer for x in members)
    )
    # Limbo players are common to every set only if there is one set; keep the bound valid.
    return Criteria(
        next_score,
        unplayed,
        0,
        0,
        not_granted,
        strong_not_granted,
        0,
        0,
        0,
        0,
        (-1,) * downfloaters,
        (0,) * pairs,
        (-1,) * downfloaters,
        (0,) * pairs,
    )


def _cost_floor(
    bracket: Bracket,
    players: list[int],
    legal: Callable[[int, int], bool],
    pairs: int,
    bound: Criteria,
    which: int,
) -> int:
    """At least one unit of the additive criterion ``which`` (a PairCost index) per pair that
    cannot be made free of it: pairs minus a maximum matching of the cost-free pairs."""
    pair_cost = bracket.ctx.pair_cost

    def free(first: int, second: int) -> bool:
        return legal(first, second) and not pair_cost(first, second)[which]

    free_pairs = len(max_matching(players, free)) // 2
    return max(bound[ADDITIVE_PLACES[which]], pairs - free_pairs)


def tighten_bound(bracket: Bracket, pairs: int, bound: Criteria) -> Criteria:
    """C12 >= pairs - (most pairs without a colour conflict); the same for C13."""
    members = bracket.mdps + bracket.residents
    legal = bracket.legal_pairs(set(bracket.mdps))
    return bound._replace(
        c12_preferences_not_granted=_cost_floor(bracket, members, legal, pairs, bound, _C12),
        c13_strong_preferences_not_granted=_cost_floor(bracket, members, legal, pairs, bound, _C13),
    )


def floater_set_bound(
    bracket: Bracket, pairs: int, mdp_sets: Sequence[tuple[int, ...]], bound: Criteria
) -> Criteria:
    """A tighter bound when the downfloater sets are few: the smallest, over the sets F for
    which a candidate exists, of F's own criteria (C8, C9, C14, C16, C18, C20) with the colour
    criteria bounded by maximum matchings of the players left to pair (C10-C13: at least one
    per pair that cannot be made free of that cost)."""
    downfloaters = bracket.size - 2 * pairs
    options = bracket.floater_options(
        downfloaters, mdp_sets, lambda so_far, more: so_far + more <= 64
    )
    if options is None:
        return bound
    best = None
    for paired_mdps, floaters in options:
        if not bracket.floaters_ok(floaters):
            continue
        out = set(floaters)
        rest = [x for x in bracket.mdps + bracket.residents if x not in out]
        legal = bracket.legal_pairs(set(paired_mdps))
        if len(max_matching(rest, legal)) != len(rest):
            continue
        colour_floors = [
            _cost_floor(bracket, rest, legal, pairs, bound, which) for which in range(4)
        ]  # C10..C13
        floaters = sorted(floaters)
        unplayed, down_last, down_before, scores_last, scores_before = bracket.floater_criteria(
            floaters
        )
        vector = Criteria(
            bracket.next_bracket_score(floaters),
            unplayed,
            *colour_floors,
            down_last,
            0,
            down_before,
            0,
            scores_last,
            (0,) * pairs,
            scores_before,
            (0,) * pairs,
        )
        if best is None or vector < best:
            best = vector
    return bound if best is None else max(bound, best)
