"""Pairing a round: C4/C5 for the whole field, then the brackets from the top down, each with
a two-phase search (reach the lower bound, else branch and bound for the optimum)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import PairingError
from .bounds import floater_set_bound, root_lower_bound, tighten_bound
from .bracket import Bracket, BracketPlan
from .cards import SwissPlayer, SwissRound
from .context import RoundContext
from .criteria import Criteria
from .search import BEST, REACH, Candidate, search

DEFAULT_NODE_BUDGET = 250000


def pair_round(
    players: Sequence[SwissPlayer],
    *,
    round_number: int,
    total_rounds: int,
    node_budget: int | None = None,
) -> SwissRound:
    """Pair one round. ``players`` are the active players (withdrawn players left out)."""
    ranked = sorted(players, key=lambda p: (-p.points2, p.tpn))
    if len({p.id for p in ranked}) != len(ranked):
        raise PairingError("duplicate players")
    if len(ranked) < 2:
        return SwissRound((), ranked[0].id if ranked else None)
    ctx = RoundContext(ranked, round_number=round_number, total_rounds=total_rounds)
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
                ctx.approximate,
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
    # Phase 1: the first candidate in generation order reaching the lower bound (a short try
    # with the cheap bound, then a full one with the matching bound).
    found = _reach(bracket, plan, floor, bracket.budget // 10)
    if found is None:
        tight = tighten_bound(bracket, plan.pairs, floor)
        if bracket.size <= 64:
            tight = floater_set_bound(bracket, plan.pairs, plan.mdp_sets, tight)
        found = _reach(bracket, plan, tight, bracket.budget)
        floor = tight
    if found is not None:
        return found
    # Phase 2: branch and bound for the true optimum (first in generation order among equals).
    best = None
    for chosen in plan.mdp_sets:
        bound = best.criteria if best else None
        candidate, exhausted = search(
            bracket, plan.pairs, chosen, mode=BEST, bound=bound, floor=floor
        )
        if exhausted:
            bracket.ctx.approximate = True
        if candidate is not None and (best is None or candidate.criteria < best.criteria):
            best = candidate
    return best


def _reach(bracket: Bracket, plan: BracketPlan, bound: Criteria, budget: int):
    """The first candidate, MDP set by MDP set, whose vector reaches ``bound``."""
    for chosen in plan.mdp_sets:
        found, _ = search(
            bracket, plan.pairs, chosen, mode=REACH, bound=bound, floor=bound, budget=budget
        )
        if found is not None:
            return found
    return None
