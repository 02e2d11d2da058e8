"""The quality criteria (Art. 2.3-2.4) as named records that compare like tuples.

A bracket's candidates are judged by a :class:`Criteria` vector, C8 to C21 in priority order,
compared lexicographically: smaller is better. C6 and C7 (how many pairs, which downfloaters)
are settled before the search (:class:`BracketScore`); :class:`PairCost` is one pair's share of
the criteria that add up pair by pair.
"""

from __future__ import annotations

from typing import NamedTuple


class BracketScore(NamedTuple):
    """How well a bracket pairs, C6 then C7: smaller is better."""

    c6_negated_pairs: int
    """Minus the number of pairs (C6: as many pairs, that is as few downfloaters, as possible)."""
    c7_downfloater_scores: tuple[int, ...]
    """The downfloaters' scores, highest first (C7: as low as possible)."""


class PairCost(NamedTuple):
    """One pair's share of the per-pair criteria, with its colours allocated (Art. 5)."""

    c10_topscorer_colour_difference: int
    """Players of a pair with a topscorer whose colour difference would go beyond +-2 (0-2)."""
    c11_topscorer_colour_streak: int
    """Players of a pair with a topscorer who would get one colour three times running (0-2)."""
    c12_preferences_not_granted: int
    """1 if both players prefer the same colour, so that one preference is not granted."""
    c13_strong_preferences_not_granted: int
    """1 if the preference not granted is a strong one."""
    c15_upfloated_last_round: int
    """1 if the lower-scored player upfloated in the previous round too."""
    c17_upfloated_two_rounds_ago: int
    """1 if the lower-scored player upfloated two rounds before."""
    c19_score_difference: int
    """The pair's score difference if C15 counts the pair, else 0."""
    c21_score_difference: int
    """The pair's score difference if C17 counts the pair, else 0."""


class Criteria(NamedTuple):
    """A candidate's quality criteria C8 to C21, compared lexicographically: smaller is better."""

    c8_next_bracket: BracketScore
    """The best C6/C7 the next bracket can reach with this candidate's downfloaters."""
    c9_pab_unplayed_games: int
    """Unplayed games of the PAB assignee, when the bracket's one downfloater must take it."""
    c10_topscorer_colour_difference: int
    """Topscorers or opponents of topscorers whose colour difference goes beyond +-2."""
    c11_topscorer_colour_streak: int
    """Topscorers or opponents of topscorers who get one colour three times running."""
    c12_preferences_not_granted: int
    """Colour preferences not granted."""
    c13_strong_preferences_not_granted: int
    """Strong colour preferences not granted."""
    c14_downfloated_last_round: int
    """Resident downfloaters who downfloated in the previous round too."""
    c15_upfloated_last_round: int
    """Opponents of higher-scored players (MDP opponents) who upfloated in the previous round."""
    c16_downfloated_two_rounds_ago: int
    """Resident downfloaters who downfloated two rounds before."""
    c17_upfloated_two_rounds_ago: int
    """MDP opponents who upfloated two rounds before."""
    c18_scores_downfloated_last_round: tuple[int, ...]
    """Scores, highest first, of the downfloaters who downfloated in the previous round
    (padded with -1 to the number of downfloaters)."""
    c19_differences_upfloated_last_round: tuple[int, ...]
    """Score differences, largest first, of the pairs counted by C15 (padded with 0 to the number
    of pairs)."""
    c20_scores_downfloated_two_rounds_ago: tuple[int, ...]
    """As C18, for downfloats two rounds before."""
    c21_differences_upfloated_two_rounds_ago: tuple[int, ...]
    """As C19, for the pairs counted by C17."""


#: The criteria that add up pair by pair: the first six fields of PairCost, which Criteria names
#: alike; ``ADDITIVE_PLACES`` are their places in Criteria.
ADDITIVE = PairCost._fields[:6]
ADDITIVE_PLACES = tuple(Criteria._fields.index(name) for name in ADDITIVE)


def padded(values: list[int], length: int, fill: int) -> tuple[int, ...]:
    """``values`` in descending order, then ``fill`` up to ``length``."""
    if not values:
        return (fill,) * length
    out = sorted(values, reverse=True)
    out.extend([fill] * (length - len(out)))
    return tuple(out)
