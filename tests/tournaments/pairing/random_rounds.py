"""Random pairing cards for the tests of one round's context and brackets (not a test module):
cards whose facts (scores, colours, floats, opponents, byes) are drawn independently, in rank
order, and the brute-force answers those tests compare the engine with."""

from __future__ import annotations

import random
from functools import cache

from tournaments.pairing.dutch.bracket import Bracket
from tournaments.pairing.dutch.cards import SwissPlayer

COLOURS = ("w", "b", None)
FLOATS = ("down", "up", None)


def random_cards(
    rng: random.Random,
    size: int,
    rounds: int,
    *,
    scores: int | None = None,
    density: float = 0.3,
    bye_rate: float = 0.3,
    unplayed_rate: float = 0.15,
) -> list[SwissPlayer]:
    """``size`` cards in rank order (score, then TPN); ``scores`` distinct score levels at
    most (any when None); opponents drawn with ``density``, and a few outside the round."""
    ids = [f"p{k}" for k in range(size)]
    tpns = rng.sample(range(1, 2 * size + 3), size)
    levels = sorted(rng.sample(range(0, 2 * rounds + 1), min(scores or 99, 2 * rounds + 1)))
    met: dict[str, set] = {pid: set() for pid in ids}
    for first in range(size):
        for second in range(first + 1, size):
            if rng.random() < density:
                met[ids[first]].add(ids[second])
                met[ids[second]].add(ids[first])
    cards = []
    for pid, tpn in zip(ids, tpns, strict=True):
        colours = tuple(
            None if rng.random() < unplayed_rate else rng.choice("wb") for _ in range(rounds)
        )
        floats = tuple(rng.choice(FLOATS) for _ in range(rounds))
        ghosts = {"gone"} if rng.random() < 0.2 else set()
        cards.append(
            SwissPlayer(
                id=pid,
                tpn=tpn,
                points2=rng.choice(levels),
                colours=colours,
                opponents=frozenset(met[pid] | ghosts),
                had_bye=rng.random() < bye_rate,
                floats=floats,
            )
        )
    return sorted(cards, key=lambda card: (-card.points2, card.tpn))


def perfect_matching_exists(players: list[int], adjacent) -> bool:
    """Can ``players`` all be paired by ``adjacent`` (exhaustive)?"""

    @cache
    def pairable(rest: frozenset) -> bool:
        if not rest:
            return True
        first = min(rest)
        return any(
            adjacent(first, other) and pairable(rest - {first, other})
            for other in rest
            if other != first
        )

    return len(players) % 2 == 0 and pairable(frozenset(players))


def completable_by_brute_force(players: list[int], adjacent, pab_ok) -> bool:
    """C4 with C2/C5 by exhaustion: pair everyone, the odd one out (if any) taking the PAB."""
    if len(players) % 2 == 0:
        return perfect_matching_exists(players, adjacent)
    return any(
        pab_ok(player) and perfect_matching_exists([p for p in players if p != player], adjacent)
        for player in players
    )


def random_context(rng: random.Random, size: int, rounds: int, **options):
    """A RoundContext of random cards, the PAB allowed as C5 says in an odd field."""
    from tournaments.pairing.dutch.context import RoundContext

    cards = random_cards(rng, size, rounds, **options)
    ctx = RoundContext(cards, round_number=rounds + 1, total_rounds=rounds + rng.randint(1, 2))
    if size % 2:
        ctx.limit_pab_score()
    return ctx


def scoregroups(ctx) -> list[list[int]]:
    groups: list[list[int]] = []
    for rank, player in enumerate(ctx.players):
        if groups and ctx.players[groups[-1][0]].score == player.score:
            groups[-1].append(rank)
        else:
            groups.append([rank])
    return groups


def candidates(ctx, mdps: list[int], residents: list[int], lower: list[int]):
    """Every legal candidate (pairs, downfloaters) of a bracket, by exhaustion: compatible
    pairs, MDPs meeting residents only, and downfloaters with which the round can be completed
    below (in the last bracket: none, or one allowed the PAB)."""
    members = sorted(mdps + residents)
    moved = set(mdps)
    found = []

    def extend(rest: list[int], pairs: list, floaters: list) -> None:
        if not rest:
            if not lower:
                ok = not floaters or (len(floaters) == 1 and ctx.players[floaters[0]].pab_allowed)
            else:
                ok = completable_by_brute_force(
                    floaters + lower, ctx.compatible, lambda k: ctx.players[k].pab_allowed
                )
            if ok:
                found.append((list(pairs), list(floaters)))
            return
        first, others = rest[0], rest[1:]
        for second in others:
            if ctx.compatible(first, second) and not (first in moved and second in moved):
                pairs.append((first, second))
                extend([x for x in others if x != second], pairs, floaters)
                pairs.pop()
        floaters.append(first)
        extend(others, pairs, floaters)
        floaters.pop()

    extend(members, [], [])
    return found


def best_class(ctx, mdps: list[int], residents: list[int], lower: list[int]):
    """(pairs, downfloater scores highest first, [MDP sets]) of the best C6/C7 class of legal
    candidates, MDP sets as sorted positions in ``mdps``; None when there is no candidate."""
    found = candidates(ctx, mdps, residents, lower)
    if not found:
        return None
    most = max(len(pairs) for pairs, _ in found)

    def profile(floaters):
        return tuple(sorted((ctx.players[x].score for x in floaters), reverse=True))

    best = min(profile(floaters) for pairs, floaters in found if len(pairs) == most)
    sets = set()
    for pairs, floaters in found:
        if len(pairs) == most and profile(floaters) == best:
            paired = {x for pair in pairs for x in pair}
            sets.add(tuple(k for k, x in enumerate(mdps) if x in paired))
    return most, best, sorted(sets)


def most_pairs_by_brute_force(players: list[int], adjacent) -> int:
    """The size of a maximum matching of ``players`` (exhaustive)."""

    @cache
    def most(rest: frozenset) -> int:
        if len(rest) < 2:
            return 0
        first = min(rest)
        best = most(rest - {first})
        for other in rest:
            if other != first and adjacent(first, other):
                best = max(best, 1 + most(rest - {first, other}))
        return best

    return most(frozenset(players))


def random_bracket(
    rng: random.Random,
    *,
    budget: int = 10**9,
    most: int = 9,
    densities: tuple[float, ...] = (0.15, 0.35, 0.6),
) -> Bracket:
    """A bracket of a random round: a scoregroup and a few players moved down from above, at
    most ``most`` of them in all; ``densities`` are the choices of earlier meetings."""
    while True:
        size = rng.randint(2, 12)
        ctx = random_context(
            rng,
            size,
            rng.randint(1, 4),
            scores=rng.randint(1, 4),
            density=rng.choice(densities),
        )
        groups = scoregroups(ctx)
        at = rng.randrange(len(groups))
        above = [rank for group in groups[:at] for rank in group]
        mdps = sorted(rng.sample(above, rng.randint(0, min(len(above), 4))))
        lower = [rank for group in groups[at + 1 :] for rank in group]
        next_residents = groups[at + 1] if at + 1 < len(groups) else []
        if len(mdps) + len(groups[at]) <= most and len(lower) <= 8:
            return Bracket(ctx, mdps, groups[at], lower, next_residents, budget)
