"""Lower bounds of a bracket's criteria vector: they let the search stop at the first candidate
reaching them, and prune the branches that cannot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..matching import max_matching
from .bracket import Bracket
from .cards import ABSOLUTE, BLACK, MILD, WHITE
from .context import RankedPlayer
from .criteria import ADDITIVE_PLACES, BracketScore, Criteria, PairCost
from .matchings import pairs_everyone, quick_matching_reaches

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


#: Colour classes of :func:`split_colours_fit`: white mild/strong/absolute, black
#: mild/strong/absolute, no preference.
COLOUR_CLASSES = 7
_NO_PREFERENCE_CLASS = 6


def colour_class(player: RankedPlayer) -> int:
    """The player's class for :func:`split_colours_fit`."""
    if not player.preference:
        return _NO_PREFERENCE_CLASS
    return (0 if player.preference == WHITE else 3) + min(player.strength, ABSOLUTE) - MILD


def split_colours_fit(
    movers: Sequence[int],
    allowed: Sequence[int],
    others: Sequence[int],
    floaters: int,
    denied: int,
    strong_denied: int,
    absolutes_may_meet: bool,
) -> bool:
    """Can every mover be paired with one of the partners, ``floaters`` partners being left over
    (all of them ``allowed`` ones), denying exactly ``denied`` colour preferences (C12) and at
    most ``strong_denied`` strong ones (C13)? Arguments are counts per colour class
    (:data:`COLOUR_CLASSES`); compatibility is left out, so a False is certain, a True is not.

    Two players preferring the same colour deny one preference; a strong one if the weaker of
    the two (who does not get the colour) is strong -- not if one is mild (it loses), nor if both
    are absolute (they meet only as topscorers or in the relaxed pass, and the loser is
    absolute)."""
    if floaters > 2:  # a looser test: colours only
        return _colours_only_fit(movers, allowed, others, floaters, denied)
    for left in _floater_choices(allowed, floaters):
        partners = [a + o - f for a, o, f in zip(allowed, others, left, strict=True)]
        if _pairs_fit(movers, partners, denied, strong_denied, absolutes_may_meet):
            return True
    return False


def pool_colours_fit(
    allowed: Sequence[int],
    others: Sequence[int],
    floaters: int,
    denied: int,
    strong_denied: int,
    absolutes_may_meet: bool,
) -> bool:
    """As :func:`split_colours_fit`, for a pool paired among itself (any two may meet): can it
    be paired, ``floaters`` of the ``allowed`` ones left over, denying exactly ``denied``
    colour preferences and at most ``strong_denied`` strong ones?"""
    if floaters > 2:
        return True  # not worth the count
    for left in _floater_choices(allowed, floaters):
        counts = [a + o - f for a, o, f in zip(allowed, others, left, strict=True)]
        whites, blacks = counts[0:3], counts[3:6]
        none = counts[_NO_PREFERENCE_CLASS]
        for white_pairs in range(min(denied, sum(whites) // 2) + 1):
            black_pairs = denied - white_pairs
            if 2 * black_pairs > sum(blacks):
                continue
            # the others meet a player of the other colour or without a preference
            if abs(sum(whites) - 2 * white_pairs - (sum(blacks) - 2 * black_pairs)) > none:
                continue
            strong = _pool_strong_pairs(
                white_pairs, whites, absolutes_may_meet
            ) + _pool_strong_pairs(black_pairs, blacks, absolutes_may_meet)
            if strong <= strong_denied:
                return True
    return False


def _pool_strong_pairs(pairs: int, counts: Sequence[int], absolutes_may_meet: bool) -> int:
    """At least how many of ``pairs`` pairs within one colour (mild, strong, absolute counts)
    deny a strong preference: a mild player spares its pair, and so do two absolute ones."""
    spared = min(pairs, counts[0])
    if absolutes_may_meet:
        spared += min(pairs - spared, counts[2] // 2)
    return pairs - spared


def _floater_choices(allowed: Sequence[int], floaters: int):
    """The classes of the players left over (counts per class), every way."""
    if not floaters:
        yield [0] * COLOUR_CLASSES
        return
    for first in range(COLOUR_CLASSES):
        if not allowed[first]:
            continue
        if floaters == 1:
            left = [0] * COLOUR_CLASSES
            left[first] = 1
            yield left
            continue
        for second in range(first, COLOUR_CLASSES):
            if allowed[second] > (first == second):
                left = [0] * COLOUR_CLASSES
                left[first] += 1
                left[second] += 1
                yield left


def _pairs_fit(
    movers: Sequence[int],
    partners: Sequence[int],
    denied: int,
    strong_denied: int,
    absolutes_may_meet: bool,
) -> bool:
    """As :func:`split_colours_fit`, with the partners known (as many as movers)."""
    white_movers, black_movers = sum(movers[0:3]), sum(movers[3:6])
    white_partners, black_partners = sum(partners[0:3]), sum(partners[3:6])
    none_movers, none_partners = movers[_NO_PREFERENCE_CLASS], partners[_NO_PREFERENCE_CLASS]
    if none_movers or none_partners:
        whites = range(min(white_movers, white_partners, denied) + 1)
    else:  # no choice: every player must meet one of the other colour but the same-colour pairs
        whites2 = denied + white_movers - black_partners
        if whites2 % 2:
            return False
        whites = (whites2 // 2,)
    for white_pairs in whites:
        black_pairs = denied - white_pairs
        if not (
            0 <= white_pairs <= min(white_movers, white_partners)
            and 0 <= black_pairs <= min(black_movers, black_partners)
        ):
            continue
        rest = (white_movers - white_pairs, black_movers - black_pairs, none_movers)
        rest_partners = (white_partners - white_pairs, black_partners - black_pairs, none_partners)
        if _granting_pairs(rest, rest_partners) != sum(rest):
            continue
        strong = _strong_pairs(
            white_pairs, movers[0:3], partners[0:3], absolutes_may_meet
        ) + _strong_pairs(black_pairs, movers[3:6], partners[3:6], absolutes_may_meet)
        if strong <= strong_denied:
            return True
    return False


def _strong_pairs(
    pairs: int, movers: Sequence[int], partners: Sequence[int], absolutes_may_meet: bool
) -> int:
    """At least how many of ``pairs`` same-colour pairs deny a strong preference, the movers
    and partners of that colour counted as (mild, strong, absolute)."""
    spared = min(pairs, movers[0] + partners[0])
    if absolutes_may_meet:
        spared += min(pairs - spared, movers[2], partners[2])
    return pairs - spared


def _colours_only_fit(
    movers: Sequence[int], allowed: Sequence[int], others: Sequence[int], floaters: int, denied: int
) -> bool:
    """C12 alone, for many floaters: at most ``denied`` preferences denied."""

    def by_colour(counts: Sequence[int]) -> list[int]:
        return [sum(counts[0:3]), sum(counts[3:6]), counts[_NO_PREFERENCE_CLASS]]

    movers, allowed, others = by_colour(movers), by_colour(allowed), by_colour(others)
    for white_left in range(min(floaters, allowed[0]) + 1):
        for black_left in range(min(floaters - white_left, allowed[1]) + 1):
            none_left = floaters - white_left - black_left
            if none_left > allowed[2]:
                continue
            partners = (
                allowed[0] + others[0] - white_left,
                allowed[1] + others[1] - black_left,
                allowed[2] + others[2] - none_left,
            )
            if sum(movers) - _granting_pairs(movers, partners) <= denied:
                return True
    return False


def _granting_pairs(movers: Sequence[int], partners: Sequence[int]) -> int:
    """The most mover-partner pairs that grant both preferences (counts white, black, none on
    each side, as many partners as movers): white with black first, then the players without
    a preference with whoever is left."""
    white_black = min(movers[0], partners[1])
    black_white = min(movers[1], partners[0])
    movers_left = movers[0] - white_black + movers[1] - black_white
    partners_left = partners[0] - black_white + partners[1] - white_black
    to_none = min(movers_left, partners[2])
    from_none = min(movers[2], partners_left + partners[2] - to_none)
    return white_black + black_white + to_none + from_none


def root_lower_bound(bracket: Bracket, pairs: int, mdp_sets: Sequence[tuple[int, ...]]) -> Criteria:
    """A componentwise lower bound of the criteria vector over the bracket's candidates."""
    players = bracket.ctx.players
    downfloaters = bracket.size - 2 * pairs
    if bracket.is_last:
        next_score = BracketScore(0, ())
    else:
        next_size = downfloaters + len(bracket.next_residents)
        if bracket.next_group_length() == 0:
            # The next bracket is the last: it pairs all but one, collapsed if need be, and its
            # odd one out takes the PAB. A collapsed last bracket scores no downfloater
            # (next_bracket_score), so no floater score is a lower bound here.
            next_score = BracketScore(-(next_size // 2), ())
        else:
            # Its MDPs can only meet its residents; its own downfloaters are residents at best.
            next_pairs = min(next_size // 2, len(bracket.next_residents))
            next_resident_score = players[bracket.next_residents[0]].score
            next_score = BracketScore(
                -next_pairs, (next_resident_score,) * (next_size - 2 * next_pairs)
            )
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
        downfloaters, bracket.ctx.absolutes_may_meet(members)
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
    known = bound[ADDITIVE_PLACES[which]]

    def free(first: int, second: int) -> bool:
        return legal(first, second) and not pair_cost(first, second)[which]

    # A quick matching first: if it leaves no more pairs with the cost than ``bound`` already
    # says, a maximum one cannot raise the bound (and need not be computed).
    if quick_matching_reaches(players, free, pairs - known):
        return known
    free_pairs = len(max_matching(players, free)) // 2
    return max(known, pairs - free_pairs)


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
    players = bracket.ctx.players
    absolutes_may_meet = bracket.ctx.absolutes_may_meet(bracket.mdps + bracket.residents)
    best = None
    for paired_mdps, floaters in options:
        if not bracket.floaters_ok(floaters):
            continue
        floaters = sorted(floaters)
        unplayed, down_last, down_before, scores_last, scores_before = bracket.floater_criteria(
            floaters
        )
        next_score = bracket.next_bracket_score(floaters)
        if best is not None and (next_score, unplayed) > best[:2]:
            continue  # larger whatever its colours
        out = set(floaters)
        rest = [x for x in bracket.mdps + bracket.residents if x not in out]
        legal = bracket.legal_pairs(set(paired_mdps))
        if not pairs_everyone(rest, legal):
            continue
        # the colour preferences of the players left to pair, counted, then by matchings
        counted = ColourTally([players[x] for x in rest]).bounds(0, absolutes_may_meet)
        option_bound = bound._replace(
            c12_preferences_not_granted=max(bound.c12_preferences_not_granted, counted[0]),
            c13_strong_preferences_not_granted=max(
                bound.c13_strong_preferences_not_granted, counted[1]
            ),
        )
        colour_floors = [
            _cost_floor(bracket, rest, legal, pairs, option_bound, which) for which in range(4)
        ]  # C10..C13
        vector = Criteria(
            next_score,
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


def single_floater_bound(
    bracket: Bracket, pairs: int, mdp_sets: Sequence[tuple[int, ...]], bound: Criteria
) -> Criteria:
    """A tighter bound when at most one resident floats (whatever the bracket's size): the
    smallest, over the MDP sets and the possible floaters F (the Limbo players and at most one
    resident), of F's own criteria (C8, C9, C14, C16, C18, C20) with C12 and C13 bounded by the
    colour preferences of the players left to pair. The floater's colour preference matters: a
    floater of the majority colour lets one more pair be granted both preferences.

    Floaters are tried by the rest of the vector first, so that C8 (a pairing plan of the next
    bracket) is only worked out for the few that could be the smallest."""
    players = bracket.ctx.players
    downfloaters = bracket.size - 2 * pairs
    options = []
    for chosen in mdp_sets:
        paired, limbo = bracket.split(chosen)
        resident_floaters = downfloaters - len(limbo)
        if resident_floaters > 1:
            return bound
        pool = paired + bracket.residents
        tally = ColourTally([players[x] for x in pool])
        absolutes_may_meet = bracket.ctx.absolutes_may_meet(pool)
        if not resident_floaters:
            colours = tally.bounds(0, absolutes_may_meet)
            floaters = sorted(limbo)
            options.append((_cheap_vector(bracket, floaters, colours, bound), floaters, paired))
            continue
        for resident in bracket.residents:
            player = players[resident]
            tally.count(player, -1)
            colours = tally.bounds(0, absolutes_may_meet)
            tally.count(player, 1)
            floaters = sorted([*limbo, resident])
            options.append((_cheap_vector(bracket, floaters, colours, bound), floaters, paired))
    options.sort(key=lambda option: option[0])
    lowest_c8 = bound.c8_next_bracket
    best = None
    for cheap, floaters, paired in options:
        if best is not None and (lowest_c8, *cheap) >= best:
            if best[0] == lowest_c8:
                break  # C8 at its lower bound: no later option is smaller
            continue  # cannot be smaller, whatever its C8
        if not bracket.floaters_ok(floaters):
            continue
        vector = (bracket.next_bracket_score(floaters), *cheap)
        if best is not None and vector >= best:
            continue
        out = set(floaters)
        rest = [x for x in bracket.mdps + bracket.residents if x not in out]
        if pairs_everyone(rest, bracket.legal_pairs(set(paired))):
            best = vector  # a legal candidate with these floaters exists
    if best is None:
        return bound
    return max(bound, Criteria(*best))


def _cheap_vector(bracket: Bracket, floaters: list[int], colours: tuple, bound: Criteria) -> tuple:
    """C9-C21 of a candidate with these downfloaters, as low as they can be (C10, C11, C15, C17,
    C19, C21 from ``bound``; C12, C13 from ``colours`` or ``bound``, the larger)."""
    unplayed, down_last, down_before, scores_last, scores_before = bracket.floater_criteria(
        floaters
    )
    return (
        unplayed,
        bound.c10_topscorer_colour_difference,
        bound.c11_topscorer_colour_streak,
        max(colours[0], bound.c12_preferences_not_granted),
        max(colours[1], bound.c13_strong_preferences_not_granted),
        down_last,
        bound.c15_upfloated_last_round,
        down_before,
        bound.c17_upfloated_two_rounds_ago,
        scores_last,
        bound.c19_differences_upfloated_last_round,
        scores_before,
        bound.c21_differences_upfloated_two_rounds_ago,
    )
