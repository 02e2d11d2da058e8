"""One round's pairing context: the players' facts in rank order, the absolute criteria
(compatibility, completion), colour allocation and the per-pair criteria.

The engine refers to a player by rank: 0 is the highest-ranked (score, then TPN, Art. 1.2).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .cards import ABSOLUTE, BLACK, STRONG, WHITE, SwissPlayer, colour_preference
from .criteria import PairCost
from .matchings import pairs_everyone

#: The dummy vertex standing for the PAB in completion checks.
PAB = -1


@dataclass(slots=True)
class RankedPlayer:
    """What the pairing needs to know about one player this round."""

    score: int
    """In half points."""
    tpn: int
    pairing_number: int
    """The effective pairing number (Art. 5.2.5's): the TPN less the TPNs below it of the
    players who take no part (``pair_round``'s ``idle_tpns``)."""
    topscorer: bool
    """More than 50% of the maximum score, when pairing the final round (1.8)."""
    preference: int
    """WHITE, BLACK or 0 (1.7)."""
    strength: int
    """NO_PREFERENCE, MILD, STRONG or ABSOLUTE."""
    colour_difference: int
    """Whites minus blacks."""
    played_colours: tuple[str, ...]
    """The colours of the games played, oldest first."""
    unplayed_games: int
    """Rounds without a game played (C9)."""
    downfloated_last_round: bool
    upfloated_last_round: bool
    downfloated_two_rounds_ago: bool
    upfloated_two_rounds_ago: bool
    pab_eligible: bool
    """No PAB, nor a win's points without playing, so far (C2)."""
    opponents: frozenset[int]
    """The ranks of the players met."""
    c3_colour: int
    """The colour this player must get if it is a non-topscorer with an absolute preference
    (two such players with the same one do not meet, C3), else 0."""
    pab_allowed: bool = False
    """Eligible for the PAB and within the lowest possible PAB score (C2, C5)."""


def ranked_player(
    card: SwissPlayer, rank_of: dict, *, final_round: bool, half_max: int, pairing_number: int
) -> RankedPlayer:
    """The facts of one card; ``rank_of`` maps the round's player ids to ranks, ``half_max``
    is 50% of the maximum score so far, in half points; ``pairing_number`` is the card's
    effective pairing number."""
    preference, strength, difference = colour_preference(card.colours)
    topscorer = final_round and card.points2 > half_max
    floats = card.floats
    return RankedPlayer(
        score=card.points2,
        tpn=card.tpn,
        pairing_number=pairing_number,
        topscorer=topscorer,
        preference=preference,
        strength=strength,
        colour_difference=difference,
        played_colours=tuple(colour for colour in card.colours if colour),
        unplayed_games=sum(1 for colour in card.colours if not colour),
        downfloated_last_round=bool(floats) and floats[-1] == "down",
        upfloated_last_round=bool(floats) and floats[-1] == "up",
        downfloated_two_rounds_ago=len(floats) > 1 and floats[-2] == "down",
        upfloated_two_rounds_ago=len(floats) > 1 and floats[-2] == "up",
        pab_eligible=not card.had_bye,
        opponents=frozenset(rank_of[o] for o in card.opponents if o in rank_of),
        c3_colour=preference if strength == ABSOLUTE and not topscorer else 0,
    )


class RoundContext:
    """The players of one round (``ranked``: SwissPlayers in rank order) and what they allow."""

    def __init__(
        self,
        ranked: list[SwissPlayer],
        *,
        round_number: int,
        total_rounds: int,
        initial_colour: int = WHITE,
        idle_tpns: Collection[int] = (),
    ):
        self.size = len(ranked)
        self.initial_colour = initial_colour
        rank_of = {card.id: rank for rank, card in enumerate(ranked)}
        final_round = round_number >= total_rounds
        idle = sorted(idle_tpns)
        self.players = [
            ranked_player(
                card,
                rank_of,
                final_round=final_round,
                half_max=round_number - 1,
                pairing_number=card.tpn - bisect_left(idle, card.tpn),
            )
            for card in ranked
        ]
        self.relaxed = False  # C3 relaxed: the colour criteria could not be met
        self.nodes = 0  # search nodes, all brackets
        self.hard_brackets = 0  # brackets the quick search did not settle
        self._costs: dict[tuple[int, int], PairCost] = {}
        self._completable: dict[frozenset, bool] = {}

    # --- absolute criteria -------------------------------------------------------------------
    def compatible(self, first: int, second: int) -> bool:
        """C1 (no rematch) and C3 for two players; with :data:`PAB`, whether the other may
        take the PAB (C2, C5)."""
        if first < 0:  # PAB, the only negative vertex
            return self.players[second].pab_allowed
        if second < 0:
            return self.players[first].pab_allowed
        player = self.players[first]
        if first == second or second in player.opponents:
            return False
        colour = player.c3_colour
        return not colour or self.relaxed or colour != self.players[second].c3_colour

    def absolutes_may_meet(self, members: Iterable[int]) -> bool:
        """Can two of these players with the same absolute colour preference meet? In the
        relaxed pass (C3 lifted), or when one is a topscorer (any topscorer among them is
        enough for a bound)."""
        return self.relaxed or any(self.players[x].topscorer for x in members)

    def completable(self, players: Sequence[int]) -> bool:
        """C4 (+C2, C5): can these players all be paired, the PAB (if the count is odd) going
        to a player allowed to take it?"""
        key = frozenset(players)
        known = self._completable.get(key)
        if known is None:
            vertices = list(players)
            if len(vertices) % 2:
                if not any(self.players[v].pab_allowed for v in vertices):
                    self._completable[key] = False
                    return False
                # The PAB first: the greedy start of the matching gives it a player allowed to
                # take it before the others are paired (last, it usually finds them all taken,
                # and an augmenting path through the whole field is needed).
                vertices.insert(0, PAB)
            known = not vertices or pairs_everyone(vertices, self.compatible)
            self._completable[key] = known
        return known

    def forget_completions(self) -> None:
        self._completable.clear()

    def limit_pab_score(self) -> int | None:
        """C5: the lowest score a PAB assignee can have in a complete pairing (odd fields); the
        players allowed the PAB are set accordingly."""
        everyone = list(range(self.size))
        for limit in sorted({player.score for player in self.players}):
            for player in self.players:
                player.pab_allowed = player.pab_eligible and player.score <= limit
            self.forget_completions()
            if self.completable(everyone):
                return limit
        return None

    # --- colours ------------------------------------------------------------------------------
    def _granting(self, favoured: int, other: int) -> tuple[int, int]:
        """(white, black) giving ``favoured`` its colour preference."""
        if self.players[favoured].preference == WHITE:
            return favoured, other
        return other, favoured

    def colours(self, first: int, second: int) -> tuple[int, int]:
        """(white, black) for two players (Art. 5.2)."""
        higher, lower = (first, second) if first < second else (second, first)
        high, low = self.players[higher], self.players[lower]
        if high.preference != low.preference:  # 5.2.1, or only one has a preference (5.2.2)
            return (
                self._granting(higher, lower) if high.preference else self._granting(lower, higher)
            )
        if high.preference:  # the same preference: the stronger one wins (5.2.2)
            high_difference = abs(high.colour_difference)
            low_difference = abs(low.colour_difference)
            if high.strength != low.strength or (
                high.strength == ABSOLUTE and high_difference != low_difference
            ):
                if high.strength > low.strength or (
                    high.strength == low.strength and high_difference > low_difference
                ):
                    return self._granting(higher, lower)
                return self._granting(lower, higher)
        # 5.2.3: alternate from the latest round in which they had different colours
        for high_colour, low_colour in zip(
            reversed(high.played_colours), reversed(low.played_colours), strict=False
        ):
            if high_colour != low_colour:
                return (lower, higher) if high_colour == "w" else (higher, lower)
        if high.preference:  # 5.2.4
            return self._granting(higher, lower)
        # 5.2.5: the higher-ranked player gets the initial colour if its pairing number is odd,
        # else the other: the effective number, counting only the players taking part (paired
        # now or before), as the reference engine (bbpPairings) reads it
        gets_white = (high.pairing_number % 2 == 1) == (self.initial_colour == WHITE)
        return (higher, lower) if gets_white else (lower, higher)

    def pair_cost(self, first: int, second: int) -> PairCost:
        """The pair's share of C10-C13, C15, C17, C19 and C21."""
        key = (first, second) if first < second else (second, first)
        known = self._costs.get(key)
        if known is not None:
            return known
        players = self.players
        one, two = players[first], players[second]
        white, black = self.colours(first, second)
        colour_difference = colour_streak = 0
        if one.topscorer or two.topscorer:
            for player, colour, step in ((players[white], "w", 1), (players[black], "b", -1)):
                if abs(player.colour_difference + step) > 2:
                    colour_difference += 1
                if player.played_colours[-2:] == (colour, colour):
                    colour_streak += 1
        not_granted = strong_not_granted = 0
        if one.preference and one.preference == two.preference:
            not_granted = 1
            loser = players[white] if players[white].preference == BLACK else players[black]
            strong_not_granted = 1 if loser.strength == STRONG else 0
        upfloater = two if one.score > two.score else one if two.score > one.score else None
        difference = abs(one.score - two.score)
        upfloated_last = 1 if upfloater is not None and upfloater.upfloated_last_round else 0
        upfloated_before = 1 if upfloater is not None and upfloater.upfloated_two_rounds_ago else 0
        known = PairCost(
            colour_difference,
            colour_streak,
            not_granted,
            strong_not_granted,
            upfloated_last,
            upfloated_before,
            difference if upfloated_last else 0,
            difference if upfloated_before else 0,
        )
        self._costs[key] = known
        return known
