"""Pairing a round: C4/C5 for the whole field, then the brackets from the top down, each with
a search in the rules' generation order against a lower bound of the criteria vector.

A bracket is first searched quickly against a cheap bound; this settles nearly every bracket.
If it does not, the bracket is "hard": the bound is tightened per possible floater (its C8, C9,
C14, C16, and the colour preferences it leaves to pair), and the search checks at every level
of S1 that the rest can still be paired within the bound -- the players who may not float
paired too -- so that it goes straight to the first candidate reaching the bound. Only if no
candidate reaches it does a branch and bound look for the optimum. The node budget is a guard,
not a way out: crossing it raises :class:`PairingTooHard`, never a "best found so far" pairing.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence

from .. import PairingError
from .bounds import floater_set_bound, root_lower_bound, single_floater_bound, tighten_bound
from .bracket import Bracket, BracketPlan
from .cards import BLACK, WHITE, PairingTooHard, RoundRecord, SwissPlayer, SwissRound
from .context import RoundContext
from .criteria import Criteria
from .search import BEST, REACH, Candidate, search

#: The guard: search nodes one bracket may use before :class:`PairingTooHard` is raised.
DEFAULT_NODE_BUDGET = 2_000_000
#: The quick first search of a bracket: this many nodes, plus a few per player (at most a tenth
#: of the guard). Brackets it settles rarely need more than a few hundred.
QUICK_NODES = 3000
QUICK_NODES_PER_PLAYER = 3

_COLOURS = {WHITE: WHITE, BLACK: BLACK, "w": WHITE, "b": BLACK, "white": WHITE, "black": BLACK}


def idle_tpns_of(
    entrants: Iterable[tuple[Hashable, int | None]],
    pairing: Collection[Hashable],
    rounds: Sequence[RoundRecord],
) -> list[int]:
    """The TPNs for :func:`pair_round`'s ``idle_tpns``: the ``entrants`` (player, TPN; a TPN
    of None is skipped) not among those ``pairing`` now and in no game nor PAB of ``rounds``."""
    paired_before = {
        pid for record in rounds for pair in record.pairs for pid in (pair.white, pair.black)
    } | {record.pab for record in rounds if record.pab is not None}
    return [
        tpn
        for pid, tpn in entrants
        if tpn is not None and pid not in pairing and pid not in paired_before
    ]


def pair_round(
    players: Sequence[SwissPlayer],
    *,
    round_number: int,
    total_rounds: int,
    node_budget: int | None = None,
    initial_colour: int | str = WHITE,
    idle_tpns: Collection[int] = (),
) -> SwissRound:
    """Pair one round. ``players`` are the active players (withdrawn players left out).

    ``idle_tpns`` are the TPNs of the players who take no part in the pairing: not paired this
    round and never paired before (a round-1 bye asked for, an absence from the start). They
    are not counted in the effective pairing numbers by which Art. 5.2.5 gives colours when
    nothing else decides, as the reference engine (bbpPairings) reads the rule; a player
    paired before and absent now still counts.

    ``initial_colour`` is the colour drawn by lot before round 1 (Art. 5.2.5; in a TRF,
    ``XXC white1`` or ``black1``): WHITE or BLACK (or "w"/"b", "white"/"black"). The top seed
    gets it in round 1, and it decides every later pair whose colour histories leave nothing
    else to decide. ``node_budget`` is the search guard per bracket (default
    :data:`DEFAULT_NODE_BUDGET`).

    Raises :class:`PairingError` if no pairing avoids a rematch (or the input is inconsistent),
    and :class:`PairingTooHard` (a PairingError) if a bracket's search crosses the guard."""
    initial = _COLOURS.get(initial_colour)
    if initial is None:
        raise PairingError(f"the initial colour must be white or black, not {initial_colour!r}")
    ranked = sorted(players, key=lambda p: (-p.points2, p.tpn))
    if len({p.id for p in ranked}) != len(ranked):
        raise PairingError("duplicate players")
    if len(ranked) < 2:
        return SwissRound((), ranked[0].id if ranked else None)
    ctx = RoundContext(
        ranked,
        round_number=round_number,
        total_rounds=total_rounds,
        initial_colour=initial,
        idle_tpns=idle_tpns,
    )
    for relaxed in (False, True):
        ctx.relaxed = relaxed
        ctx.forget_completions()
        result = pair_brackets(ctx, node_budget or DEFAULT_NODE_BUDGET)
        if result is not None:
            pairs, bye = result
            scores = [player.score for player in ctx.players]
            boards = sorted(
                (ctx.colours(first, second) for first, second in pairs),
                key=lambda board: (
                    -max(scores[board[0]], scores[board[1]]),
                    -(scores[board[0]] + scores[board[1]]),
                    min(board),
                ),
            )
            return SwissRound(
                tuple((ranked[white].id, ranked[black].id) for white, black in boards),
                ranked[bye].id if bye is not None else None,
                relaxed,
                hard_brackets=ctx.hard_brackets,
                search_nodes=ctx.nodes,
            )
    raise PairingError("no pairing avoids a rematch")


def pair_brackets(ctx: RoundContext, budget: int) -> tuple[list, int | None] | None:
    """(pairs, PAB assignee) by ranks, or None if no pairing meets C1-C5."""
    everyone = list(range(ctx.size))
    if ctx.size % 2:
        if ctx.limit_pab_score() is None:
            return None
    elif not ctx.completable(everyone):
        return None
    groups: list[list[int]] = []
    for rank in everyone:
        if groups and ctx.players[groups[-1][0]].score == ctx.players[rank].score:
            groups[-1].append(rank)
        else:
            groups.append([rank])
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    for number, group in enumerate(groups):
        lower = [rank for later in groups[number + 1 :] for rank in later]
        next_residents = groups[number + 1] if number + 1 < len(groups) else []
        bracket = Bracket(ctx, carry, group, lower, next_residents, budget)
        solved = solve_bracket(bracket)
        if solved is None:
            return None
        pairs.extend(solved.pairs)
        carry = solved.floaters
    if len(carry) > 1:
        return None
    return pairs, carry[0] if carry else None


def solve_bracket(bracket: Bracket) -> Candidate | None:
    """The bracket's pairing (its pairs and downfloaters), or None if it cannot be paired."""
    plan = bracket.plan()
    if plan is None:
        if not bracket.is_last:
            return None
        bracket.collapse()
        plan = bracket.plan()
        if plan is None:
            return None
    floor = root_lower_bound(bracket, plan.pairs, plan.mdp_sets)
    # The quick search: the first candidate in generation order reaching the cheap bound.
    quick = min(QUICK_NODES + QUICK_NODES_PER_PLAYER * bracket.size, bracket.budget // 10)
    found, exhausted = _reach(bracket, plan, floor, quick)
    if found is not None:
        return found
    # The bound per floater, and the checked search. The bracket is "hard" if the quick search
    # ran out of nodes (rather than finding that no candidate reaches the cheap bound).
    bracket.ctx.hard_brackets += exhausted
    tight = tighten_bound(bracket, plan.pairs, floor)
    if bracket.size <= 64:
        tight = floater_set_bound(bracket, plan.pairs, plan.mdp_sets, tight)
    tight = single_floater_bound(bracket, plan.pairs, plan.mdp_sets, tight)
    guard = _Guard(bracket)
    found, exhausted = _reach(bracket, plan, tight, guard.left(), checked=True)
    guard.spend(exhausted)
    if found is not None:
        return found
    # No candidate reaches the bound: branch and bound for the true optimum (first in
    # generation order among equals).
    best = None
    for chosen in plan.mdp_sets:
        candidate, exhausted = search(
            bracket,
            plan.pairs,
            chosen,
            mode=BEST,
            bound=best.criteria if best else None,
            floor=tight,
            budget=guard.left(),
            checked=True,
        )
        guard.spend(exhausted)
        if candidate is not None and (best is None or candidate.criteria < best.criteria):
            best = candidate
    return best


class _Guard:
    """The node budget of one hard bracket; crossing it raises :class:`PairingTooHard`."""

    def __init__(self, bracket: Bracket):
        self.bracket = bracket
        self.start = bracket.ctx.nodes

    def left(self) -> int:
        return max(1, self.bracket.budget - (self.bracket.ctx.nodes - self.start))

    def spend(self, exhausted: bool) -> None:
        if exhausted:
            bracket = self.bracket
            players = bracket.ctx.players
            score = players[bracket.residents[0]].score if bracket.residents else 0
            raise PairingTooHard(
                f"the bracket of {bracket.size} players on {score / 2:g} points needs more than "
                f"{bracket.budget} search nodes to be paired by the FIDE rules"
            )


def _reach(
    bracket: Bracket, plan: BracketPlan, bound: Criteria, budget: int, *, checked: bool = False
) -> tuple[Candidate | None, bool]:
    """The first candidate, MDP set by MDP set, whose vector reaches ``bound``; and whether a
    search ran out of ``budget`` (shared by the sets)."""
    start = bracket.ctx.nodes
    for chosen in plan.mdp_sets:
        left = budget - (bracket.ctx.nodes - start)
        if left <= 0:
            return None, True
        found, exhausted = search(
            bracket,
            plan.pairs,
            chosen,
            mode=REACH,
            bound=bound,
            floor=bound,
            budget=left,
            checked=checked,
        )
        if found is not None:
            return found, False
        if exhausted:
            return None, True
    return None, False
