"""The FIDE (Dutch) Swiss system (Handbook C.04.3, 2025 revision in force from February 2026).

Scores are kept in half points (``points2``: a win is 2, a draw 1) so that they stay exact.

How a round is paired:

1. Players are ranked by score, then tournament pairing number (TPN, 1 = top seed).
2. With an odd number of players the pairing-allocated bye (PAB) goes to the lowest-ranked
   player who has not had one, provided the others can still all be paired.
3. Score groups are paired top-down, bracket by bracket. A bracket holds the score group's
   residents plus the players moved down (MDPs) from the bracket above. Inside a bracket the
   candidates are produced in the Dutch order: MDPs first, each against the residents in order;
   then the remaining residents split into S1 (top half) and S2, ``S1[i]`` against ``S2[i]``
   with transpositions of S2 in lexicographic order, then exchanges (an S1 player taking a
   lower S1 player), and as a last resort a downfloat. Unpaired players of a bracket float down
   (the lowest ones first).
4. Absolute criteria (never broken): no rematch; two non-topscorers with the same absolute colour
   preference never meet (so nobody gets a colour difference beyond +-2 or the same colour three
   times running, except topscorers -- over 50% of the maximum score -- in the last round);
   the rest of the round must remain pairable (completion), checked with a blossom matching.
5. Quality criteria, in order: the most pairs in each bracket (fewest downfloaters); then the
   fewest pairs in which a colour preference cannot be granted. The first candidate in Dutch
   order that reaches the minimum is taken (branch and bound on a lower bound of the colour
   conflicts still to come). Criteria about repeated floats (C.12-C.21) are not applied.
6. Colours (C.04.3 E): grant both preferences; else the stronger one (two absolutes: the wider
   colour difference); else alternate from the most recent round in which the two had different
   colours; else the preference of the higher-ranked player (score first, then TPN); else the
   higher-ranked player gets the initial colour (white) when their TPN is odd.

If the colour criteria make the round unpairable (tiny fields), they are relaxed and the result
says so; if even rematches cannot be avoided, :class:`PairingError` is raised.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from . import PairingError
from .matching import has_perfect_matching, max_matching

WHITE, BLACK = 1, -1


@dataclass(frozen=True)
class SwissPlayer:
    id: Hashable
    tpn: int
    points2: int = 0  # score in half points
    colours: tuple[str | None, ...] = ()  # per past round: "w", "b" or None (no game played)
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False
    floats: tuple[str | None, ...] = ()  # per past round: "down", "up" or None


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[Hashable, Hashable], ...]  # (white, black), best boards first
    bye: Hashable | None = None
    relaxed: bool = False  # the colour criteria had to be relaxed to pair at all
    fallback: bool = False  # a bracket was paired by plain matching (search budget exhausted)


@dataclass(frozen=True)
class PlayedPair:
    white: Hashable
    black: Hashable
    white_points2: int  # 2 win, 1 draw, 0 loss for white
    played: bool = True  # False for a forfeit: no colour, and the two may meet again


@dataclass(frozen=True)
class RoundRecord:
    pairs: tuple[PlayedPair, ...] = ()
    byes: tuple[tuple[Hashable, int], ...] = ()  # (player, half points scored); PAB included
    pab: Hashable | None = None  # the pairing-allocated bye of the round, if any


def default_rounds(players: int) -> int:
    """4 rounds below 16 players, 5 below 32, 6 below 64, else 7."""
    if players < 16:
        return 4
    if players < 32:
        return 5
    if players < 64:
        return 6
    return 7


def max_rounds(players: int) -> int:
    """The most rounds a Swiss of this size can always pair without rematches: with at most
    ``n // 2`` rounds every player still has at least half the field as possible opponents, so a
    complete pairing always exists (Dirac)."""
    return max(1, players // 2)


def colour_preference(colours: Iterable[str | None]) -> tuple[int, int, int]:
    """(preference, strength, colour difference). Preference WHITE/BLACK/0; strength 3 absolute,
    2 strong, 1 mild, 0 none (no game played yet)."""
    played = [c for c in colours if c]
    if not played:
        return 0, 0, 0
    diff = played.count("w") - played.count("b")
    last2 = played[-2:] if len(played) >= 2 else []
    if diff > 1:
        return BLACK, 3, diff
    if diff < -1:
        return WHITE, 3, diff
    if last2 == ["w", "w"]:
        return BLACK, 3, diff
    if last2 == ["b", "b"]:
        return WHITE, 3, diff
    if diff == 1:
        return BLACK, 2, diff
    if diff == -1:
        return WHITE, 2, diff
    return (BLACK if played[-1] == "w" else WHITE), 1, diff


def players_from_history(
    entrants: Sequence[tuple[Hashable, int]], rounds: Sequence[RoundRecord]
) -> list[SwissPlayer]:
    """Build the pairing cards. ``entrants`` is (player, TPN) for everyone still in the event."""
    points = {pid: 0 for pid, _ in entrants}
    colours: dict[Hashable, list] = {pid: [] for pid, _ in entrants}
    floats: dict[Hashable, list] = {pid: [] for pid, _ in entrants}
    opponents: dict[Hashable, set] = {pid: set() for pid, _ in entrants}
    had_bye: dict[Hashable, bool] = {pid: False for pid, _ in entrants}
    for record in rounds:
        before = dict(points)
        seen: dict[Hashable, tuple[str | None, str | None]] = {}
        for pair in record.pairs:
            w, b = pair.white, pair.black
            for pid in (w, b):
                points.setdefault(pid, 0)
            points[w] = points.get(w, 0) + pair.white_points2
            points[b] = points.get(b, 0) + 2 - pair.white_points2
            if pair.played:
                opponents.setdefault(w, set()).add(b)
                opponents.setdefault(b, set()).add(w)
                fw = fb = None
                sw, sb = before.get(w, 0), before.get(b, 0)
                if sw != sb:
                    fw, fb = ("down", "up") if sw > sb else ("up", "down")
                seen[w] = ("w", fw)
                seen[b] = ("b", fb)
        for pid, pts in record.byes:
            points[pid] = points.get(pid, 0) + pts
            if pid == record.pab:
                had_bye[pid] = True
            seen[pid] = (None, "down" if pts > 0 else None)
        for pid in colours:
            colour, flt = seen.get(pid, (None, None))
            colours[pid].append(colour)
            floats[pid].append(flt)
    return [
        SwissPlayer(
            id=pid,
            tpn=tpn,
            points2=points.get(pid, 0),
            colours=tuple(colours[pid]),
            opponents=frozenset(opponents[pid]),
            had_bye=had_bye[pid],
            floats=tuple(floats[pid]),
        )
        for pid, tpn in entrants
    ]


class _Budget(Exception):
    pass


class _Context:
    def __init__(self, players: list[SwissPlayer], *, last_round: bool, round_number: int):
        self.players = players
        n = len(players)
        index = {p.id: i for i, p in enumerate(players)}
        self.score = [p.points2 for p in players]
        half_max = round_number - 1  # 50% of the maximum possible score, in half points
        self.top = [last_round and p.points2 > half_max for p in players]
        self.pref = [0] * n
        self.strength = [0] * n
        self.diff = [0] * n
        for i, p in enumerate(players):
            self.pref[i], self.strength[i], self.diff[i] = colour_preference(p.colours)
        self.absolute = [s == 3 for s in self.strength]
        self.opp = [frozenset(index[o] for o in p.opponents if o in index) for p in players]
        self.had_bye = [p.had_bye for p in players]
        self.relax = False

    def compatible(self, i: int, j: int) -> bool:
        if j in self.opp[i]:
            return False
        if (
            not self.relax
            and self.absolute[i]
            and self.absolute[j]
            and self.pref[i] == self.pref[j]
            and not self.top[i]
            and not self.top[j]
        ):
            return False
        return True

    def can_complete(self, indices: Sequence[int]) -> bool:
        if not indices:
            return True
        return has_perfect_matching(indices, self.compatible)

    # --- colours --------------------------------------------------------------------------
    def allocate(self, i: int, j: int) -> tuple[int, int]:
        """(white, black) for ranked indices i < j (i is the higher-ranked player)."""
        pi, pj = self.pref[i], self.pref[j]
        si, sj = self.strength[i], self.strength[j]
        if pi and pj and pi != pj:
            return (i, j) if pi == WHITE else (j, i)
        if pi and not pj:
            return (i, j) if pi == WHITE else (j, i)
        if pj and not pi:
            return (j, i) if pj == WHITE else (i, j)
        if pi and pj:  # same preference
            if si != sj or (si == 3 and abs(self.diff[i]) != abs(self.diff[j])):
                stronger_i = si > sj or (si == sj and abs(self.diff[i]) > abs(self.diff[j]))
                winner = i if stronger_i else j
                other = j if winner == i else i
                return (winner, other) if self.pref[winner] == WHITE else (other, winner)
            ci, cj = self.players[i].colours, self.players[j].colours
            for k in range(min(len(ci), len(cj)) - 1, -1, -1):
                a, b = ci[k], cj[k]
                if a and b and a != b:
                    return (j, i) if a == "w" else (i, j)
            return (i, j) if pi == WHITE else (j, i)
        # no preferences at all
        if self.players[i].tpn % 2:
            return i, j
        return j, i


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
    ctx = _Context(ranked, last_round=round_number >= total_rounds, round_number=round_number)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * len(ranked) + 1000))
    try:
        for relax in (False, True):
            ctx.relax = relax
            result = _pair(ctx, node_budget)
            if result is not None:
                pairs, bye, fallback = result
                out = tuple(
                    (ranked[w].id, ranked[b].id)
                    for w, b in sorted(
                        pairs,
                        key=lambda wb: (
                            -max(ctx.score[wb[0]], ctx.score[wb[1]]),
                            -(ctx.score[wb[0]] + ctx.score[wb[1]]),
                            min(wb),
                        ),
                    )
                )
                return SwissRound(out, ranked[bye].id if bye is not None else None, relax, fallback)
    finally:
        sys.setrecursionlimit(old_limit)
    raise PairingError("no pairing avoids a rematch")


def _pair(ctx: _Context, node_budget: int | None):
    n = len(ctx.players)
    everyone = list(range(n))
    bye = None
    if n % 2:
        for i in range(n - 1, -1, -1):
            if ctx.had_bye[i]:
                continue
            if ctx.can_complete([k for k in everyone if k != i]):
                bye = i
                break
        if bye is None:
            return None
    elif not ctx.can_complete(everyone):
        return None
    remaining = [i for i in everyone if i != bye]
    groups: list[list[int]] = []
    for i in remaining:
        if groups and ctx.score[groups[-1][0]] == ctx.score[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    fallback = False
    for g, group in enumerate(groups):
        lower = [i for grp in groups[g + 1 :] for i in grp]
        bracket_pairs, floaters, used_fallback = _pair_bracket(
            ctx, carry, group, lower, node_budget
        )
        fallback = fallback or used_fallback
        pairs.extend(bracket_pairs)
        carry = floaters
        if used_fallback == "all":
            break
    if carry:
        return None
    return [ctx.allocate(min(a, b), max(a, b)) for a, b in pairs], bye, bool(fallback)


def _pair_bracket(ctx: _Context, mdps: list[int], residents: list[int], lower: list[int], budget):
    """Pair one bracket; returns (pairs, downfloaters, fallback flag)."""
    bracket = mdps + residents
    size = len(bracket)
    last = not lower
    m = len(mdps)
    budget = budget if budget is not None else 20000 + 40 * size
    compatible = ctx.compatible
    pref = ctx.pref

    max_pairs = size // 2
    w0 = sum(1 for g in bracket if pref[g] == WHITE)
    b0 = sum(1 for g in bracket if pref[g] == BLACK)
    # Lower players left unmatched among themselves need a downfloater each (necessary test).
    # (On large fields a failed augmenting search costs O(n^2): parity is enough there.)
    if len(lower) <= 300:
        deficiency = len(lower) - len(max_matching(lower, compatible)) if lower else 0
    else:
        deficiency = len(lower) % 2
    for pairs_target in range(max_pairs, -1, -1):
        floats_target = size - 2 * pairs_target
        if last and floats_target:
            break
        if floats_target < deficiency:
            continue
        exhausted = False
        # C.6: the fewest (highest-scored) MDPs among the downfloaters.
        first_limit = max(0, floats_target - (size - m))
        for mdp_limit in range(first_limit, min(m, floats_target) + 1):
            x = max(0, (abs(w0 - b0) - (size - w0 - b0) - floats_target) // 2)
            impossible = False
            while x <= pairs_target:
                search = _BracketSearch(
                    ctx, bracket, m, lower, pairs_target, floats_target, x, budget, mdp_limit
                )
                found = search.run()
                if found is not None:
                    return found[0], found[1], False
                if search.budget_hit:
                    if x == pairs_target:
                        exhausted = True
                        break
                    x = pairs_target
                    continue
                if not search.cost_pruned:
                    impossible = True  # nothing with these floaters, whatever the colours
                    break
                x += 1
            if exhausted:
                break
            del impossible
        if exhausted:
            # Too hard to search: pair this bracket and everything below by plain matching.
            rest = bracket + lower
            match = max_matching(rest, compatible)
            if len(match) != len(rest):
                return [], rest, "all"
            done: set[int] = set()
            out = []
            for a in rest:
                if a not in done:
                    b = match[a]
                    done.update((a, b))
                    out.append((a, b))
            return out, [], "all"
    return [], list(bracket), False


class _BracketSearch:
    """Depth-first search over the candidates of one bracket, in Dutch order."""

    def __init__(self, ctx, bracket, m, lower, pairs_target, floats_target, x, budget, mdp_limit):
        self.ctx = ctx
        self.mdp_limit = mdp_limit
        self.mdp_floats = 0
        self.bracket = bracket
        self.m = m
        self.lower = lower
        self.pairs_target = pairs_target
        self.floats_target = floats_target
        self.x = x
        self.budget = budget
        self.nodes = 0
        self.budget_hit = False
        self.cost_pruned = False
        size = len(bracket)
        self.assigned = [False] * size
        self.prefs = [ctx.pref[g] for g in bracket]
        self.pairs: list[tuple[int, int]] = []
        self.floats: list[int] = []
        self.want = {WHITE: 0, BLACK: 0, 0: 0}
        for p in self.prefs:
            self.want[p] += 1

    def run(self):
        try:
            if self._step(0, self.pairs_target, self.floats_target, 0, None):
                return [(self.bracket[a], self.bracket[b]) for a, b in self.pairs], [
                    self.bracket[k] for k in self.floats
                ]
        except _Budget:
            self.budget_hit = True
        return None

    def _lower_bound(self, floats_left: int) -> int:
        w, b, z = self.want[WHITE], self.want[BLACK], self.want[0]
        return max(0, (abs(w - b) - z - floats_left) // 2)

    def _step(self, start: int, pairs_left: int, floats_left: int, cost: int, split):
        assigned = self.assigned
        size = len(self.bracket)
        k = start
        while k < size and assigned[k]:
            k += 1
        if k == size:
            return self._leaf()
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        if cost + self._lower_bound(floats_left) > self.x:
            self.cost_pruned = True
            return False
        bracket = self.bracket
        compatible = self.ctx.compatible
        prefs = self.prefs
        gk = bracket[k]
        pk = prefs[k]
        if pairs_left > 0:
            if k < self.m:
                order = self._order(k, self.m, size, k + 1, self.m)
            else:
                if split is None:
                    residents = [i for i in range(k, size) if not assigned[i]]
                    split = residents[pairs_left] if pairs_left < len(residents) else size
                if k < split:
                    order = self._order(k, split, size, k + 1, split)
                else:
                    order = self._order(k, k + 1, size, size, size)
            assigned[k] = True
            self.want[pk] -= 1
            for j in order:
                if not compatible(gk, bracket[j]):
                    continue
                c = 1 if (pk and pk == prefs[j]) else 0
                if cost + c > self.x:
                    self.cost_pruned = True
                    continue
                assigned[j] = True
                self.want[prefs[j]] -= 1
                self.pairs.append((k, j))
                if self._step(k + 1, pairs_left - 1, floats_left, cost + c, split):
                    return True
                self.pairs.pop()
                self.want[prefs[j]] += 1
                assigned[j] = False
            self.want[pk] += 1
            assigned[k] = False
        if floats_left > 0 and (k >= self.m or self.mdp_floats < self.mdp_limit):
            is_mdp = k < self.m
            self.mdp_floats += is_mdp
            assigned[k] = True
            self.want[pk] -= 1
            self.floats.append(k)
            if self._step(k + 1, pairs_left, floats_left - 1, cost, split):
                return True
            self.floats.pop()
            self.want[pk] += 1
            assigned[k] = False
            self.mdp_floats -= is_mdp
        return False

    def _order(self, k, first_lo, first_hi, second_lo, second_hi):
        assigned = self.assigned
        for j in range(first_lo, first_hi):
            if not assigned[j]:
                yield j
        for j in range(second_lo, second_hi):
            if not assigned[j]:
                yield j

    def _leaf(self) -> bool:
        floaters = [self.bracket[k] for k in self.floats]
        if floaters or self.lower:
            if not self.ctx.can_complete(floaters + self.lower):
                return False
        return True
